/**
 * A switch port on a network interface through an AF_PACKET socket (our
 * addon, native/af_packet): promiscuous, receives every frame arriving on
 * the interface and none it sends, never blocks the event loop.
 *
 * Sending batches: send() queues the frame and a microtask flushes the queue
 * with one sendmmsg call, so the frames a switch forwards while handling one
 * received batch leave together. A full batch is flushed at once. Frames the
 * kernel refuses (too long for the MTU, socket buffer full) are dropped and
 * counted, as a switch drops on a full egress queue; nothing waits.
 *
 * Mininet shapes links with tc on both ends, including the switch's side:
 * the socket goes through the qdisc (no PACKET_QDISC_BYPASS) so that shaping
 * holds.
 */
import { moduleLogger } from '../../../log/logger.js';
import { BasePort, MIN_FRAME_BYTES } from '../port.js';
import { checkPortNumber } from '../port-number.js';
import { SendBatcher } from '../send-batcher.js';
import { AF_PACKET_ERROR_CODES, AfPacketError, type AfPacketErrorCode } from './af-packet-error.js';
import { forEachFrame } from './frame-batch.js';
import { loadAfPacketAddon } from './load-addon.js';
import type { NativeAfPacketModule, NativeAfPacketSocket, NativeErrnoError, NativeSendResult } from './native-addon.js';

export interface AfPacketPortOptions {
  /** The switch port number, 0..510. */
  readonly number: number;
  /** The interface, e.g. `s1-eth1`, in this process's network namespace. */
  readonly iface: string;
  /** Frames per recvmmsg/sendmmsg call, 1..1024 (default 64). */
  readonly batchSize?: number;
  /**
   * Longest frame received, 64..262144 (default 65792: room for the 64 KiB
   * frames GSO hands over when the hosts keep segmentation offloads on).
   * Longer frames are dropped and counted as truncated.
   */
  readonly maxFrameBytes?: number;
  /** SO_RCVBUF in bytes (default 4 MiB; as root beyond net.core.rmem_max). */
  readonly receiveBufferBytes?: number;
  /** SO_SNDBUF in bytes (default 4 MiB). */
  readonly sendBufferBytes?: number;
  /** The addon to use instead of the package's own (tests). */
  readonly addon?: NativeAfPacketModule;
}

/** What an AF_PACKET port counts beyond the common PortCounters. */
export interface AfPacketStatistics {
  /** Receive errors reported by the socket (e.g. ENETDOWN while the link is down). */
  readonly receiveErrors: number;
  /** Frames the kernel refused to send (included in `drops`). */
  readonly sendErrors: number;
  /** Received frames longer than maxFrameBytes (dropped). */
  readonly truncated: number;
  /** Frames the interface sent that reached the socket and were filtered out. */
  readonly outgoingSkipped: number;
  /** Frames the kernel queued for the socket. */
  readonly kernelPackets: number;
  /** Frames the kernel dropped because the receive buffer was full. */
  readonly kernelDrops: number;
}

const DEFAULTS = { batchSize: 64, maxFrameBytes: 65_536 + 256, receiveBufferBytes: 4 << 20, sendBufferBytes: 4 << 20 };
const log = moduleLogger('switch.ports.af-packet');

const OPEN_ERROR_CODES: Record<string, AfPacketErrorCode> = {
  EPERM: AF_PACKET_ERROR_CODES.permission,
  EACCES: AF_PACKET_ERROR_CODES.permission,
  ENODEV: AF_PACKET_ERROR_CODES.noInterface,
  EPROTOTYPE: AF_PACKET_ERROR_CODES.notEthernet,
};

function isErrnoError(err: unknown): err is NativeErrnoError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && /^E[A-Z0-9]+$/.test((err as NativeErrnoError).code);
}

export class AfPacketPort extends BasePort {
  private socket: NativeAfPacketSocket | undefined;
  private readonly batcher: SendBatcher;
  private receiveErrors = 0;
  private sendErrors = 0;
  /** errno names already logged at warn level; repeats go to debug, so a flapping link cannot flood the log. */
  private readonly warned = new Set<string>();

  private constructor(number: number, iface: string, addon: NativeAfPacketModule, options: AfPacketPortOptions) {
    super(number, iface, 'iface');
    const batchSize = options.batchSize ?? DEFAULTS.batchSize;
    this.batcher = new SendBatcher(batchSize, (frames) => this.sendNow(frames));
    this.socket = new addon.AfPacketSocket(
      iface,
      (batch, count) => this.received(batch, count),
      (error) => this.receiveFailed(error),
      {
        batchSize,
        maxFrameBytes: options.maxFrameBytes ?? DEFAULTS.maxFrameBytes,
        receiveBufferBytes: options.receiveBufferBytes ?? DEFAULTS.receiveBufferBytes,
        sendBufferBytes: options.sendBufferBytes ?? DEFAULTS.sendBufferBytes,
      },
    );
  }

  /**
   * Opens the port. Throws AfPacketError (AF_PACKET_PERMISSION,
   * AF_PACKET_NO_INTERFACE, AF_PACKET_ADDON_NOT_BUILT…), PortError for a bad
   * port number, RangeError for out-of-range options.
   */
  static open(options: AfPacketPortOptions): AfPacketPort {
    const what = `port ${options.number} (${options.iface})`;
    checkPortNumber(options.number, what);
    const addon = options.addon ?? loadAfPacketAddon();
    let port: AfPacketPort;
    try {
      port = new AfPacketPort(options.number, options.iface, addon, options);
    } catch (err) {
      if (!isErrnoError(err)) throw err; // TypeError/RangeError: the caller's mistake
      const code = OPEN_ERROR_CODES[err.code] ?? AF_PACKET_ERROR_CODES.openFailed;
      throw new AfPacketError(code, `${what}: ${err.message}`, { cause: err, errnoName: err.code });
    }
    const socket = port.socket!;
    log.debug(
      { port: options.number, iface: options.iface, ifindex: socket.ifindex, rcvbuf: socket.receiveBufferBytes, sndbuf: socket.sendBufferBytes },
      'AF_PACKET port open',
    );
    if (socket.linkWasDown) log.info({ port: options.number, iface: options.iface }, 'interface is down; frames flow once it is up');
    return port;
  }

  /** The interface's index in its network namespace. */
  get ifindex(): number {
    return this.socket?.ifindex ?? -1;
  }

  send(frame: Buffer): boolean {
    // Shorter than an Ethernet header: as root the kernel would pad it with
    // zeros rather than refuse it, putting a frame on the wire we never made.
    if (this.socket === undefined || this.closed || frame.length < MIN_FRAME_BYTES) {
      this.counters.drops++;
      return false;
    }
    this.batcher.add(frame);
    return true;
  }

  /** Counters beyond PortCounters; reads the kernel's counts, so not for the per-packet path. */
  statistics(): AfPacketStatistics {
    const native = this.socket?.statistics() ?? { outgoingSkipped: 0, truncated: 0, kernelPackets: 0, kernelDrops: 0 };
    return { receiveErrors: this.receiveErrors, sendErrors: this.sendErrors, ...native };
  }

  protected release(): Promise<void> {
    const socket = this.socket;
    if (socket !== undefined) {
      this.batcher.flush(); // frames accepted by send() before close still go out
      this.socket = undefined;
      socket.close();
    }
    return Promise.resolve();
  }

  private sendNow(frames: Buffer[]): void {
    const socket = this.socket;
    if (socket === undefined) return;
    let result: NativeSendResult;
    try {
      result = socket.send(frames);
    } catch (err) {
      result = { sent: 0, sentBytes: 0, error: isErrnoError(err) ? err : null };
      if (!isErrnoError(err)) log.error({ err, port: this.number }, 'AF_PACKET send threw');
    }
    const refused = frames.length - result.sent;
    this.counters.framesOut += result.sent;
    this.counters.bytesOut += result.sentBytes;
    if (refused > 0) {
      this.counters.drops += refused;
      this.sendErrors += refused;
      this.logError(result.error, 'send', refused);
    }
  }

  private received(batch: Buffer, count: number): void {
    // receive() (BasePort) counts, checks the length and catches listener throws.
    if (!forEachFrame(batch, count, (frame) => this.receive(frame))) {
      this.receiveErrors++;
      log.error({ port: this.number, count, bytes: batch.length }, 'AF_PACKET addon delivered a malformed batch');
    }
  }

  private receiveFailed(error: NativeErrnoError): void {
    this.receiveErrors++;
    this.logError(error, 'receive', 0);
  }

  private logError(error: NativeErrnoError | null, direction: 'send' | 'receive', dropped: number): void {
    const key = `${direction}:${error?.code ?? 'unknown'}`;
    const fields = { port: this.number, iface: this.name, code: error?.code, dropped, err: error ?? undefined };
    const message = `AF_PACKET ${direction} failed: ${error?.message ?? 'no reason given'}`;
    if (this.warned.has(key)) {
      log.debug(fields, message);
    } else {
      this.warned.add(key);
      log.warn(fields, message);
    }
  }
}
