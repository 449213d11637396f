/**
 * What the host aggregator needs from its socket: the sender of every
 * datagram (the OmniReduce header names no worker, so the aggregator tells
 * workers apart by source address, as the DPDK aggregator does by source IP)
 * and sending to a named address. Workers need only the AddressedTransport part.
 */
import type { SocketAddress } from '../transport/index.js';

/** Called once per datagram; the bytes are the listener's for the call only. */
export type SourcedListener = (buf: Buffer, offset: number, length: number, from: SocketAddress) => void;

export interface SourcedTransport {
  /** Sends `payload[0 .. length)` to `to`; the bytes are copied; false when dropped. */
  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean;
  onDatagram(listener: SourcedListener | undefined): void;
}

/** The part of a transport an OmniReduce worker uses (an AddressedTransport fits). */
export interface WorkerTransport {
  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean;
  onDatagram(listener: ((buf: Buffer, offset: number, length: number) => void) | undefined): void;
}

/** The key a socket address is compared by. */
export function addressKey(a: SocketAddress): string {
  return `${a.family}/${a.address}/${a.port}`;
}
