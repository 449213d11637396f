/**
 * ATP's numbers in p4ina: int32 fixed point with one scale per job, and
 * float32 for packets that would not fit (docs/atp.md, "Workers").
 *
 * - **Scale.** With n workers and a value range R (a job constant), every
 *   worker uses f = ⌊(2^31 − 1)/n⌋ / R and sends q = round(x·f) (to nearest).
 *   If some |q| exceeds Q = ⌊(2^31 − 1)/n⌋, the whole packet goes as float32
 *   with `overflow` set instead. So every integer that reaches a switch is at
 *   most Q in magnitude and a sum of the n workers' integers (or of any subset:
 *   a partial aggregate) fits an int32: the switch can never overflow.
 * - **Back.** An integer result S becomes S / f in float64, stored as float32.
 *   Every worker does this with the same S and f, so all get the same bits.
 *   A float32 result (some packet overflowed) is taken as it is.
 *
 * Why this is at least as good as ATP's fixed 10^6 (`common/quantize.h`, with
 * raw floats for a chunk holding any |x| > 213):
 * - with R = 213 (`ATP_DEFAULT_VALUE_RANGE`, ATP's own threshold, so the same
 *   values go as floats) f is (2^31 − 1)/(213·n) or just below, ≥ 10^6 for every
 *   n ≤ 10: a step at least as fine as ATP's wherever ATP's sum cannot overflow;
 * - for n ≥ 11, 213·10^6·n passes 2^31: ATP's switch sum can overflow (the
 *   registers saturate, and the PS must notice and ask for floats again),
 *   where here the scale shrinks with n and no sum can overflow at all;
 * - values are rounded to nearest (at most 1/(2f) off each), and a value past
 *   the range costs nothing in accuracy: the PS sums floats in float64.
 * The price of the guarantee is the range: with many workers a smaller R keeps
 * the step fine, and values beyond it go the float way.
 */
import { requireWorldSize } from './atp-limits.js';

export const INT32_MAX = 0x7fff_ffff;
/** ATP's threshold for raw floats (its values beyond ±213 go to the PS unscaled). */
export const ATP_DEFAULT_VALUE_RANGE = 213;

export class AtpScale {
  /** f: a value x is sent as round(x·f). */
  readonly factor: number;
  /** Q = ⌊(2^31 − 1)/n⌋: the largest |q| a packet may carry as integers. */
  readonly maxMagnitude: number;

  constructor(
    readonly worldSize: number,
    readonly valueRange: number,
  ) {
    requireWorldSize(worldSize);
    if (!(valueRange > 0 && Number.isFinite(valueRange))) throw new RangeError(`the value range must be a positive finite number, not ${valueRange}`);
    this.maxMagnitude = Math.floor(INT32_MAX / worldSize);
    this.factor = this.maxMagnitude / valueRange;
    if (!(this.factor > 0 && Number.isFinite(this.factor))) throw new RangeError(`a value range of ${valueRange} leaves no usable scale for ${worldSize} workers`);
  }

  /**
   * Writes `count` values of `data` from `from` as big-endian int32 at
   * `view[byteOffset ..]` (zeros past the end of `data`). Returns false,
   * having written part of them, when a value is past the range: the caller
   * then writes the packet as floats (`writeFloats`).
   */
  quantiseInto(data: Float32Array, from: number, count: number, view: DataView, byteOffset: number): boolean {
    const f = this.factor;
    const max = this.maxMagnitude;
    const present = Math.max(0, Math.min(count, data.length - from));
    for (let k = 0; k < present; k++) {
      const q = Math.round(data[from + k]! * f);
      if (q > max || q < -max) return false;
      view.setInt32(byteOffset + 4 * k, q);
    }
    for (let k = present; k < count; k++) view.setInt32(byteOffset + 4 * k, 0);
    return true;
  }

  /** The value an integer sum stands for, in float64 (stored as float32 by the caller). */
  toValue(sum: number): number {
    return sum / this.factor;
  }
}

/** Writes `count` values of `data` from `from` as big-endian float32 (zeros past the end). */
export function writeFloats(data: Float32Array, from: number, count: number, view: DataView, byteOffset: number): void {
  const present = Math.max(0, Math.min(count, data.length - from));
  for (let k = 0; k < present; k++) view.setFloat32(byteOffset + 4 * k, data[from + k]!);
  for (let k = present; k < count; k++) view.setFloat32(byteOffset + 4 * k, 0);
}

/**
 * The most an ATP result element may differ from the float64 reference (the
 * same float32 inputs summed in float64), with `referenceSum` = Σx_i and
 * `absSum` = Σ|x_i| in float64:
 *
 *   n·(1/2 + 2^−20)/f·(1 + 2^−23) + 2^−24·|ref| + (n + 2)·2^−52·Σ|x_i| + 2^−149
 *
 * The first term is the rounding of up to n values to integers (x·f has a
 * float64 error below 2^−22 of a unit, folded into the 2^−20); the second the
 * final rounding to float32; the third the float64 additions of the PS's
 * float path (S/f plus the float pieces) and of the reference itself; the
 * last float32's smallest subnormal step. It holds for integer and float
 * results alike: a float contribution is exact, so it only drops terms.
 */
export function atpErrorBound(worldSize: number, factor: number, referenceSum: number, absSum: number): number {
  const quantisation = (worldSize * (0.5 + 2 ** -20)) / factor;
  return quantisation * (1 + 2 ** -23) + 2 ** -24 * Math.abs(referenceSum) + (worldSize + 2) * 2 ** -52 * absSum + 2 ** -149;
}
