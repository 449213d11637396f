import { describe, expect, it } from 'vitest';
import { omniReduceLength } from '../../../src/wire/omnireduce.js';
import { expectedSwitchMlResult, sameBits } from '../switchml/helpers/numbers.js';
import { makeJob, runVirtual, type JobSpec } from './helpers/run-job.js';
import { boundViolations, nonZeroBlocks, sparseTensors, type Pattern } from './helpers/sparse-tensors.js';

async function reduce(spec: JobSpec, tensors: Float32Array[]) {
  const job = makeJob(spec);
  const { value } = await runVirtual(job.net, job.time, Promise.all(job.workers.map((w, r) => w.allreduce(tensors[r]!))));
  return { job, results: value };
}

function expectExact(results: { result: Float32Array }[], tensors: Float32Array[], blockSize: number): void {
  const expected = expectedSwitchMlResult(tensors, blockSize);
  for (const { result } of results) {
    expect(sameBits(result, results[0]!.result)).toBe(true);
    expect(sameBits(result, expected)).toBe(true);
  }
  expect(boundViolations(results[0]!.result, tensors, blockSize)).toBe(0);
}

describe('OmniReduce, no impairments', () => {
  for (const density of [0, 0.01, 0.1, 0.5, 1]) {
    for (const pattern of ['random', 'clustered'] as Pattern[]) {
      it(`is exact at density ${density * 100}% (${pattern})`, async () => {
        const tensors = sparseTensors(4, 3000, 32, density, pattern, `d${density}-${pattern}`);
        const { results } = await reduce({ workers: 4, blockSize: 32, shards: [8] }, tensors);
        expectExact(results, tensors, 32);
      });
    }
  }

  for (const workers of [1, 2, 3, 5, 8]) {
    it(`is exact with ${workers} workers and 3 aggregator shards, tensor not a multiple of the block size`, async () => {
      const tensors = sparseTensors(workers, 1001, 16, 0.3, 'random', `w${workers}`);
      const { results } = await reduce({ workers, blockSize: 16, shards: [3, 2, 4] }, tensors);
      expectExact(results, tensors, 16);
    });
  }

  it('is exact when one worker is dense and the others sparse', async () => {
    const tensors = sparseTensors(4, 2048, 64, 0.05, 'random', 'one-dense');
    tensors[0] = sparseTensors(1, 2048, 64, 1, 'random', 'dense')[0]!;
    const { results } = await reduce({ workers: 4, blockSize: 64, shards: [4, 4] }, tensors);
    expectExact(results, tensors, 64);
  });

  it('gives zeros for blocks nobody sent, and more slots than blocks work', async () => {
    const tensors = sparseTensors(3, 100, 8, 0, 'random', 'zeros');
    tensors[1]![57] = 1.5;
    const { results } = await reduce({ workers: 3, blockSize: 8, shards: [20] }, tensors);
    expectExact(results, tensors, 8);
    expect(Array.from(results[0]!.result).filter((x) => x !== 0)).toEqual([1.5]);
  });

  it('reduces an empty tensor without sending', async () => {
    const { results } = await reduce({ workers: 2, blockSize: 8, shards: [2] }, [new Float32Array(0), new Float32Array(0)]);
    expect(results.map((r) => r.result.length)).toEqual([0, 0]);
    expect(results[0]!.stats.messagesSent).toBe(0);
  });

  it('sends bytes in proportion to the non-zero blocks (plus first blocks and value-less messages)', async () => {
    const blockSize = 256;
    const slots = 8;
    const length = 256 * 400;
    const bytesAt = async (density: number) => {
      const tensors = sparseTensors(4, length, blockSize, density, 'random', `bytes-${density}`);
      const { results } = await reduce({ workers: 4, blockSize, shards: [slots] }, tensors);
      expectExact(results, tensors, blockSize);
      return { tensors, stats: results.map((r) => r.stats) };
    };
    const dense = await bytesAt(1);
    const sparse = await bytesAt(0.1);
    const blocks = length / blockSize;
    for (const [rank, stats] of sparse.stats.entries()) {
      // Every block named by someone is one round; the worker sends its block's values or 12 bytes.
      const ownBlocks = new Set<number>();
      for (let b = 0; b < blocks; b++) if (b < slots || sparse.tensors[rank]!.subarray(b * blockSize, (b + 1) * blockSize).some((x) => x !== 0)) ownBlocks.add(b);
      expect(stats.blocksSent).toBe(ownBlocks.size);
      expect(stats.retransmissions).toBe(0);
      expect(stats.bytesSent).toBe(ownBlocks.size * omniReduceLength(blockSize) + (stats.rounds - ownBlocks.size) * omniReduceLength(0));
    }
    expect(nonZeroBlocks(sparse.tensors[0]!, blockSize)).toBeLessThan(0.15 * blocks);
    const denseBytes = dense.stats[0]!.bytesSent;
    expect(denseBytes).toBe(blocks * omniReduceLength(blockSize) + slots * omniReduceLength(0));
    for (const stats of sparse.stats) expect(stats.bytesSent / denseBytes).toBeLessThan(0.16);
  });
});
