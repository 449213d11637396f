/**
 * One direction of an in-memory link with seeded loss, duplication and
 * reordering, replayable from the seed. Frames queue up and are delivered in
 * a batch on the next turn of the event loop (setImmediate, so two ends that
 * answer each other cannot starve timers and I/O).
 *
 * Reordering holds a frame back until 1..maxDisplacement later frames of its
 * batch have gone past it; at the end of the batch every held frame goes out,
 * so nothing is held for ever. With `orderKey`, frames of one key keep their
 * order (a per-flow FIFO path, as ECMP hashing gives): before a frame of key
 * k is delivered or held, the held frames of key k go first.
 */
import { SeededRandom } from './seeded-random.js';

export interface LinkImpairments {
  /** Seeds every random decision. */
  readonly seed: number | string;
  /** Probability that a frame is lost (0..1). */
  readonly loss?: number;
  /** Probability that a delivered frame arrives twice. */
  readonly duplicate?: number;
  /** Probability that a frame is held back behind later frames. */
  readonly reorder?: number;
  /** At most how many later frames a held frame lets pass (default 3). */
  readonly maxDisplacement?: number;
  /** Frames with the same key are never reordered among themselves; undefined: no constraint. */
  readonly orderKey?: (frame: Buffer) => number | undefined;
}

/** What the impairments did (live counters). */
export interface LinkStats {
  lost: number;
  duplicated: number;
  reordered: number;
  /** Frames offered while the queue was full (also lost). */
  overflowed: number;
}

interface HeldFrame {
  readonly frame: Buffer;
  readonly key: number | undefined;
  readonly duplicate: boolean;
  remaining: number;
}

function probability(p: number | undefined, what: string): number {
  const value = p ?? 0;
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${what} must be a probability in 0..1, not ${p}`);
  return value;
}

export class ImpairedLink {
  readonly stats: LinkStats = { lost: 0, duplicated: 0, reordered: 0, overflowed: 0 };
  private queue: Buffer[] = [];
  private spare: Buffer[] = [];
  private held: HeldFrame[] = [];
  private scheduled = false;
  private readonly rng: SeededRandom | undefined;
  private readonly loss: number;
  private readonly duplicate: number;
  private readonly reorder: number;
  private readonly maxDisplacement: number;
  private readonly orderKey: ((frame: Buffer) => number | undefined) | undefined;
  private readonly drainNow = (): void => this.drain();

  /** `streamLabel` names the direction, so that its random stream depends on the seed and the label only. */
  constructor(
    impairments: LinkImpairments | undefined,
    private readonly queueLimit: number,
    streamLabel: string,
    private readonly deliver: (frame: Buffer) => void,
  ) {
    if (!Number.isInteger(queueLimit) || queueLimit < 1) throw new RangeError(`queueLimit must be a positive integer, not ${queueLimit}`);
    this.loss = probability(impairments?.loss, 'loss');
    this.duplicate = probability(impairments?.duplicate, 'duplicate');
    this.reorder = probability(impairments?.reorder, 'reorder');
    this.maxDisplacement = impairments?.maxDisplacement ?? 3;
    if (!Number.isInteger(this.maxDisplacement) || this.maxDisplacement < 1) {
      throw new RangeError(`maxDisplacement must be a positive integer, not ${impairments?.maxDisplacement}`);
    }
    this.orderKey = impairments?.orderKey;
    const impaired = this.loss > 0 || this.duplicate > 0 || this.reorder > 0;
    this.rng = impaired && impairments ? new SeededRandom(impairments.seed).derive(streamLabel) : undefined;
  }

  /** True when nothing is waiting for delivery. */
  get idle(): boolean {
    return this.queue.length === 0 && this.held.length === 0 && !this.scheduled;
  }

  /** Queues a frame (the link owns it from now on); false when the queue is full. */
  offer(frame: Buffer): boolean {
    if (this.queue.length >= this.queueLimit) {
      this.stats.overflowed++;
      return false;
    }
    this.queue.push(frame);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drainNow);
    }
    return true;
  }

  private drain(): void {
    this.scheduled = false;
    // Frames offered while this batch is delivered wait for the next turn.
    const batch = this.queue;
    this.queue = this.spare;
    this.spare = batch;
    for (let i = 0; i < batch.length; i++) this.decide(batch[i]!);
    batch.length = 0;
    const held = this.held;
    this.held = [];
    for (const h of held) this.emit(h.frame, h.duplicate);
  }

  private decide(frame: Buffer): void {
    const rng = this.rng;
    if (rng === undefined) {
      this.deliver(frame);
      return;
    }
    if (rng.chance(this.loss)) {
      this.stats.lost++;
      return;
    }
    const duplicate = rng.chance(this.duplicate);
    const key = this.orderKey?.(frame);
    if (key !== undefined) this.releaseKey(key);
    if (rng.chance(this.reorder)) {
      this.stats.reordered++;
      this.held.push({ frame, key, duplicate, remaining: 1 + rng.nextInt(this.maxDisplacement) });
      return;
    }
    this.emit(frame, duplicate);
    this.letHeldFramesPass();
  }

  private emit(frame: Buffer, duplicate: boolean): void {
    // Copy before delivering: the receiver may rewrite the original in place.
    const copy = duplicate ? Buffer.from(frame) : undefined;
    this.deliver(frame);
    if (copy) {
      this.stats.duplicated++;
      this.deliver(copy);
    }
  }

  /** Delivers the held frames of `key`, oldest first, so that a newer frame of that key cannot pass them. */
  private releaseKey(key: number): void {
    if (this.held.length === 0) return;
    const keep: HeldFrame[] = [];
    const due: HeldFrame[] = [];
    for (const h of this.held) (h.key === key ? due : keep).push(h);
    if (due.length === 0) return;
    this.held = keep;
    for (const h of due) this.emit(h.frame, h.duplicate);
  }

  /** One more frame went past every held frame: release those whose count ran out. */
  private letHeldFramesPass(): void {
    if (this.held.length === 0) return;
    const keep: HeldFrame[] = [];
    const due: HeldFrame[] = [];
    for (const h of this.held) (--h.remaining === 0 ? due : keep).push(h);
    this.held = keep;
    for (const h of due) this.emit(h.frame, h.duplicate);
  }
}
