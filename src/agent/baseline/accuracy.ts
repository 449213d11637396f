/**
 * How baseline results compare with a float64 reference: the sum of the same
 * float32 inputs, added in float64 in rank order (x_0 + x_1 + … + x_{n-1}).
 *
 * Ring: each element is a float32 recursive sum of n terms in some fixed
 * order, so |ring − exact| ≤ (n−1)·u·Σ|x_i| with u = 2^-24 (Jeannerod and
 * Rump's bound for recursive summation, which holds for any n, with no
 * second-order term). The float64 reference is itself within (n−1)·2^-53·Σ|x_i|
 * of exact, so against it we allow (n−1)·(2^-24 + 2^-52)·Σ|x_i|, the extra
 * 2^-53 covering the rounding of Σ|x_i| and of the bound itself.
 *
 * Hierarchical AllReduce: float32 again, n terms in one fixed order that is
 * not a single chain (each rack's sum, then the racks' sums round the ring).
 * The (n−1)·u·Σ|x_i| bound holds for any order of summation (Jeannerod and
 * Rump, SIAM J. Matrix Anal. Appl. 34(2), 2013), so the ring's bound is its
 * bound too.
 *
 * Parameter server: it adds in float64 in rank order, exactly like the
 * reference, and rounds once to float32; so its result is bit for bit
 * Math.fround(reference), within 2^-24·|reference| of it.
 *
 * Either way every rank gets the same bits; `sameBits` checks that.
 */

/** float32's unit roundoff, 2^-24. */
export const FLOAT32_UNIT_ROUNDOFF = 2 ** -24;
const FLOAT64_UNIT_ROUNDOFF = 2 ** -53;

export interface Float64Reference {
  /** Σ x_i per element, in float64, in rank order. */
  readonly sum: Float64Array;
  /** Σ |x_i| per element, in float64. */
  readonly absSum: Float64Array;
}

/** The float64 reference for one AllReduce; every tensor must have the same length. */
export function float64Reference(tensors: readonly Float32Array[]): Float64Reference {
  const length = tensors[0]?.length ?? 0;
  const sum = new Float64Array(length);
  const absSum = new Float64Array(length);
  for (const tensor of tensors) {
    if (tensor.length !== length) throw new RangeError(`tensors differ in length: ${tensor.length} and ${length}`);
    for (let i = 0; i < length; i++) {
      sum[i] += tensor[i];
      absSum[i] += Math.abs(tensor[i]);
    }
  }
  return { sum, absSum };
}

/** The most a ring result may differ from the float64 reference at an element with Σ|x_i| = absSum. */
export function ringErrorBound(worldSize: number, absSum: number): number {
  return (worldSize - 1) * (FLOAT32_UNIT_ROUNDOFF + 2 * FLOAT64_UNIT_ROUNDOFF) * absSum;
}

/** The most a parameter-server result may differ from the float64 reference `sum`. */
export function parameterServerErrorBound(sum: number): number {
  return FLOAT32_UNIT_ROUNDOFF * Math.abs(sum);
}

export interface ReferenceComparison {
  /** Largest |result − reference| over the elements. */
  readonly maxAbsError: number;
  /** Elements whose error exceeds their bound. */
  readonly violations: number;
  /** The first such element, for a message. */
  readonly firstViolation?: { index: number; error: number; bound: number };
}

/** Compares `result` with the reference, element by element, against `bound(i)`. */
export function compareWithReference(result: Float32Array, reference: Float64Reference, bound: (index: number) => number): ReferenceComparison {
  if (result.length !== reference.sum.length) throw new RangeError(`result has ${result.length} elements, reference ${reference.sum.length}`);
  let maxAbsError = 0;
  let violations = 0;
  let firstViolation: ReferenceComparison['firstViolation'];
  for (let i = 0; i < result.length; i++) {
    const error = Math.abs(result[i] - reference.sum[i]);
    if (error > maxAbsError) maxAbsError = error;
    const limit = bound(i);
    if (!(error <= limit)) {
      violations++;
      firstViolation ??= { index: i, error, bound: limit };
    }
  }
  return firstViolation ? { maxAbsError, violations, firstViolation } : { maxAbsError, violations };
}

/** True when the two arrays hold exactly the same bits (NaN payloads and signed zeros included). */
export function sameBits(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
