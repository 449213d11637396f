/**
 * Numeric helpers of the SwitchML tests: seeded tensors, an independent
 * re-derivation of the exact result SwitchML must produce (written from the
 * rules in docs/wire.md, not from the agent's code), and the bound check
 * against the float64 reference.
 */
import { SeededRandom } from '../../../../src/util/seeded-random.js';
import { compareWithFloat64Sum, type Float64Comparison } from '../../../../src/agent/switchml/quantisation.js';

/** Values uniform in (−1, 1) times 2^k, k in −12..12, with some exact zeros. */
export function seededTensors(worldSize: number, length: number, seed: number | string): Float32Array[] {
  return Array.from({ length: worldSize }, (_, rank) => {
    const random = new SeededRandom(seed).derive(`switchml-rank-${rank}`);
    const t = new Float32Array(length);
    for (let i = 0; i < length; i++) t[i] = random.chance(0.05) ? 0 : (2 * random.nextFloat() - 1) * 2 ** (random.nextInt(25) - 12);
    return t;
  });
}

/** The smallest e with m < 2^e (m > 0), found by search: an independent frexp. */
function frexpExponent(m: number): number {
  let e = Math.floor(Math.log2(m)) + 1;
  while (2 ** (e - 1) > m) e--;
  while (2 ** e <= m) e++;
  return e;
}

/** Per chunk: the maximum over workers of the clamped chunk exponent. */
export function expectedChunkExponents(tensors: readonly Float32Array[], perPacket: number): number[] {
  const length = tensors[0]!.length;
  const out: number[] = [];
  for (let at = 0; at < length; at += perPacket) {
    let max = 0;
    for (const t of tensors) for (let i = at; i < Math.min(length, at + perPacket); i++) max = Math.max(max, Math.abs(t[i]!));
    const e = max === 0 ? -127 : Math.min(127, Math.max(-127, frexpExponent(max)));
    out.push(e);
  }
  return out;
}

/** What every worker must get, bit for bit: Σ trunc(x·f) per element, divided by f, rounded to float32. */
export function expectedSwitchMlResult(tensors: readonly Float32Array[], perPacket: number): Float32Array {
  const n = tensors.length;
  const length = tensors[0]!.length;
  const exponents = expectedChunkExponents(tensors, perPacket);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const e = exponents[Math.floor(i / perPacket)]!;
    const f = 0x7fffffff / (n * 2 ** (e === 127 ? 128 : e));
    let sum = 0;
    for (const t of tensors) sum += Math.trunc(t[i]! * f);
    if (Math.abs(sum) > 0x7fffffff) throw new Error(`element ${i}: the integer sum ${sum} overflows int32`);
    out[i] = sum / f;
  }
  return out;
}

export type BoundCheck = Float64Comparison;

/** Compares a result with the float64 sum of the inputs, element by element, against switchMlErrorBound (exponents derived here, independently). */
export function checkAgainstFloat64(result: Float32Array, tensors: readonly Float32Array[], perPacket: number): BoundCheck {
  return compareWithFloat64Sum(result, tensors, expectedChunkExponents(tensors, perPacket), perPacket);
}

/** True when the arrays hold the same bits. */
export function sameBits(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
