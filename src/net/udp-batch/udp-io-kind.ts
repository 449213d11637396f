/** Which UDP sockets a switch's wires or an agent's transport use: our batched addon, or Node's dgram. */
export type UdpIo = 'batched' | 'dgram';
export const UDP_IO_CHOICES: readonly UdpIo[] = ['batched', 'dgram'];
