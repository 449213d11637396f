/**
 * The one interface every port backend implements (in-memory, UDP wire, and
 * later AF_PACKET), so the switch forwards frames without knowing where they
 * go. A port carries whole Ethernet frames; the shared rules (minimum frame
 * size, counters, a single listener) live in BasePort.
 */
import { moduleLogger } from '../../log/logger.js';
import { checkPortNumber } from './port-number.js';

/** Which backend a port uses. */
export type PortKind = 'memory' | 'udp' | 'iface';

/** The smallest frame a port accepts: an Ethernet header (two MACs and the EtherType). */
export const MIN_FRAME_BYTES = 14;

/** Called once per received frame. The frame belongs to the listener from then on. */
export type FrameListener = (frame: Buffer, port: Port) => void;

/**
 * Per-port counters. `framesIn`/`bytesIn` count frames handed to the
 * listener; `framesOut`/`bytesOut` count frames the medium took. `drops`
 * counts frames lost by the port itself (send queue full, port closed, no
 * listener, a UDP datagram from a stranger, a failed send); `malformed`
 * counts received frames too short to be Ethernet, which are dropped too but
 * not counted again in `drops`.
 */
export interface PortCounters {
  readonly framesIn: number;
  readonly bytesIn: number;
  readonly framesOut: number;
  readonly bytesOut: number;
  readonly drops: number;
  readonly malformed: number;
}

export interface Port {
  /** The switch port number, 0..510. */
  readonly number: number;
  /** A short name: the interface, the in-memory wire, or `udp-ADDR-PORT`; pcap files are named after it. */
  readonly name: string;
  readonly kind: PortKind;
  /** Live counters (the same object every time; copy with `snapshotCounters` to keep a value). */
  readonly counters: PortCounters;
  readonly closed: boolean;
  /**
   * Sends one frame. Returns false when the port dropped it (closed, or the
   * send queue is full); the drop is counted. The port may read the frame
   * until the send completes: do not modify it afterwards.
   */
  send(frame: Buffer): boolean;
  /** Sets the one listener for received frames (undefined detaches it; frames are then dropped). */
  onFrame(listener: FrameListener | undefined): void;
  /** Releases the port's resources. Idempotent; the port drops everything afterwards. */
  close(): Promise<void>;
}

/** Mutable counters for backends; exposed to users through the readonly PortCounters view. */
export class MutablePortCounters implements PortCounters {
  framesIn = 0;
  bytesIn = 0;
  framesOut = 0;
  bytesOut = 0;
  drops = 0;
  malformed = 0;
}

export function snapshotCounters(counters: PortCounters): PortCounters {
  const { framesIn, bytesIn, framesOut, bytesOut, drops, malformed } = counters;
  return { framesIn, bytesIn, framesOut, bytesOut, drops, malformed };
}

const log = moduleLogger('switch.ports');

/** What every backend shares: number checks, counters, the listener, idempotent close. */
export abstract class BasePort implements Port {
  readonly counters = new MutablePortCounters();
  private listener: FrameListener | undefined;
  private closing: Promise<void> | undefined;
  private listenerErrors = 0;

  protected constructor(
    readonly number: number,
    readonly name: string,
    readonly kind: PortKind,
  ) {
    checkPortNumber(number, `port ${name}`);
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  abstract send(frame: Buffer): boolean;

  onFrame(listener: FrameListener | undefined): void {
    this.listener = listener;
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.listener = undefined;
      this.closing = this.release();
    }
    return this.closing;
  }

  /** Frees the backend's resources; called once, by close(). */
  protected abstract release(): Promise<void>;

  /** Hands one received frame to the listener, applying the rules every backend shares. */
  protected receive(frame: Buffer): void {
    if (frame.length < MIN_FRAME_BYTES) {
      this.counters.malformed++;
      return;
    }
    const listener = this.listener;
    if (listener === undefined) {
      this.counters.drops++;
      return;
    }
    this.counters.framesIn++;
    this.counters.bytesIn += frame.length;
    try {
      listener(frame, this);
    } catch (err) {
      // A throwing listener is a bug in the switch, but it must not take the
      // socket's event loop down with it: count, carry on, and log the first
      // error and every 1000th after it rather than one line per packet.
      this.counters.drops++;
      if (this.listenerErrors++ % 1000 === 0) {
        log.error({ err, port: this.number, listenerErrors: this.listenerErrors }, 'frame listener threw; frame dropped');
      }
    }
  }
}
