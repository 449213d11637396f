import { describe, expect, it } from 'vitest';
import { OmniReduceError } from '../../../src/agent/omnireduce/omnireduce-error.js';
import { expectedSwitchMlResult, sameBits } from '../switchml/helpers/numbers.js';
import { makeJob, runVirtual, VIRTUAL_TIMING } from './helpers/run-job.js';
import { boundViolations, sparseTensors } from './helpers/sparse-tensors.js';

describe('OmniReduce under seeded loss, duplication and reordering', () => {
  for (const rate of [0.01, 0.05, 0.1]) {
    for (const shards of [[6], [2, 3, 1]]) {
      it(`is exact at ${rate * 100}% with ${shards.length} shard(s)`, async () => {
        const tensors = sparseTensors(5, 4000, 32, 0.2, 'random', `impair-${rate}`);
        const job = makeJob({ workers: 5, blockSize: 32, shards, impair: { loss: rate, duplicate: rate, reorder: rate }, seed: `seed-${rate}-${shards.length}` });
        const { value, steps } = await runVirtual(job.net, job.time, Promise.all(job.workers.map((w, r) => w.allreduce(tensors[r]!))), 20_000);
        const expected = expectedSwitchMlResult(tensors, 32);
        for (const { result } of value) expect(sameBits(result, expected)).toBe(true);
        expect(boundViolations(value[0]!.result, tensors, 32)).toBe(0);
        expect(job.net.lost).toBeGreaterThan(0);
        expect(value.reduce((n, r) => n + r.stats.retransmissions, 0)).toBeGreaterThan(0);
        // Duplicates reached the aggregators and were answered, never added twice (the sums above are exact).
        expect(job.aggregators.reduce((n, a) => n + a.counters.duplicates + a.counters.resent, 0)).toBeGreaterThan(0);
        expect(steps).toBeLessThan(20_000);
        expect(job.time.now()).toBeLessThan(60_000);
      });
    }
  }
});

describe('OmniReduce when a worker never sends', () => {
  it('fails the others with OMNIREDUCE_TIMEOUT within bounded virtual time, naming the aggregator', async () => {
    const tensors = sparseTensors(3, 500, 16, 0.5, 'random', 'silent');
    const job = makeJob({ workers: 3, blockSize: 16, shards: [2, 2] });
    const calls = job.workers.slice(0, 2).map((w, r) => w.allreduce(tensors[r]!).then(() => undefined, (error: unknown) => error));
    const { value } = await runVirtual(job.net, job.time, Promise.all(calls));
    for (const error of value) {
      expect(error).toBeInstanceOf(OmniReduceError);
      expect((error as OmniReduceError).code).toBe('OMNIREDUCE_TIMEOUT');
      expect((error as OmniReduceError).message).toMatch(/aggregator 10\.0\.0\.[45]:48880 did not answer slot \d/);
    }
    // Every retransmission waits at most maxTimeoutMs.
    expect(job.time.now()).toBeLessThanOrEqual((VIRTUAL_TIMING.maxRetries + 1) * VIRTUAL_TIMING.backoff.maxTimeoutMs);
    // The aggregators can say whom they wait for: rank 2, in every slot.
    const waiting = job.aggregators.flatMap((a) => a.waiting());
    expect(waiting.length).toBe(4);
    for (const w of waiting) expect(w.ranks).toEqual([2]);
    // A failed worker refuses further calls.
    await expect(job.workers[0]!.allreduce(tensors[0]!)).rejects.toMatchObject({ code: 'OMNIREDUCE_UNUSABLE' });
  });
});
