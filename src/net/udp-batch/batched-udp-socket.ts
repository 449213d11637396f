/**
 * A UDP socket that sends and receives in batches (our addon,
 * native/udp_batch): recvmmsg with UDP GRO, sendmmsg with UDP GSO, one
 * JavaScript call per received batch, synchronous sends that never block.
 * Linux only; `tryLoadUdpBatchAddon` says whether it can be used here.
 *
 * Errors: a failed bind or connect throws the addon's errno error (`code`
 * EADDRINUSE, EBADF once closed…); refused sends come back in the send
 * result; receive-side errors and ICMP errors for earlier sends
 * (ECONNREFUSED on a connected socket) go to `onError`.
 */
import { moduleLogger } from '../../log/logger.js';
import { forEachDatagram } from './datagram-batch.js';
import { loadUdpBatchAddon } from './load-udp-batch-addon.js';
import type {
  NativeErrnoError,
  NativeSendResult,
  NativeSource,
  NativeUdpBatchModule,
  NativeUdpBatchOptions,
  NativeUdpBatchSocket,
  NativeUdpBatchStatistics,
} from './native-udp-batch.js';

export type { NativeErrnoError as UdpErrnoError, NativeSendResult as UdpSendResult, NativeSource as UdpSource };

export interface BatchedUdpSocketOptions extends NativeUdpBatchOptions {
  readonly family: 4 | 6;
  /** A numeric address of `family` (no brackets, no scope id). */
  readonly address: string;
  /** 0 lets the system choose; read it from `localPort`. */
  readonly port: number;
  /** The addon to use instead of the package's own (tests). */
  readonly addon?: NativeUdpBatchModule;
}

/** Called once per received datagram, in order; the datagram is a view into its batch. */
export type DatagramListener = (datagram: Buffer, source: NativeSource) => void;
export type UdpErrorListener = (error: NativeErrnoError) => void;

const log = moduleLogger('net.udp-batch');

/** True for the errno errors the addon throws and reports. */
export function isErrnoError(err: unknown): err is NativeErrnoError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && /^E[A-Z0-9]+$/.test((err as NativeErrnoError).code);
}

export class BatchedUdpSocket {
  private closedFlag = false;

  private constructor(
    private readonly socket: NativeUdpBatchSocket,
    readonly localPort: number,
    /** Shared with the receive callback, which exists before this object. */
    private readonly received: { malformedBatches: number },
  ) {}

  /** Opens and binds a socket. Throws UdpBatchError (addon unusable), an errno error (bind failed), RangeError/TypeError (bad options). */
  static open(options: BatchedUdpSocketOptions, onDatagram: DatagramListener, onError: UdpErrorListener): BatchedUdpSocket {
    const addon = options.addon ?? loadUdpBatchAddon();
    const received = { malformedBatches: 0 };
    const { family, address, port, batchSize, receiveBufferBytes, sendBufferBytes, gso, gro } = options;
    const socket = new addon.UdpBatchSocket(
      family,
      (batch, count, sources, origins) => {
        if (!forEachDatagram(batch, count, sources, origins, onDatagram) && received.malformedBatches++ === 0) {
          log.error({ count, bytes: batch.length }, 'the batched UDP addon delivered a malformed batch');
        }
      },
      onError,
      { batchSize, receiveBufferBytes, sendBufferBytes, gso, gro },
    );
    let localPort: number;
    try {
      localPort = socket.bind(address, port);
    } catch (err) {
      socket.close();
      throw err;
    }
    return new BatchedUdpSocket(socket, localPort, received);
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** What the kernel granted for SO_RCVBUF and SO_SNDBUF (it reports twice the request). */
  get bufferBytes(): { readonly receive: number; readonly send: number } {
    return { receive: this.socket.receiveBufferBytes, send: this.socket.sendBufferBytes };
  }

  /** Sets the peer: sends then name no address and the kernel drops strangers. Connecting again replaces the peer and keeps the local port. */
  connect(address: string, port: number): void {
    this.socket.connect(address, port);
  }

  /** Forgets the peer. Linux gives a socket bound to port 0 a new port on disconnect. */
  disconnect(): void {
    this.socket.disconnect();
  }

  /** Sends to the connected peer; never blocks. A full socket buffer drops the rest (see the result's error). */
  send(frames: readonly Buffer[]): NativeSendResult {
    return this.socket.send(frames);
  }

  /** Sends to `address`:`port` without connecting. */
  sendTo(frames: readonly Buffer[], address: string, port: number): NativeSendResult {
    return this.socket.sendTo(frames, address, port);
  }

  statistics(): NativeUdpBatchStatistics & { readonly malformedBatches: number } {
    return { ...this.socket.statistics(), malformedBatches: this.received.malformedBatches };
  }

  /** Whether the open socket keeps the event loop alive (it does by default). */
  ref(): void {
    this.socket.ref();
  }

  unref(): void {
    this.socket.unref();
  }

  /** Idempotent; no callback runs afterwards. */
  close(): void {
    this.closedFlag = true;
    this.socket.close();
  }
}
