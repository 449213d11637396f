/**
 * What a UDP wire port (udp-wire-port.ts) asks of the socket underneath it,
 * so that it runs on either Node's dgram (dgram-wire-transport.ts) or our
 * batched addon (batched-wire-transport.ts) with the same behaviour and
 * counters.
 */
import { UDP_IO_CHOICES, type UdpIo } from '../../net/udp-batch/udp-io-kind.js';
import type { MutablePortCounters } from './port.js';

/** Which socket a UDP wire uses: our batched addon, or Node's dgram (the agents' choice too). */
export type UdpWireIo = UdpIo;
export const UDP_WIRE_IO_CHOICES: readonly UdpWireIo[] = UDP_IO_CHOICES;

/** The port, as its transport sees it. */
export interface UdpWireSink {
  readonly number: number;
  readonly counters: MutablePortCounters;
  readonly closed: boolean;
  /** The current peer: where frames go. */
  readonly peer: { readonly address: string; readonly port: number };
  /** A datagram arrived from `address`:`port`; the port drops strangers. */
  deliver(datagram: Buffer, address: string, port: number): void;
  /** Frames the socket refused after taking them, or could not send (counted in `sendErrors` and `drops`). */
  sendFailed(frames: number, err: Error): void;
}

/** The socket options both transports take. */
export interface UdpWireSocketOptions {
  readonly family: 4 | 6;
  readonly localAddress: string;
  readonly localPort: number;
  readonly sendQueueLimit: number;
  readonly recvBufferSize: number;
  readonly sendBufferSize: number;
}

export interface UdpWireTransport {
  readonly io: UdpWireIo;
  readonly localPort: number;
  /** Connected to the current peer: sends name no address, the kernel filters strangers. */
  readonly connected: boolean;
  /** Takes the port as its sink; called once, before any frame flows. */
  attach(sink: UdpWireSink): void;
  /** Sends one frame (the port checked it is open); false when dropped, and counted. */
  send(frame: Buffer): boolean;
  /** The sink's peer changed. */
  repoint(): void;
  /** Releases the socket; frames accepted before still go out. */
  close(): Promise<void>;
}
