// An autonomous Rina ring under seeded loss, duplication and reordering on
// every link, in virtual time: results stay the exact integers of
// docs/rina.md §5 on every worker, and each run ends within a bounded number
// of clock steps (runVirtual's bound), several calls in a row.
import { describe, expect, it } from 'vitest';
import { expectedRina, rinaTensors, sameBits } from './helpers/expected.js';
import { allreduceAll, autonomousRing } from './helpers/run-ring.js';

const E = 8;

describe('faults', () => {
  it.each([
    ['1% loss', { loss: 0.01 }],
    ['5% loss', { loss: 0.05 }],
    ['10% loss', { loss: 0.1 }],
    ['10% duplication', { duplicate: 0.1 }],
    ['20% reordering', { reorder: 0.2 }],
    ['5% loss, 5% duplication, 10% reordering', { loss: 0.05, duplicate: 0.05, reorder: 0.1 }],
  ])('%s: exact on every worker, three calls in a row', async (_name, impair) => {
    for (const n of [3, 5]) {
      const ring = autonomousRing(n, { impair, seed: `faults-${n}`, poolSize: 3 });
      for (const length of [97, 300, 45]) {
        const tensors = rinaTensors(n, length, `${n}-${length}`);
        const results = await allreduceAll(ring, tensors);
        const expected = expectedRina(tensors, n, E);
        for (const r of results) expect(sameBits(r.result, expected), `n=${n} length=${length}`).toBe(true);
      }
      if ('loss' in impair) expect(ring.net.lost).toBeGreaterThan(0);
    }
  });

  it('a member that never answers fails the others\' calls with RINA_TIMEOUT after the retries', async () => {
    const ring = autonomousRing(3, { worker: { maxRetries: 3 } });
    const tensors = rinaTensors(3, 40, 'silent');
    const { runVirtual } = await import('./helpers/run-ring.js');
    const calls = ring.workers.slice(0, 2).map((w, r) => w.allreduce(tensors[r]!).then(() => 'done', (err: { code?: string }) => err.code));
    await ring.workers[2]!.close();
    const { value } = await runVirtual(ring.net, ring.time, Promise.all(calls));
    expect(value).toEqual(['RINA_TIMEOUT', 'RINA_TIMEOUT']);
  });
});
