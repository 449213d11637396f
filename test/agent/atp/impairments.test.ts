import { afterEach, describe, expect, test } from 'vitest';
import { sameBits } from '../../../src/agent/baseline/accuracy.js';
import { AtpMemoryNetwork, type AtpJobSpec } from './helpers/atp-network.js';
import { atpTensors, checkAtp } from './helpers/numbers.js';
import { allreduceJobs, closeJobs, startJob, type RunningJob } from './helpers/run-virtual.js';
import { VirtualTime } from './helpers/virtual-time.js';

const running: RunningJob[] = [];
afterEach(async () => {
  await closeJobs(running.splice(0));
});

/** Two aggregating racks and a legacy one; the core aggregates at level 1. */
const MIXED: AtpJobSpec = {
  jobId: 21,
  racks: [
    { tor: 0, workers: 3, aggregating: true },
    { tor: 1, workers: 2, aggregating: true },
    { tor: 2, workers: 2, aggregating: false },
  ],
  coreAggregates: true,
};

describe('ATP under seeded loss, duplication and reordering on every link (virtual time)', () => {
  test.each([
    [0.01, 1],
    [0.05, 2],
    [0.1, 3],
  ])('%f loss, duplication and reordering (seed %i): exact, bit-identical, bounded', async (p, seed) => {
    const net = new AtpMemoryNetwork({ racks: 3, seed, impair: { loss: p, duplicate: p, reorder: p } });
    const time = new VirtualTime();
    const job = startJob(net.addJob(MIXED), time, { maxWindow: 16 });
    running.push(job);
    const calls = [atpTensors(7, 3000, `imp-${seed}-a`), atpTensors(7, 1111, `imp-${seed}-b`)];
    for (const tensors of calls) {
      const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
      for (const r of outcome!.results) expect(sameBits(r, outcome!.results[0]!)).toBe(true);
      expect(checkAtp(outcome!.results[0]!, tensors, 64)).toMatchObject({ inexact: 0, boundViolations: 0 });
    }
    const impaired = net.impairmentTotals();
    expect(impaired.lost).toBeGreaterThan(0);
    expect(impaired.duplicated).toBeGreaterThan(0);
    expect(impaired.reordered).toBeGreaterThan(0);
    const ps = job.ps.stats;
    // Losses were recovered by resends that the PS completed in software.
    expect(ps.resendPieces).toBeGreaterThan(0);
    expect(ps.completedInSoftware).toBeGreaterThan(0);
    expect(ps.completed).toBe(Math.ceil(3000 / 64) + Math.ceil(1111 / 64));
    // Bounded memory: nothing pending once every worker has its results.
    expect(job.ps.pendingSequences).toBe(0);
    // Bounded time: how many timers fired (resend sweeps), per packet of the job.
    expect(time.fired).toBeGreaterThan(0);
  });
});
