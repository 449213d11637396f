/**
 * Which chunk each rank sends and receives at each step of ring AllReduce.
 *
 * The tensor of `length` elements is cut into `worldSize` chunks whose sizes
 * differ by at most one (chunk c is [⌊c·L/n⌋, ⌊(c+1)·L/n⌋), so chunks may be
 * empty when L < n). There are 2(n-1) steps, numbered 0..2n-3:
 * - steps 0..n-2, reduce-scatter: rank r sends chunk (r-s) mod n and adds the
 *   chunk (r-s-1) mod n it receives into its own copy. Chunk c starts at rank
 *   c and travels c, c+1, …, c+n-1, each adding its value, so it is summed in
 *   one fixed order and ends complete at rank c-1, its owner.
 * - steps n-1..2n-3, all-gather: rank r sends chunk (r+1-t) mod n (t = s-n+1)
 *   and overwrites chunk (r-t) mod n with what it receives, so every rank ends
 *   with the owner's bits.
 * The chunk a rank sends at step s is the one it received at step s-1, piece
 * by piece, so piece k may go out as soon as piece k came in (pipelining).
 */

export class RingSchedule {
  /** 2(n-1); 0 when there is one rank. */
  readonly steps: number;
  private readonly starts: number[];

  constructor(
    readonly length: number,
    readonly worldSize: number,
    readonly rank: number,
    /** Elements per DATA frame. */
    readonly pieceElements: number,
  ) {
    if (!Number.isInteger(worldSize) || worldSize < 1) throw new RangeError(`world size must be an integer >= 1, got ${worldSize}`);
    if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize) throw new RangeError(`rank must be in 0..${worldSize - 1}, got ${rank}`);
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`tensor length must be an integer >= 0, got ${length}`);
    if (!Number.isInteger(pieceElements) || pieceElements < 1) throw new RangeError(`piece size must be an integer >= 1, got ${pieceElements}`);
    this.steps = 2 * (worldSize - 1);
    this.starts = [];
    for (let c = 0; c <= worldSize; c++) this.starts.push(Math.floor((c * length) / worldSize));
  }

  /** First element of chunk `chunk`. */
  chunkStart(chunk: number): number {
    return this.starts[chunk]!;
  }

  chunkLength(chunk: number): number {
    return this.starts[chunk + 1]! - this.starts[chunk]!;
  }

  /** DATA frames chunk `chunk` takes. */
  pieceCount(chunk: number): number {
    return Math.ceil(this.chunkLength(chunk) / this.pieceElements);
  }

  /** Elements in piece `piece` of chunk `chunk`. */
  pieceLength(chunk: number, piece: number): number {
    return Math.min(this.pieceElements, this.chunkLength(chunk) - piece * this.pieceElements);
  }

  /** True for the reduce-scatter steps (received values are added), false for all-gather (copied). */
  isReduceStep(step: number): boolean {
    return step < this.worldSize - 1;
  }

  /** The chunk this rank sends at `step`. */
  sendChunk(step: number): number {
    const n = this.worldSize;
    const shift = this.isReduceStep(step) ? -step : 1 - (step - (n - 1));
    return mod(this.rank + shift, n);
  }

  /** The chunk this rank receives at `step` (its predecessor's sendChunk). */
  recvChunk(step: number): number {
    const n = this.worldSize;
    const shift = this.isReduceStep(step) ? -step - 1 : -(step - (n - 1));
    return mod(this.rank + shift, n);
  }

  /** The chunk whose reduced value this rank owns after reduce-scatter. */
  ownedChunk(): number {
    return mod(this.rank + 1, this.worldSize);
  }
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
