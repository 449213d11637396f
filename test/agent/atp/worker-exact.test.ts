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

/** One rack under one aggregating ToR, the core aggregating too (it then has one contributor). */
function oneRack(jobId: number, n: number): AtpJobSpec {
  return { jobId, racks: [{ tor: 0, workers: n, aggregating: true }], coreAggregates: true };
}

function expectExact(results: readonly Float32Array[], tensors: readonly Float32Array[], perPacket = 64, valueRange = 213): void {
  for (const r of results) expect(sameBits(r, results[0]!)).toBe(true);
  const check = checkAtp(results[0]!, tensors, perPacket, valueRange);
  expect(check).toMatchObject({ inexact: 0, boundViolations: 0 });
}

describe('ATP workers and PS over reference switches, no impairments', () => {
  test.each([1, 2, 4, 8])('n = %i workers in one aggregating rack, 1000 elements: exact and bit-identical', async (n) => {
    const net = new AtpMemoryNetwork({ racks: 1 });
    const time = new VirtualTime();
    const job = startJob(net.addJob(oneRack(5, n)), time);
    running.push(job);
    const tensors = atpTensors(n, 1000, `atp-${n}`);
    const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
    expectExact(outcome!.results, tensors);
    const stats = outcome!.stats[0]!;
    expect(stats).toMatchObject({ algorithm: 'atp', packets: 16, bytes: 4000, retransmissions: 0, overflowPackets: 0, duplicateAcks: 0 });
    // The ToR summed every packet; the PS only forwarded the switch's sums.
    expect(net.tors[0]!.counters.completed).toBe(16);
    expect(job.ps.stats).toMatchObject({ completed: 16, completedByOnePiece: 16, completedInSoftware: 0 });
    expect(net.tors[0]!.owned + net.core.owned).toBe(0);
  });

  test('odd tensor sizes (0, 1, 63, 64, 65, 777) in successive calls; sequence numbers run on', async () => {
    const net = new AtpMemoryNetwork({ racks: 2 });
    const time = new VirtualTime();
    const job = startJob(
      net.addJob({ jobId: 9, racks: [{ tor: 0, workers: 2, aggregating: true }, { tor: 1, workers: 1, aggregating: true }], coreAggregates: true }),
      time,
      { maxWindow: 8 },
    );
    running.push(job);
    let sequence = 0;
    for (const length of [0, 1, 63, 64, 65, 777]) {
      const tensors = atpTensors(3, length, `odd-${length}`);
      const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
      expectExact(outcome!.results, tensors);
      expect(outcome!.stats[0]).toMatchObject({ packets: Math.ceil(length / 64), firstSequence: sequence });
      sequence += Math.ceil(length / 64);
    }
    expect(net.core.counters.completed).toBe(sequence);
  });

  test('values past the fixed-point range go as float32 with overflow; the PS sums them exactly', async () => {
    const net = new AtpMemoryNetwork({ racks: 2 });
    const time = new VirtualTime();
    const job = startJob(
      net.addJob({ jobId: 3, racks: [{ tor: 0, workers: 2, aggregating: true }, { tor: 1, workers: 2, aggregating: true }], coreAggregates: true }),
      time,
    );
    running.push(job);
    const tensors = atpTensors(4, 640, 'overflow');
    // Packet 2: one worker holds 1e6 (past the range of 213); packet 5: every worker holds huge values;
    // packet 7: a value just past the range on one worker, the others in range.
    tensors[1]![150] = 1e6;
    for (let r = 0; r < 4; r++) for (let i = 320; i < 384; i++) tensors[r]![i] = (r % 2 ? -1 : 1) * 3e30 * (i - 319);
    tensors[3]![450] = -214;
    const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
    expectExact(outcome!.results, tensors);
    const overflowed = outcome!.stats.reduce((n, s) => n + s.overflowPackets, 0);
    expect(overflowed).toBe(1 + 4 + 1);
    expect(outcome!.stats[0]!.floatResults).toBe(3);
    expect(job.ps.stats.overflowPieces).toBe(6);
    expect(job.ps.stats.floatResults).toBe(3);
  });

  test('workers of legacy racks only, no switch aggregating: the PS does it all, exactly', async () => {
    const net = new AtpMemoryNetwork({ racks: 2 });
    const time = new VirtualTime();
    const job = startJob(
      net.addJob({ jobId: 4, racks: [{ tor: 0, workers: 3, aggregating: false }, { tor: 1, workers: 2, aggregating: false }], coreAggregates: false }),
      time,
    );
    running.push(job);
    const tensors = atpTensors(5, 1234, 'no-switch');
    const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
    expectExact(outcome!.results, tensors);
    const packets = Math.ceil(1234 / 64);
    expect(job.ps.stats).toMatchObject({ completed: packets, completedInSoftware: packets, piecesSummed: 5 * packets, aggregatePieces: 0 });
    expect(net.tors[0]!.counters.passedThrough + net.tors[1]!.counters.passedThrough).toBe(5 * packets * 2);
  });
});
