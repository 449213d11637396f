/**
 * Reproducible test tensors: rank r's tensor for seed s is the same on every
 * machine, so a worker process, the demo that checks it and a test can each
 * rebuild every rank's input from (seed, rank, length) alone. Values are
 * uniform in (-1, 1) scaled by 2^k for k in -8..8, so that sums mix
 * magnitudes and actually round.
 */
import { SeededRandom } from '../../util/seeded-random.js';

export function seededTensor(length: number, seed: number | string, rank: number): Float32Array {
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`length must be an integer >= 0, got ${length}`);
  const random = new SeededRandom(seed).derive(`allreduce-rank-${rank}`);
  const tensor = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const scale = 2 ** (random.nextInt(17) - 8);
    tensor[i] = (2 * random.nextFloat() - 1) * scale;
  }
  return tensor;
}
