/**
 * Agent transports: one interface for "send an INA datagram to the switch and
 * receive datagrams", over the kernel's UDP, over a UDP wire carrying
 * Ethernet frames built in user space, or in memory, and the CE marks on
 * the IPv4 headers of what arrives. Shared by the SwitchML agent and the
 * ATP, OmniReduce and Rina agents.
 */
export {
  type DatagramListener,
  type DatagramTransport,
  type TransportCounters,
  snapshotTransportCounters,
} from './datagram-transport.js';
export { TRANSPORT_ERROR_CODES, TransportError, type TransportErrorCode } from './transport-error.js';
export type { CeMarkListener, CeMarkSource } from './ce-marks.js';
export { Ipv4CeObserver, type Ipv4CeObserverCounters, type Ipv4CeObserverOptions } from './ipv4-ce-observer.js';
export { DEFAULT_MAX_PAYLOAD, KernelUdpTransport, type KernelUdpTransportOptions } from './kernel-udp-transport.js';
export type { AddressedTransport } from './addressed-transport.js';
export { KernelUdpAddressedTransport, type KernelUdpAddressedTransportOptions } from './kernel-udp-addressed-transport.js';
export { UdpWireTransport, type UdpWireCounters, type UdpWireTransportOptions, type WireHostAddress } from './udp-wire-transport.js';
export { createMemoryTransportPair, MemoryTransport, settleMemoryTransports, type MemoryTransportPairOptions } from './memory-transport.js';
export type { LinkImpairments, LinkStats } from '../../util/impaired-link.js';
export { formatSocketAddress, socketAddress, type SocketAddress } from './socket-address.js';
export type { UdpSocketOptions } from './agent-udp-socket.js';
export { UDP_IO_CHOICES, isUdpIo, setDefaultUdpIo, type UdpIo } from './udp-io.js';
