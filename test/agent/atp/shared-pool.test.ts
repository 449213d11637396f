import { afterEach, describe, expect, test } from 'vitest';
import { sameBits } from '../../../src/agent/baseline/accuracy.js';
import { AtpMemoryNetwork } from './helpers/atp-network.js';
import { atpTensors, checkAtp } from './helpers/numbers.js';
import { allreduceJobs, closeJobs, startJob, type RunningJob } from './helpers/run-virtual.js';
import { VirtualTime } from './helpers/virtual-time.js';

const running: RunningJob[] = [];
afterEach(async () => {
  await closeJobs(running.splice(0));
});

describe('three jobs on one pool too small for them', () => {
  test.each([
    ['clean links', undefined],
    ['5% loss, duplication and reordering', { loss: 0.05, duplicate: 0.05, reorder: 0.05 }],
  ] as const)('%s: every job exact, the PS did the fallback work, no job stalls', async (_, impair) => {
    // 8 aggregators in each switch; each job keeps up to 16 packets out: collisions are certain.
    const net = new AtpMemoryNetwork({ racks: 2, poolSize: 8, seed: 'three-jobs', impair });
    const time = new VirtualTime();
    const jobs = [31, 32, 33].map((jobId) =>
      startJob(
        net.addJob({
          jobId,
          racks: [
            { tor: 0, workers: 2, aggregating: true },
            { tor: 1, workers: 2, aggregating: true },
          ],
          coreAggregates: true,
        }),
        time,
        { maxWindow: 16, worker: { initialWindow: 16 } },
        8,
      ),
    );
    running.push(...jobs);
    const tensors = jobs.map((_, j) => atpTensors(4, 2048, `job-${j}`));
    const outcomes = await allreduceJobs(net, time, jobs, tensors);
    outcomes.forEach((outcome, j) => {
      for (const r of outcome.results) expect(sameBits(r, outcome.results[0]!)).toBe(true);
      expect(checkAtp(outcome.results[0]!, tensors[j]!, 64)).toMatchObject({ inexact: 0, boundViolations: 0 });
    });
    const switchCollisions = net.tors[0]!.counters.collisions + net.tors[1]!.counters.collisions + net.core.counters.collisions;
    expect(switchCollisions).toBeGreaterThan(0);
    for (const job of jobs) {
      const ps = job.ps.stats;
      expect(ps.completed).toBe(32);
      // Fallback work: collided packets reached the PS, which summed pieces and moved positions elsewhere.
      expect(ps.collisionPieces).toBeGreaterThan(0);
      expect(ps.completedInSoftware).toBeGreaterThan(0);
      expect(ps.aggregatorMoves).toBeGreaterThan(0);
    }
    // Every switch aggregated something too: sharing, not only fallback.
    expect(jobs.some((j) => j.ps.stats.completedByOnePiece > 0)).toBe(true);
  });
});
