/**
 * SwitchML's numbers: floats become int32 with a per-chunk scale that every
 * worker shares, the switch adds the integers, the workers divide the sums
 * back. Rules (docs/wire.md §4, "The exponent, one window ahead"):
 *
 * - **Chunk exponent.** e such that max|x| < 2^e over the chunk, as frexp gives
 *   it, clamped to −127..127 (an int8; −128 means "no chunk"). An all-zero
 *   chunk has −127, the lowest, so that it never raises anyone's maximum.
 * - **Saturation.** Finite float32 values reach 2^128, so the rule "max|x| < 2^e"
 *   needs e = 128 for |x| ≥ 2^127, which int8 cannot carry. p4ina reads a
 *   maximum of 127 as "at least 127" and scales with 2^128 for it. Every worker
 *   applies the same reading, so they still agree; a chunk whose true maximum
 *   exponent is 127 loses one bit. This is where we make the doc's clamp exact.
 * - **Scale.** f = (2^31 − 1) / (n · 2^s), s the scale exponent of the chunk's
 *   e_max (the maximum over the workers). Each value becomes q = trunc(x · f),
 *   rounded toward zero, so |q| < (2^31 − 1)/n and the sum of n of them fits
 *   an int32. (x · f is a float64 product, but its rounding, below 2^−22, cannot
 *   carry it to the integer above (2^31 − 1)/n: 2^31 − 1 is prime, so for n ≥ 2
 *   that quotient lies at least 1/n below an integer, and for n = 1 it is one.)
 * - **Back.** r = S / f in float64, stored as float32 (round to nearest). The
 *   inputs to this are the switch's integer sum S and e_max, the same on every
 *   worker, and IEEE arithmetic is deterministic: every worker gets the same bits.
 *
 * Error bound (derived in `switchMlErrorBound`): each q_i is within 1 (plus
 * 2^−22 of float64 rounding) of x_i · f, so S is within n(1 + 2^−22) of f·Σx,
 * and r is within about n/f = n²·2^s/(2^31 − 1) of Σx before the final float32
 * rounding. Relative to the chunk's largest magnitude (≈ 2^s) that is
 * n²/2^31: 2^−31 for one worker, about 3·10^−8 for 8.
 */
import type { Int32BeView } from '../../wire/index.js';

export const INT32_MAX = 0x7fff_ffff;
/** The lowest exponent a chunk can have (also that of an all-zero chunk). */
export const MIN_CHUNK_EXPONENT = -127;
/** The highest exponent the int8 field carries; it stands for "127 or 128" (see saturation). */
export const MAX_CHUNK_EXPONENT = 127;

const ABS_MASK = 0x7fff_ffff;
/** The bits of +Infinity: every |x| with bits at or above is Infinity or NaN. */
const NON_FINITE_BITS = 0x7f80_0000;

/** The chunk exponent of a non-negative float32 given by its bits (ABS_MASK applied), clamped. */
export function exponentOfMagnitudeBits(absBits: number): number {
  if (absBits === 0) return MIN_CHUNK_EXPONENT;
  const biased = absBits >>> 23;
  // frexp: a normal 1.m·2^(b−127) is 0.1m·2^(b−126); a subnormal m·2^−149 has
  // frexp exponent bitLength(m) − 149.
  const e = biased === 0 ? 32 - Math.clz32(absBits) - 149 : biased - 126;
  return e < MIN_CHUNK_EXPONENT ? MIN_CHUNK_EXPONENT : e > MAX_CHUNK_EXPONENT ? MAX_CHUNK_EXPONENT : e;
}

/**
 * Fills `out[c]` with the exponent of chunk c (`elementsPerPacket` values each,
 * the last one short). Returns the index of the first NaN or ±Infinity, or −1
 * when every value is finite (then `out` is complete).
 */
export function chunkExponents(data: Float32Array, elementsPerPacket: number, out: Int8Array): number {
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  const chunks = Math.ceil(data.length / elementsPerPacket);
  if (out.length < chunks) throw new RangeError(`out has room for ${out.length} chunk exponents, ${chunks} are needed`);
  for (let c = 0; c < chunks; c++) {
    const end = Math.min(data.length, (c + 1) * elementsPerPacket);
    let max = 0;
    for (let i = c * elementsPerPacket; i < end; i++) {
      const a = bits[i]! & ABS_MASK;
      if (a > max) max = a;
    }
    if (max >= NON_FINITE_BITS) {
      for (let i = c * elementsPerPacket; i < end; i++) if ((bits[i]! & ABS_MASK) >= NON_FINITE_BITS) return i;
    }
    out[c] = exponentOfMagnitudeBits(max);
  }
  return -1;
}

/** The power of two a chunk is scaled by: its exponent, except 127, which stands for 128. */
export function scaleExponent(exponent: number): number {
  return exponent === MAX_CHUNK_EXPONENT ? MAX_CHUNK_EXPONENT + 1 : exponent;
}

/** The scale factors f for one worker count, by exponent; computed once, identically on every worker. */
export class ScaleTable {
  private readonly factors = new Float64Array(MAX_CHUNK_EXPONENT - MIN_CHUNK_EXPONENT + 1);

  constructor(readonly worldSize: number) {
    if (!Number.isInteger(worldSize) || worldSize < 1) throw new RangeError(`worldSize must be a positive integer, not ${worldSize}`);
    for (let e = MIN_CHUNK_EXPONENT; e <= MAX_CHUNK_EXPONENT; e++) {
      this.factors[e - MIN_CHUNK_EXPONENT] = INT32_MAX / (worldSize * 2 ** scaleExponent(e));
    }
  }

  /** f = (2^31 − 1) / (n · 2^s) for a chunk whose maximum exponent is `exponent` (−127..127). */
  factor(exponent: number): number {
    if (!Number.isInteger(exponent) || exponent < MIN_CHUNK_EXPONENT || exponent > MAX_CHUNK_EXPONENT) {
      throw new RangeError(`a chunk exponent is in ${MIN_CHUNK_EXPONENT}..${MAX_CHUNK_EXPONENT}, not ${exponent}`);
    }
    return this.factors[exponent - MIN_CHUNK_EXPONENT]!;
  }
}

/**
 * Writes `count` values of `data` from `from`, scaled by `factor` and rounded
 * toward zero, as big-endian int32 at `view[byteOffset ..]`; values past the
 * end of `data` are written as 0 (the padding of the last chunk).
 */
export function quantiseInto(data: Float32Array, from: number, count: number, factor: number, view: DataView, byteOffset: number): void {
  const present = Math.max(0, Math.min(count, data.length - from));
  for (let k = 0; k < present; k++) view.setInt32(byteOffset + 4 * k, Math.trunc(data[from + k]! * factor));
  for (let k = present; k < count; k++) view.setInt32(byteOffset + 4 * k, 0);
}

/** Writes the first `count` sums of a result divided by `factor` into `out` from `at`. */
export function dequantiseInto(sums: Int32BeView, count: number, factor: number, out: Float32Array, at: number): void {
  for (let k = 0; k < count; k++) out[at + k] = sums.get(k) / factor;
}

/**
 * The most a SwitchML result element may differ from the float64 reference
 * (the same float32 inputs summed in float64), for a chunk whose maximum
 * exponent is `exponent`, with `referenceSum` = Σx_i and `absSum` = Σ|x_i| in float64:
 *
 *   |r − ref| ≤ (n/f)(1 + 2^−19) + 2^−24·|ref| + n·2^−52·Σ|x_i| + 2^−149
 *
 * The first term is the quantisation (n values, each truncated by < 1 unit of
 * 1/f, with float64 rounding of the products, the division and f itself
 * folded into the 2^−19); the second the final rounding to float32; the third
 * the float64 reference's own error; the last float32's smallest subnormal step.
 */
export function switchMlErrorBound(worldSize: number, exponent: number, referenceSum: number, absSum: number): number {
  return quantisationErrorTerm(worldSize, exponent) + FLOAT32_ROUNDING * Math.abs(referenceSum) + worldSize * FLOAT64_ROUNDING * absSum + FLOAT32_STEP;
}

const FLOAT32_ROUNDING = 2 ** -24;
const FLOAT64_ROUNDING = 2 ** -52;
const FLOAT32_STEP = 2 ** -149;

/** The first term of switchMlErrorBound, which depends on the chunk only: computed once per chunk by callers that check millions of elements. */
function quantisationErrorTerm(worldSize: number, exponent: number): number {
  const step = (worldSize * worldSize * 2 ** scaleExponent(exponent)) / INT32_MAX;
  return step * (1 + 2 ** -19);
}

/** Per chunk, the maximum exponent over every worker's tensor: the e_max the switch will return. */
export function jobChunkExponents(tensors: readonly Float32Array[], elementsPerPacket: number): Int8Array {
  const length = tensors[0]?.length ?? 0;
  const chunks = Math.ceil(length / elementsPerPacket);
  const max = new Int8Array(chunks).fill(MIN_CHUNK_EXPONENT);
  const own = new Int8Array(chunks);
  for (const tensor of tensors) {
    if (tensor.length !== length) throw new RangeError(`tensors differ in length: ${tensor.length} and ${length}`);
    if (chunkExponents(tensor, elementsPerPacket, own) !== -1) throw new RangeError('a tensor holds NaN or Infinity');
    for (let c = 0; c < chunks; c++) if (own[c]! > max[c]!) max[c] = own[c]!;
  }
  return max;
}

/** How far a result is from the float64 sum of the inputs: the largest error and how many elements break switchMlErrorBound. */
export interface Float64Comparison {
  readonly maxAbsError: number;
  readonly violations: number;
}

/** Compares `result` element by element with the float64 sum of `tensors`, each chunk with its exponent from `exponents`. */
export function compareWithFloat64Sum(result: Float32Array, tensors: readonly Float32Array[], exponents: ArrayLike<number>, elementsPerPacket: number): Float64Comparison {
  if (!Number.isInteger(elementsPerPacket) || elementsPerPacket < 1) throw new RangeError(`elementsPerPacket must be a positive integer, not ${elementsPerPacket}`);
  let maxAbsError = 0;
  let violations = 0;
  const n = tensors.length;
  // switchMlErrorBound term by term, in its order of operations (the same bits), its chunk term once per chunk.
  const absSumFactor = n * FLOAT64_ROUNDING;
  for (let start = 0, c = 0; start < result.length; start += elementsPerPacket, c++) {
    const quantisation = quantisationErrorTerm(n, exponents[c]!);
    const end = Math.min(result.length, start + elementsPerPacket);
    for (let i = start; i < end; i++) {
      let sum = 0;
      let abs = 0;
      for (let t = 0; t < n; t++) {
        const x = tensors[t]![i]!;
        sum += x;
        abs += Math.abs(x);
      }
      const error = Math.abs(result[i]! - sum);
      if (error > maxAbsError) maxAbsError = error;
      if (!(error <= quantisation + FLOAT32_ROUNDING * Math.abs(sum) + absSumFactor * abs + FLOAT32_STEP)) violations++;
    }
  }
  return { maxAbsError, violations };
}
