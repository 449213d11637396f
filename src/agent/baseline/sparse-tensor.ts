/**
 * Reproducible block-sparse tensors: rank r's seeded tensor (seeded-tensor.ts)
 * with all but a chosen share of its blocks set to zero. The same
 * (seed, rank, worldSize, sparsity) gives the same tensor everywhere, so every
 * worker, whatever its algorithm, can rebuild every rank's input and check its
 * result, and dense and sparse algorithms reduce the very same data.
 *
 * Patterns, each keeping exactly round((1 − sparsity) · blocks) non-zero blocks:
 * - `random`: blocks drawn uniformly, independently per rank; the union over
 *   N workers is about 1 − sparsity^N of the tensor.
 * - `clustered`: runs of CLUSTER_BLOCKS consecutive blocks (an embedding
 *   table's hot rows), the runs drawn per rank; overlap as random, in runs.
 * - `per-worker`: one contiguous run per rank starting at rank · blocks / N, so
 *   the workers' blocks overlap only once the density passes 1/N (the union
 *   is as large as it can be: the worst case for sparse aggregation).
 * - `shared`: the same blocks on every rank, drawn from the seed alone (every
 *   worker touches the same hot embedding rows): the union is the density
 *   itself, the best case. The values in them still differ per rank.
 */
import { SeededRandom } from '../../util/seeded-random.js';
import { seededTensor } from './seeded-tensor.js';

export const SPARSITY_PATTERNS = ['random', 'clustered', 'per-worker', 'shared'] as const;
export type SparsityPattern = (typeof SPARSITY_PATTERNS)[number];

/** Blocks per run of the clustered pattern. */
export const CLUSTER_BLOCKS = 16;
/** Elements per block when none is named: OmniReduce's usual block (the DPDK build's default). */
export const DEFAULT_SPARSE_BLOCK = 256;

export interface Sparsity {
  /** Share of blocks that are all zero, 0..1 (0.9: one block in ten carries values). */
  readonly sparsity: number;
  readonly pattern: SparsityPattern;
  /** Elements per block. */
  readonly blockElements: number;
}

/** Throws a RangeError for a sparsity a caller should have checked (the CLI reports its own errors first). */
export function checkSparsity(s: Sparsity): void {
  if (!(s.sparsity >= 0 && s.sparsity <= 1)) throw new RangeError(`sparsity must be in 0..1, not ${s.sparsity}`);
  if (!SPARSITY_PATTERNS.includes(s.pattern)) throw new RangeError(`pattern must be one of ${SPARSITY_PATTERNS.join(', ')}, not ${String(s.pattern)}`);
  if (!Number.isInteger(s.blockElements) || s.blockElements < 1) throw new RangeError(`blockElements must be a positive integer, not ${s.blockElements}`);
}

/** Which blocks of rank `rank`'s tensor carry values (true) under `s`. */
export function nonZeroBlockMask(blocks: number, s: Sparsity, seed: number | string, rank: number, worldSize: number): Uint8Array {
  checkSparsity(s);
  if (!Number.isInteger(rank) || !Number.isInteger(worldSize) || rank < 0 || rank >= worldSize) throw new RangeError(`rank ${rank} is not in 0..${worldSize - 1}`);
  const mask = new Uint8Array(blocks);
  const keep = Math.round((1 - s.sparsity) * blocks);
  const random = new SeededRandom(seed).derive(s.pattern === 'shared' ? 'sparse-shared' : `sparse-${s.pattern}-rank-${rank}`);
  switch (s.pattern) {
    case 'random':
    case 'shared':
      for (const b of drawDistinct(blocks, keep, random)) mask[b] = 1;
      break;
    case 'clustered': {
      const runs = Math.ceil(blocks / CLUSTER_BLOCKS);
      let left = keep;
      // The run holding the tensor's short tail may be shorter: fill runs until `keep` blocks are set.
      for (const run of drawDistinct(runs, runs, random)) {
        for (let b = run * CLUSTER_BLOCKS; b < Math.min(blocks, (run + 1) * CLUSTER_BLOCKS) && left > 0; b++, left--) mask[b] = 1;
        if (left === 0) break;
      }
      break;
    }
    case 'per-worker': {
      const start = Math.floor((rank * blocks) / worldSize);
      for (let i = 0; i < keep; i++) mask[(start + i) % blocks] = 1;
      break;
    }
  }
  return mask;
}

/**
 * Rank `rank`'s seeded tensor with the blocks outside its mask zeroed. The
 * kept blocks hold the dense tensor's values, so sparsity 0 is exactly
 * `seededTensor(length, seed, rank)`.
 */
export function sparseSeededTensor(length: number, seed: number | string, rank: number, worldSize: number, s: Sparsity): Float32Array {
  const tensor = seededTensor(length, seed, rank);
  const blocks = Math.ceil(length / s.blockElements);
  const mask = nonZeroBlockMask(blocks, s, seed, rank, worldSize);
  for (let b = 0; b < blocks; b++) {
    if (mask[b] === 0) tensor.fill(0, b * s.blockElements, Math.min(length, (b + 1) * s.blockElements));
  }
  return tensor;
}

/** Rank `rank`'s input: sparse when `sparsity` is given, else the dense seeded tensor. */
export function workerTensor(length: number, seed: number | string, rank: number, worldSize: number, sparsity: Sparsity | undefined): Float32Array {
  return sparsity === undefined ? seededTensor(length, seed, rank) : sparseSeededTensor(length, seed, rank, worldSize, sparsity);
}

/** `count` distinct integers of 0..n−1 in random order (a partial Fisher–Yates shuffle). */
function drawDistinct(n: number, count: number, random: SeededRandom): Uint32Array {
  const pool = new Uint32Array(n);
  for (let i = 0; i < n; i++) pool[i] = i;
  for (let i = 0; i < count; i++) {
    const j = i + random.nextInt(n - i);
    const t = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = t;
  }
  return pool.subarray(0, count);
}
