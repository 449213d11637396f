/**
 * Opens the UDP socket a transport runs on: batched (our addon) or dgram, as
 * `udpIo` and the process's choice say (udp-io.ts).
 */
import type { AgentUdpSocket, MessageHandler, UdpSocketOptions } from './agent-udp-socket.js';
import { BatchedAgentSocket } from './batched-agent-socket.js';
import type { MutableTransportCounters } from './datagram-transport.js';
import type { SocketAddress } from './socket-address.js';
import { chooseUdpIo } from './udp-io.js';
import { DEFAULT_BUFFER_BYTES, PooledUdpSocket, sendQueueLimitOf } from './udp-socket.js';

/**
 * Binds to `local` (port 0: the system chooses) with send buffers of
 * `bufferSize` bytes; sends count into `counters`. `coalesce`: UDP GSO/GRO
 * on a batched socket, for UDP wires only (BatchedAgentSocketSettings says
 * why). Throws TransportError when the bind fails or batched I/O was asked
 * for and cannot be had.
 */
export async function openUdpSocket(
  local: SocketAddress,
  what: string,
  options: UdpSocketOptions,
  bufferSize: number,
  counters: MutableTransportCounters,
  onMessage: MessageHandler,
  coalesce: boolean,
): Promise<AgentUdpSocket> {
  const limit = sendQueueLimitOf(options);
  const choice = chooseUdpIo(options.udpIo, what);
  if (choice.io === 'dgram') return PooledUdpSocket.bind(local, what, options, bufferSize, counters, onMessage);
  return BatchedAgentSocket.bind(
    local,
    {
      what,
      addon: choice.addon,
      bufferSize,
      sendQueueLimit: limit,
      recvBufferSize: options.recvBufferSize ?? DEFAULT_BUFFER_BYTES,
      sendBufferSize: options.sendBufferSize ?? DEFAULT_BUFFER_BYTES,
      coalesce,
    },
    counters,
    onMessage,
  );
}
