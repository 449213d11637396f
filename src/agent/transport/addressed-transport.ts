/**
 * A transport whose sender names the destination of every datagram: what a
 * server agent needs (the ATP parameter server answers each worker, or one
 * worker per rack, at its own address), where a worker's DatagramTransport
 * always sends to its one next hop. Receiving, counters and close follow the
 * DatagramTransport contract (datagram-transport.ts).
 */
import type { DatagramListener, TransportCounters } from './datagram-transport.js';
import type { SocketAddress } from './socket-address.js';

export interface AddressedTransport {
  /** A short description for logs, e.g. `udp 127.0.0.1:48896`. */
  readonly name: string;
  /** The largest payload `sendTo` takes. */
  readonly maxPayload: number;
  readonly counters: TransportCounters;
  readonly closed: boolean;
  /**
   * Sends `payload[0 .. length)` (default: all of it) to `to`; the bytes are
   * copied before it returns. False when the datagram was dropped (closed, too
   * many in flight); a payload over `maxPayload` is a RangeError.
   */
  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean;
  /**
   * Sets the one listener (undefined detaches it; datagrams are then dropped
   * and counted). The kernel's UDP and the UDP wire name each datagram's
   * sender (`from`); an in-memory test transport may not.
   */
  onDatagram(listener: DatagramListener | undefined): void;
  /** Releases the socket; idempotent. */
  close(): Promise<void>;
}
