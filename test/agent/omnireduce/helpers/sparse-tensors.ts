/**
 * Block-sparse test tensors and the independent checks of a result: the
 * float64 sum of the inputs, computed here, against switchMlErrorBound with
 * exponents derived by the SwitchML tests' own frexp.
 */
import { compareWithFloat64Sum } from '../../../../src/agent/switchml/quantisation.js';
import { SeededRandom } from '../../../../src/util/seeded-random.js';
import { expectedChunkExponents } from '../../switchml/helpers/numbers.js';

export type Pattern = 'random' | 'clustered';

/** A tensor whose blocks are non-zero with probability `density` (random) or in one run of that share (clustered). */
export function sparseTensor(length: number, blockSize: number, density: number, pattern: Pattern, random: SeededRandom): Float32Array {
  const t = new Float32Array(length);
  const blocks = Math.ceil(length / blockSize);
  const run = Math.round(density * blocks);
  const start = random.nextInt(Math.max(1, blocks - run + 1));
  for (let b = 0; b < blocks; b++) {
    const nonZero = pattern === 'random' ? random.chance(density) : b >= start && b < start + run;
    if (!nonZero) continue;
    const scale = 2 ** (random.nextInt(25) - 12);
    for (let i = b * blockSize; i < Math.min(length, (b + 1) * blockSize); i++) t[i] = random.chance(0.1) ? 0 : (2 * random.nextFloat() - 1) * scale;
  }
  return t;
}

export function sparseTensors(workers: number, length: number, blockSize: number, density: number, pattern: Pattern, seed: number | string): Float32Array[] {
  return Array.from({ length: workers }, (_, rank) => sparseTensor(length, blockSize, density, pattern, new SeededRandom(seed).derive(`omnireduce-rank-${rank}`)));
}

/** Elements farther from the float64 sum than switchMlErrorBound allows. */
export function boundViolations(result: Float32Array, tensors: readonly Float32Array[], blockSize: number): number {
  return compareWithFloat64Sum(result, tensors, expectedChunkExponents(tensors, blockSize), blockSize).violations;
}

/** Blocks of `t` with a non-zero element. */
export function nonZeroBlocks(t: Float32Array, blockSize: number): number {
  let n = 0;
  for (let at = 0; at < t.length; at += blockSize) if (t.subarray(at, at + blockSize).some((x) => x !== 0)) n++;
  return n;
}
