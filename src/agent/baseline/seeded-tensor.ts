/**
 * Reproducible test tensors: rank r's tensor for seed s is the same on every
 * machine, so a worker process, the demo that checks it and a test can each
 * rebuild every rank's input from (seed, rank, length) alone. Values are
 * uniform in (-1, 1) scaled by 2^k for k in -8..8, so that sums mix
 * magnitudes and actually round.
 */
import { SeededRandom } from '../../util/seeded-random.js';

/** The scales 2^k, k in -8..8, by k + 8. */
const SCALES = Array.from({ length: 17 }, (_, i) => 2 ** (i - 8));
const TWO_POW_32 = 0x1_0000_0000;
/** SeededRandom.nextInt(17)'s rejection limit: draws at or above it are drawn again (at most 64 times). */
const SCALE_LIMIT = TWO_POW_32 - (TWO_POW_32 % 17);
/** Draws generated at a time. */
const BATCH = 4096;

/**
 * Per value: scale = 2^(nextInt(17) − 8), value = (2·nextFloat() − 1)·scale,
 * with the generator's draws taken in batches (SeededRandom.fillUint32), in
 * the order those calls would take them: the same tensor, several times
 * faster (a worker's check rebuilds every rank's tensor).
 */
export function seededTensor(length: number, seed: number | string, rank: number): Float32Array {
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`length must be an integer >= 0, got ${length}`);
  const random = new SeededRandom(seed).derive(`allreduce-rank-${rank}`);
  const tensor = new Float32Array(length);
  const draws = new Uint32Array(BATCH);
  let at = BATCH;
  const next = (): number => {
    if (at === BATCH) {
      random.fillUint32(draws);
      at = 0;
    }
    return draws[at++]!;
  };
  for (let i = 0; i < length; i++) {
    let x = next();
    for (let tries = 0; x >= SCALE_LIMIT && tries < 64; tries++) x = next();
    // x % 17 in 32-bit integer arithmetic (a draw ≥ 2^31 is a double, and % on doubles is slow): 2^16 ≡ 1 (mod 17).
    const scale = SCALES[((x >>> 16) + (x & 0xffff)) % 17]!;
    tensor[i] = (2 * (next() / TWO_POW_32) - 1) * scale;
  }
  return tensor;
}
