// seededTensor draws in batches (SeededRandom.fillUint32) and computes the
// scale index without a floating-point modulo; the tensor must be the one
// the documented formula gives with the generator's own per-call methods,
// bit for bit, across batch boundaries, for number and text seeds.
import { describe, expect, it } from 'vitest';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import { SeededRandom } from '../../../src/util/seeded-random.js';

/** The formula as documented, one call per draw. */
function byFormula(length: number, seed: number | string, rank: number): Float32Array {
  const random = new SeededRandom(seed).derive(`allreduce-rank-${rank}`);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const scale = 2 ** (random.nextInt(17) - 8);
    out[i] = (2 * random.nextFloat() - 1) * scale;
  }
  return out;
}

const bits = (t: Float32Array): Uint32Array => new Uint32Array(t.buffer, t.byteOffset, t.length);

describe('seededTensor', () => {
  it('is the documented formula bit for bit, for any length, seed and rank', () => {
    for (const seed of [1, 7, 'demo', 2 ** 40 + 3]) {
      for (const rank of [0, 3]) {
        for (const length of [0, 1, 2047, 2048, 2049, 50_000]) {
          expect(bits(seededTensor(length, seed, rank)), `seed ${seed}, rank ${rank}, ${length} values`).toEqual(bits(byFormula(length, seed, rank)));
        }
      }
    }
  });

  it('refuses a length that is not a whole number', () => {
    expect(() => seededTensor(-1, 1, 0)).toThrow(RangeError);
    expect(() => seededTensor(1.5, 1, 0)).toThrow(/length must be an integer/);
  });
});

describe('SeededRandom.fillUint32', () => {
  it('gives the next draws of nextUint32, in order, and leaves the generator where they would', () => {
    const a = new SeededRandom('fill');
    const b = new SeededRandom('fill');
    const batch = new Uint32Array(1000);
    a.fillUint32(batch.subarray(0, 10));
    a.fillUint32(batch.subarray(10));
    expect([...batch]).toEqual(Array.from({ length: 1000 }, () => b.nextUint32()));
    expect(a.nextUint32()).toBe(b.nextUint32());
    expect(a.nextFloat()).toBe(b.nextFloat());
  });
});
