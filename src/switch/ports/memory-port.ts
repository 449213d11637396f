/**
 * In-memory wires: two ports joined by a function call, for unit tests and
 * the in-memory deployment mode. Each direction is a queue drained on the
 * next turn of the event loop (setImmediate, so a frame echoed back and
 * forth cannot starve I/O), with optional seeded loss, duplication and
 * reordering that replay exactly from the seed.
 *
 * Reordering acts on frames in flight together: a held-back frame lets 1..N
 * later frames of the same batch pass, and is delivered at the latest at the
 * end of its batch, so nothing is held forever.
 */
import { SeededRandom } from '../../util/seeded-random.js';
import { BasePort } from './port.js';

export interface Impairments {
  /** Seeds every random decision; the same seed replays the same losses, copies and swaps. */
  readonly seed: number | string;
  /** Probability that a frame is lost (0..1). */
  readonly loss?: number;
  /** Probability that a delivered frame arrives twice. */
  readonly duplicate?: number;
  /** Probability that a frame is held back behind later frames. */
  readonly reorder?: number;
  /** At most how many later frames a held-back frame lets pass (default 3). */
  readonly maxDisplacement?: number;
}

export interface MemoryWireOptions {
  readonly impairments?: Impairments;
  /** Frames waiting for delivery per direction before sends are dropped (default 4096). */
  readonly queueLimit?: number;
}

/** What the impairments did in one direction, for tests and logs. */
export interface ImpairmentCounters {
  lost: number;
  duplicated: number;
  reordered: number;
  /** Frames that reached the end of the wire before anything was attached there. */
  unattached: number;
}

export interface MemoryEndpoint {
  readonly number: number;
  readonly name: string;
}

interface HeldFrame {
  readonly frame: Buffer;
  readonly duplicate: boolean;
  remaining: number;
}

function probability(p: number | undefined, what: string): number {
  const value = p ?? 0;
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${what} must be a probability in 0..1, not ${p}`);
  return value;
}

/** One direction of a wire: the queue, the impairment state, the receiving port. Made by createMemoryWire. */
export class MemoryLink {
  readonly stats: ImpairmentCounters = { lost: 0, duplicated: 0, reordered: 0, unattached: 0 };
  private queue: Buffer[] = [];
  private spare: Buffer[] = [];
  private held: HeldFrame[] = [];
  private scheduled = false;
  private readonly rng: SeededRandom | undefined;
  private readonly loss: number;
  private readonly duplicate: number;
  private readonly reorder: number;
  private readonly maxDisplacement: number;
  private readonly drainNow = (): void => this.drain();

  /** The receiving end; frames sent before it is attached vanish, as into an unplugged cable. */
  target: MemoryPort | undefined;
  private readonly queueLimit: number;

  /** `streamLabel` names this direction so that its random stream depends only on the seed and the label. */
  constructor(options: MemoryWireOptions, streamLabel: string) {
    const impairments = options.impairments;
    this.queueLimit = options.queueLimit ?? 4096;
    if (!Number.isInteger(this.queueLimit) || this.queueLimit < 1) {
      throw new RangeError(`queueLimit must be a positive integer, not ${options.queueLimit}`);
    }
    this.loss = probability(impairments?.loss, 'loss');
    this.duplicate = probability(impairments?.duplicate, 'duplicate');
    this.reorder = probability(impairments?.reorder, 'reorder');
    this.maxDisplacement = impairments?.maxDisplacement ?? 3;
    if (!Number.isInteger(this.maxDisplacement) || this.maxDisplacement < 1) {
      throw new RangeError(`maxDisplacement must be a positive integer, not ${impairments?.maxDisplacement}`);
    }
    const impaired = this.loss > 0 || this.duplicate > 0 || this.reorder > 0;
    this.rng = impaired && impairments ? new SeededRandom(impairments.seed).derive(streamLabel) : undefined;
  }

  get idle(): boolean {
    return this.queue.length === 0 && this.held.length === 0 && !this.scheduled;
  }

  /** Queues a frame; false when the queue is full. */
  offer(frame: Buffer): boolean {
    if (this.queue.length >= this.queueLimit) return false;
    this.queue.push(frame);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drainNow);
    }
    return true;
  }

  private drain(): void {
    this.scheduled = false;
    // Swap the arrays: frames sent while this batch is delivered wait for the next turn.
    const batch = this.queue;
    this.queue = this.spare;
    this.spare = batch;
    for (let i = 0; i < batch.length; i++) this.decide(batch[i]!);
    batch.length = 0;
    // Held frames with nothing left to let pass go out now, in the order they were held.
    if (this.held.length > 0) {
      const held = this.held;
      this.held = [];
      for (const h of held) this.emit(h.frame, h.duplicate);
    }
  }

  private decide(frame: Buffer): void {
    const rng = this.rng;
    if (rng === undefined) {
      this.handOver(frame);
      return;
    }
    if (rng.chance(this.loss)) {
      this.stats.lost++;
      return;
    }
    const duplicate = rng.chance(this.duplicate);
    if (rng.chance(this.reorder)) {
      this.stats.reordered++;
      this.held.push({ frame, duplicate, remaining: 1 + rng.nextInt(this.maxDisplacement) });
      return;
    }
    this.emit(frame, duplicate);
    this.letHeldFramesPass();
  }

  private emit(frame: Buffer, duplicate: boolean): void {
    // Copy before delivering: the receiver may rewrite the original in place.
    const copy = duplicate ? Buffer.from(frame) : undefined;
    this.handOver(frame);
    if (copy) {
      this.stats.duplicated++;
      this.handOver(copy);
    }
  }

  private handOver(frame: Buffer): void {
    if (this.target === undefined) this.stats.unattached++;
    else this.target.deliver(frame);
  }

  /** One more frame went past every held frame: release those whose count ran out. */
  private letHeldFramesPass(): void {
    if (this.held.length === 0) return;
    const still: HeldFrame[] = [];
    const due: HeldFrame[] = [];
    for (const h of this.held) (--h.remaining === 0 ? due : still).push(h);
    this.held = still;
    for (const h of due) this.emit(h.frame, h.duplicate);
  }
}

/** One end of an in-memory wire. */
export class MemoryPort extends BasePort {
  private link: MemoryLink | undefined;

  constructor(endpoint: MemoryEndpoint) {
    super(endpoint.number, endpoint.name, 'memory');
  }

  /** What the impairments did to frames sent from this end. */
  get impairments(): Readonly<ImpairmentCounters> {
    return this.link?.stats ?? { lost: 0, duplicated: 0, reordered: 0, unattached: 0 };
  }

  /** True when nothing sent from this end is still waiting for delivery. */
  get idle(): boolean {
    return this.link?.idle ?? true;
  }

  send(frame: Buffer): boolean {
    const link = this.link;
    if (this.closed || link === undefined) {
      this.counters.drops++;
      return false;
    }
    // A wire copies: the sender may reuse its buffer, the receiver may rewrite
    // what it gets, and neither sees the other's changes.
    if (!link.offer(Buffer.from(frame))) {
      this.counters.drops++;
      return false;
    }
    this.counters.framesOut++;
    this.counters.bytesOut += frame.length;
    return true;
  }

  /** Called by the link on the receiving side. */
  deliver(frame: Buffer): void {
    if (this.closed) {
      this.counters.drops++;
      return;
    }
    this.receive(frame);
  }

  /** Wires this end to send into `link` (createMemoryWire and MemoryHub do this). */
  connect(link: MemoryLink): void {
    this.link = link;
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

/** Two ports joined to each other. Each direction draws from its own stream derived from the seed. */
export function createMemoryWire(a: MemoryEndpoint, b: MemoryEndpoint, options: MemoryWireOptions = {}): [MemoryPort, MemoryPort] {
  const portA = new MemoryPort(a);
  const portB = new MemoryPort(b);
  const ab = new MemoryLink(options, `${a.name}#${a.number}>${b.name}#${b.number}`);
  const ba = new MemoryLink(options, `${b.name}#${b.number}>${a.name}#${a.number}`);
  ab.target = portB;
  ba.target = portA;
  portA.connect(ab);
  portB.connect(ba);
  return [portA, portB];
}

/**
 * Resolves once every given port has nothing in flight (bounded: gives up
 * after `maxTurns` event-loop turns and resolves false, e.g. when two ends
 * echo frames forever).
 */
export async function settleMemoryPorts(ports: readonly MemoryPort[], maxTurns = 10_000): Promise<boolean> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (ports.every((p) => p.idle)) return true;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return ports.every((p) => p.idle);
}
