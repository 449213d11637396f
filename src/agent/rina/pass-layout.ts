/**
 * How one pass cuts its values into segments, chunks and ToR slots — the
 * rule every member computes alike from the same four numbers
 * (docs/rina.md §1): L values, R ring members, E values per packet and the
 * job's pool size W at the ToRs.
 *
 * S = ⌈L / R⌉ values per segment; C = max(1, ⌈S / E⌉); m = ⌈C / 2W⌉;
 * w = ⌈C / 2m⌉ ≤ W; every segment has C' = 2mw chunks, those past its values
 * padding.
 *
 * Every sender goes through its rounds (or steps) in one order: chunks in
 * groups of w, and within a group row by row (round k = 0..R − 1, or step),
 * chunk by chunk. A ring member then needs its predecessor's row k − 1 of a
 * group just after doing its own row k − 1: the ring moves in step, a group
 * at a time, instead of a member racing a whole step ahead of the next.
 * Round (k, c) uses slot c mod w and set (k + R·⌊c / w⌋) mod 2: the order
 * visits each slot once per row, so its two copies alternate strictly — also
 * across passes, since C'/w is even — and the set of round k + 1 is the
 * other one, so a ToR flips the set of the RING_DATA it emits.
 */
import { RINA_MAX_CHUNK_INDEX } from '../../wire/index.js';

export class PassLayout {
  /** Values per segment (the last segments may hold fewer, or none). */
  readonly segmentLength: number;
  /** Chunks per segment, C' (padding included). */
  readonly chunks: number;
  /** Slots a pass uses, w: the window of every sender. */
  readonly window: number;

  constructor(
    readonly length: number,
    readonly members: number,
    readonly elementsPerPacket: number,
    readonly poolSize: number,
  ) {
    for (const [name, v] of [['length', length], ['members', members], ['elementsPerPacket', elementsPerPacket], ['poolSize', poolSize]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, not ${v}`);
    }
    this.segmentLength = Math.ceil(length / members);
    const c = Math.max(1, Math.ceil(this.segmentLength / elementsPerPacket));
    const m = Math.ceil(c / (2 * poolSize));
    this.window = Math.ceil(c / (2 * m));
    this.chunks = 2 * m * this.window;
  }

  /** True when chunk indices fit the 24 bits of the wire's chunk field. */
  get fitsChunkField(): boolean {
    return this.chunks - 1 <= RINA_MAX_CHUNK_INDEX;
  }

  slot(chunk: number): number {
    return chunk % this.window;
  }

  /** The set of a ToR's round `round` of chunk `chunk`. */
  set(round: number, chunk: number): 0 | 1 {
    return ((round + this.members * Math.floor(chunk / this.window)) & 1) as 0 | 1;
  }

  /** The place of (row, chunk) in the senders' order, for `rows` rows (rounds or steps). */
  order(rows: number, row: number, chunk: number): number {
    const w = this.window;
    return (Math.floor(chunk / w) * rows + row) * w + (chunk % w);
  }

  /** The row at place i of that order. */
  rowAt(rows: number, i: number): number {
    return Math.floor(i / this.window) % rows;
  }

  /** The chunk at place i of that order. */
  chunkAt(rows: number, i: number): number {
    const w = this.window;
    return Math.floor(i / (w * rows)) * w + (i % w);
  }

  /** Index of the first value of chunk c of segment g (may be past the segment or the tensor). */
  start(segment: number, chunk: number): number {
    return segment * this.segmentLength + chunk * this.elementsPerPacket;
  }

  /** How many real values chunk c of segment g holds (0 for padding). */
  count(segment: number, chunk: number): number {
    const from = chunk * this.elementsPerPacket;
    const inSegment = Math.min(this.elementsPerPacket, this.segmentLength - from);
    const inTensor = this.length - this.start(segment, chunk);
    return Math.max(0, Math.min(inSegment, inTensor));
  }

  /** Segment sent in scatter-reduce step s (or a ToR's round s) by member r: (r − s) mod R. */
  scatterSegment(member: number, step: number): number {
    return mod(member - step, this.members);
  }

  /** Segment sent in all-gather step s by member r: (r + 1 − s) mod R. */
  gatherSegment(member: number, step: number): number {
    return mod(member + 1 - step, this.members);
  }
}

export function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
