/**
 * The values of one pass on one worker: its own (`input`, already integers:
 * scaled data, or exponents), the reduced ones as they arrive (`result`),
 * and the two reductions a pass can do — int32 addition, wrapping as a
 * switch's does, or the maximum (the exponent pass). Chunks past a segment's
 * values are padding: zeros in packets, never stored.
 */
import type { Int32BeView } from '../../wire/index.js';
import type { PassLayout } from './pass-layout.js';

export type PassOp = 'sum' | 'max';

export class PassValues {
  private readonly e: number;

  constructor(
    readonly layout: PassLayout,
    readonly op: PassOp,
    /** This worker's values, layout.length of them. */
    readonly input: Int32Array,
    /** The reduced values, filled as chunks complete. */
    readonly result: Int32Array,
  ) {
    if (input.length !== layout.length || result.length !== layout.length) {
      throw new RangeError(`a pass of ${layout.length} values needs input and result of that length, not ${input.length} and ${result.length}`);
    }
    this.e = layout.elementsPerPacket;
  }

  /** Writes this worker's chunk (segment, chunk) into a packet's values. */
  writeOwn(view: DataView, offset: number, segment: number, chunk: number): void {
    const from = this.layout.start(segment, chunk);
    const count = this.layout.count(segment, chunk);
    for (let k = 0; k < count; k++) view.setInt32(offset + 4 * k, this.input[from + k]!);
    for (let k = count; k < this.e; k++) view.setInt32(offset + 4 * k, 0);
  }

  /** Writes `received` combined with this worker's chunk into a packet's values. */
  writeCombined(view: DataView, offset: number, received: Int32BeView, segment: number, chunk: number): void {
    const from = this.layout.start(segment, chunk);
    const count = this.layout.count(segment, chunk);
    const max = this.op === 'max';
    for (let k = 0; k < this.e; k++) {
      const own = k < count ? this.input[from + k]! : 0;
      const r = received.get(k);
      view.setInt32(offset + 4 * k, max ? Math.max(r, own) : (r + own) | 0);
    }
  }

  /** Keeps a reduced chunk. */
  store(values: Int32BeView, segment: number, chunk: number): void {
    const from = this.layout.start(segment, chunk);
    const count = this.layout.count(segment, chunk);
    for (let k = 0; k < count; k++) this.result[from + k] = values.get(k);
  }

  /** Keeps a reduced chunk that is in a packet being built. */
  storeFrom(view: DataView, offset: number, segment: number, chunk: number): void {
    const from = this.layout.start(segment, chunk);
    const count = this.layout.count(segment, chunk);
    for (let k = 0; k < count; k++) this.result[from + k] = view.getInt32(offset + 4 * k);
  }

  /** Writes a reduced chunk (from `result`) into a packet's values. */
  writeResult(view: DataView, offset: number, segment: number, chunk: number): void {
    const from = this.layout.start(segment, chunk);
    const count = this.layout.count(segment, chunk);
    for (let k = 0; k < count; k++) view.setInt32(offset + 4 * k, this.result[from + k]!);
    for (let k = count; k < this.e; k++) view.setInt32(offset + 4 * k, 0);
  }
}
