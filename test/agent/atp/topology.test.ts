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

async function runOnce(spec: AtpJobSpec, racks: number, length = 2000) {
  const net = new AtpMemoryNetwork({ racks });
  const time = new VirtualTime();
  const job = startJob(net.addJob(spec), time);
  running.push(job);
  const tensors = atpTensors(job.job.worldSize, length, `topology-${spec.jobId}`);
  const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
  for (const r of outcome!.results) expect(sameBits(r, outcome!.results[0]!)).toBe(true);
  expect(checkAtp(outcome!.results[0]!, tensors, 64)).toMatchObject({ inexact: 0, boundViolations: 0 });
  return { net, job, outcome: outcome!, packets: Math.ceil(length / 64) };
}

describe('ATP where some switches aggregate and some do not', () => {
  test('mixed: one aggregating ToR, one legacy ToR, no level 1: exact; the PS adds the rack sum to the legacy workers', async () => {
    const { net, job, packets } = await runOnce(
      {
        jobId: 41,
        racks: [
          { tor: 0, workers: 3, aggregating: true },
          { tor: 1, workers: 2, aggregating: false },
        ],
        coreAggregates: false,
      },
      2,
    );
    expect(net.tors[0]!.counters.completed).toBe(packets);
    expect(net.tors[1]!.counters.aggregated).toBe(0);
    // Per packet: the rack's aggregate and the two legacy workers' own packets.
    expect(job.ps.stats).toMatchObject({ completed: packets, completedInSoftware: packets, piecesSummed: 3 * packets, aggregatePieces: packets, level1Aggregates: 0 });
    // One ACK per packet to the aggregating rack (multicast by its ToR), one per legacy worker.
    expect(job.ps.stats.acksSent).toBe(3 * packets);
    expect(net.tors[0]!.counters.acksMulticast).toBe(packets);
  });

  test('two levels: the ToRs and the core aggregate; the PS gets one level-1 aggregate per packet', async () => {
    const { net, job, packets } = await runOnce(
      {
        jobId: 42,
        racks: [
          { tor: 0, workers: 2, aggregating: true },
          { tor: 1, workers: 3, aggregating: true },
          { tor: 2, workers: 1, aggregating: false },
        ],
        coreAggregates: true,
      },
      3,
    );
    // Two window positions of the job may hash to one aggregator: such a packet collides and the PS
    // sums it. Every other packet was summed by both levels, and only the core's sum reached the PS.
    const ps = job.ps.stats;
    const collided = net.tors.reduce((n, t) => n + t.counters.collisions, net.core.counters.collisions);
    expect(ps.completed).toBe(packets);
    expect(ps.completedInSoftware).toBeLessThanOrEqual(collided);
    expect(net.core.counters.completed).toBe(ps.completedByOnePiece);
    expect(ps.completedByOnePiece).toBeGreaterThan(packets / 2);
    expect(ps.level1Aggregates).toBeGreaterThanOrEqual(ps.completedByOnePiece);
    expect(net.tors[0]!.counters.completed).toBeGreaterThanOrEqual(ps.completedByOnePiece);
    expect(net.tors.every((t) => t.owned === 0) && net.core.owned === 0).toBe(true);
  });

  test('level 1 only: legacy ToRs, the core aggregates every worker', async () => {
    const { net, job, packets } = await runOnce(
      {
        jobId: 43,
        racks: [
          { tor: 0, workers: 2, aggregating: false },
          { tor: 1, workers: 2, aggregating: false },
        ],
        coreAggregates: true,
      },
      2,
    );
    expect(net.core.counters.completed).toBe(packets);
    expect(job.ps.stats).toMatchObject({ completedByOnePiece: packets, level1Aggregates: packets });
  });
});
