/**
 * The one interface through which an INA host agent talks to its switch (or
 * next hop): send a datagram (the UDP payload: a SwitchML, ATP, OmniReduce or
 * Rina header and its values) and receive datagrams. Three implementations
 * share it, so an agent runs unchanged in every deployment mode (design §3):
 *
 * - `KernelUdpTransport`: the kernel's UDP socket (Mininet, real hosts);
 * - `UdpWireTransport`: user-space Ethernet/IPv4/UDP frames over a UDP wire
 *   (loopback mode, where the agent's "NIC" is a socket joined to a switch port);
 * - `MemoryTransport`: an in-memory pair with seeded impairments (unit tests).
 *
 * Contract, the same for all three:
 * - `send` copies the bytes before it returns, so the caller may rewrite its
 *   buffer at once (an agent keeps one buffer per slot and retransmits from it).
 *   It never throws for network conditions: it returns false and counts a drop.
 * - The listener gets the received bytes as (buffer, offset, length). They are
 *   the listener's for the duration of the call only; copy what must outlive it.
 *   A listener that throws is a bug: the transport logs it and carries on.
 * - `close` is idempotent; afterwards sends are dropped and nothing is delivered.
 */
import type { SocketAddress } from './socket-address.js';

/**
 * Called once per received datagram with its payload at `buf[offset .. offset + length)`.
 * `from` is its sender, where the transport knows it (a server's
 * AddressedTransport over the kernel's UDP or a UDP wire); the object may be
 * shared between calls, so keep it but do not change it. Listeners that take
 * only the first three parameters ignore it.
 */
export type DatagramListener = (buf: Buffer, offset: number, length: number, from?: SocketAddress) => void;

/** Counters every transport keeps (live values; copy them to keep a snapshot). */
export interface TransportCounters {
  /** Datagrams handed to the listener, and their payload bytes. */
  readonly datagramsIn: number;
  readonly bytesIn: number;
  /**
   * Datagrams the medium accepted, and the bytes it took: payload bytes, except
   * on a UDP wire, where every frame sent (ARP replies too) counts with its headers.
   */
  readonly datagramsOut: number;
  readonly bytesOut: number;
  /** Sends that were dropped: transport closed, too many sends in flight, a failed send. */
  readonly sendDrops: number;
  /**
   * Received datagrams or frames that were not handed to the listener: no
   * listener attached, or (UDP wire) a frame that is malformed, from a stranger
   * or addressed to someone else. Transports that keep finer counters say so.
   */
  readonly receiveDrops: number;
}

export interface DatagramTransport {
  /** A short description for logs, e.g. `udp 127.0.0.1:40000 -> 127.0.0.1:48864`. */
  readonly name: string;
  /** The largest payload `send` takes. */
  readonly maxPayload: number;
  readonly counters: TransportCounters;
  readonly closed: boolean;
  /**
   * Sends `payload[0 .. length)` (default: all of it). Returns false when the
   * datagram was dropped (closed, too many in flight, too large is a RangeError).
   */
  send(payload: Uint8Array, length?: number): boolean;
  /** Sets the one listener (undefined detaches it; datagrams are then dropped and counted). */
  onDatagram(listener: DatagramListener | undefined): void;
  /** Releases the socket or link; idempotent. */
  close(): Promise<void>;
}

/** Mutable counters for implementations; users see the readonly view. */
export class MutableTransportCounters implements TransportCounters {
  datagramsIn = 0;
  bytesIn = 0;
  datagramsOut = 0;
  bytesOut = 0;
  sendDrops = 0;
  receiveDrops = 0;
}

/** A copy of the counters at this moment. */
export function snapshotTransportCounters(counters: TransportCounters): TransportCounters {
  const { datagramsIn, bytesIn, datagramsOut, bytesOut, sendDrops, receiveDrops } = counters;
  return { datagramsIn, bytesIn, datagramsOut, bytesOut, sendDrops, receiveDrops };
}

/** The length `send` was asked for, checked against the payload and the transport's limit. */
export function sendLength(payload: Uint8Array, length: number | undefined, maxPayload: number): number {
  const n = length ?? payload.length;
  if (!Number.isInteger(n) || n < 0 || n > payload.length) {
    throw new RangeError(`send length must be an integer in 0..${payload.length} (the payload's size), not ${n}`);
  }
  if (n > maxPayload) throw new RangeError(`a payload of ${n} bytes is larger than this transport's ${maxPayload}`);
  return n;
}
