/**
 * What a Rina allreduce must return, derived from docs/rina.md §1 and §5
 * rather than from the agent's code: segments of S = ⌈L/R⌉ values, chunks of
 * E values within a segment, per chunk the largest frexp exponent over every
 * worker's values (−127 for zeros, clamped to −127..127, 127 scaling as 128),
 * the scale f = (2^31 − 1)/(n · 2^s), values truncated toward zero, summed,
 * divided by f and rounded to float32. Plus the check against the float64
 * sum (switchMlErrorBound, the bound docs/rina.md states).
 */
import { switchMlErrorBound } from '../../../../src/agent/switchml/quantisation.js';
import { SeededRandom } from '../../../../src/util/seeded-random.js';

function frexpExponent(m: number): number {
  if (m === 0) return -127;
  return Math.min(127, Math.max(-127, Math.floor(Math.log2(m)) + 1));
}

/** Chunk index of every element: ⌊i/S⌋ segments, then ⌊(i − gS)/E⌋ within. */
function chunkKey(i: number, S: number, E: number): string {
  const g = Math.floor(i / S);
  return `${g}/${Math.floor((i - g * S) / E)}`;
}

export function chunkMaxExponents(tensors: readonly Float32Array[], ringLength: number, E: number): Map<string, number> {
  const L = tensors[0]!.length;
  const S = Math.ceil(L / ringLength);
  const max = new Map<string, number>();
  for (let i = 0; i < L; i++) {
    let m = 0;
    for (const t of tensors) m = Math.max(m, Math.abs(t[i]!));
    const key = chunkKey(i, S, E);
    max.set(key, Math.max(max.get(key) ?? 0, m));
  }
  return new Map([...max].map(([k, m]) => [k, frexpExponent(m)]));
}

export function expectedRina(tensors: readonly Float32Array[], ringLength: number, E: number): Float32Array {
  const n = tensors.length;
  const L = tensors[0]!.length;
  const S = Math.ceil(L / ringLength);
  const exps = chunkMaxExponents(tensors, ringLength, E);
  const out = new Float32Array(L);
  for (let i = 0; i < L; i++) {
    const e = exps.get(chunkKey(i, S, E))!;
    const f = 0x7fffffff / (n * 2 ** (e === 127 ? 128 : e));
    let sum = 0;
    for (const t of tensors) sum += Math.trunc(t[i]! * f);
    out[i] = sum / f;
  }
  return out;
}

/** Elements farther from the float64 sum than the stated bound. */
export function boundViolations(result: Float32Array, tensors: readonly Float32Array[], ringLength: number, E: number): number {
  const L = tensors[0]!.length;
  const S = Math.ceil(L / ringLength);
  const exps = chunkMaxExponents(tensors, ringLength, E);
  let bad = 0;
  for (let i = 0; i < L; i++) {
    let sum = 0;
    let abs = 0;
    for (const t of tensors) {
      sum += t[i]!;
      abs += Math.abs(t[i]!);
    }
    if (!(Math.abs(result[i]! - sum) <= switchMlErrorBound(tensors.length, exps.get(chunkKey(i, S, E))!, sum, abs))) bad++;
  }
  return bad;
}

/** Values of varied magnitude per chunk (2^−20 .. 2^20), signs mixed, some zeros and some whole zero runs. */
export function rinaTensors(worldSize: number, length: number, seed: number | string): Float32Array[] {
  return Array.from({ length: worldSize }, (_, rank) => {
    const random = new SeededRandom(seed).derive(`rina-rank-${rank}`);
    const t = new Float32Array(length);
    for (let i = 0; i < length; i++) {
      const scale = 2 ** (((i >> 3) % 41) - 20);
      t[i] = random.chance(0.05) ? 0 : (2 * random.nextFloat() - 1) * scale;
    }
    return t;
  });
}

/** The same bits, element for element. */
export function sameBits(a: Float32Array, b: Float32Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
