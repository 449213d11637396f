/** Seeded field values for the INA round-trip tests. */
import type { SeededRandom } from '../../src/util/seeded-random.js';

/** Uniform integer in min..max inclusive (range at most 2^32). */
export function between(rng: SeededRandom, min: number, max: number): number {
  return min + rng.nextInt(max - min + 1);
}

/** `count` int32 values, extremes included more often than chance would. */
export function int32s(rng: SeededRandom, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const pick = rng.nextInt(8);
    out[i] = pick === 0 ? -0x8000_0000 : pick === 1 ? 0x7fff_ffff : pick === 2 ? 0 : rng.nextUint32() | 0;
  }
  return out;
}
