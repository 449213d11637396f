/**
 * What the kernel UDP transports and the UDP wire transport need of a UDP
 * socket, so that either implementation can sit underneath: Node's dgram
 * (udp-socket.ts, one syscall per datagram) or our batched addon
 * (batched-agent-socket.ts, one sendmmsg per flush, recvmmsg with GRO).
 */
import type { RemoteInfo } from 'node:dgram';
import type { SocketAddress } from './socket-address.js';
import type { UdpIo } from './udp-io.js';

export interface UdpSocketOptions {
  /**
   * dgram: sends in flight before further sends are dropped. Batched: sends
   * queued before the queue is flushed at once (default 4096 for both).
   */
  readonly sendQueueLimit?: number;
  /** SO_RCVBUF in bytes (default 4 MiB; the kernel caps it at net.core.rmem_max). */
  readonly recvBufferSize?: number;
  /** SO_SNDBUF in bytes (default 4 MiB; capped at net.core.wmem_max). */
  readonly sendBufferSize?: number;
  /**
   * The socket underneath: `batched` (our udp_batch addon) or `dgram`
   * (Node's). Default: the process's choice (`p4ina agent --udp-io`), else
   * batched when the addon loads here, else dgram.
   */
  readonly udpIo?: UdpIo;
}

/**
 * Called once per received datagram. `msg` is the listener's for the call
 * only (the transports copy what they keep); `rinfo` may be reused for the
 * next datagram, so read it during the call.
 */
export type MessageHandler = (msg: Buffer, rinfo: RemoteInfo) => void;

export interface AgentUdpSocket {
  /** Where the socket is bound (the port the system chose, when 0 was asked for). */
  readonly local: SocketAddress;
  /** The peer the socket is connected to, if it is. */
  readonly peer: SocketAddress | undefined;
  /**
   * Connects the socket to `peer`: the kernel drops datagrams from anyone
   * else. Only for a socket bound to a port given explicitly (Linux moves a
   * socket bound to port 0 to a new port when it is disconnected again).
   */
  connect(peer: SocketAddress): Promise<void>;
  /** Undoes `connect` (the port stays); sends name their destination again. */
  disconnect(): void;
  /**
   * A send buffer to fill, or undefined (and a counted drop) when closed or
   * when too many sends are in flight. Pass it to `transmit` at once.
   */
  acquire(): Buffer | undefined;
  /** Sends `buf[0 .. length)` (a buffer from `acquire`) to `to`. */
  transmit(buf: Buffer, length: number, to: SocketAddress): void;
  /** Idempotent; no message is delivered afterwards. */
  close(): Promise<void>;
}
