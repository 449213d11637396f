/**
 * What the host aggregator needs from its socket: the sender of every
 * datagram (the OmniReduce header names no worker, so the aggregator tells
 * workers apart by source address, as the DPDK aggregator does by source IP)
 * and sending to a named address. A server's AddressedTransport over the
 * kernel's UDP or a UDP wire is one; a datagram whose sender the transport
 * cannot name is dropped as a stranger's. Workers need only the sending part.
 */
import type { AddressedTransport, DatagramListener, SocketAddress } from '../transport/index.js';

export type SourcedTransport = Pick<AddressedTransport, 'sendTo' | 'onDatagram'>;

/** Called once per datagram; the bytes are the listener's for the call only. */
export type SourcedListener = DatagramListener;

/** The part of a transport an OmniReduce worker uses (an AddressedTransport fits). */
export interface WorkerTransport {
  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean;
  /** `from` names the sender where the transport can tell (kernel UDP); replies from elsewhere than their slot's aggregator are dropped. */
  onDatagram(listener: ((buf: Buffer, offset: number, length: number, from?: SocketAddress) => void) | undefined): void;
}

/** The key a socket address is compared by. */
export function addressKey(a: SocketAddress): string {
  return `${a.family}/${a.address}/${a.port}`;
}
