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

const SPEC: AtpJobSpec = {
  jobId: 51,
  racks: [
    { tor: 0, workers: 2, aggregating: true },
    { tor: 1, workers: 2, aggregating: true },
  ],
  coreAggregates: true,
};

async function run(marking: ((switchName: string) => boolean) | undefined) {
  const net = new AtpMemoryNetwork({ racks: 2, ecn: marking && ((name) => marking(name)) });
  const time = new VirtualTime();
  const job = startJob(net.addJob(SPEC), time, { maxWindow: 32, worker: { initialWindow: 16 } });
  running.push(job);
  const tensors = atpTensors(4, 64 * 400, 'ecn');
  const [outcome] = await allreduceJobs(net, time, [job], [tensors]);
  for (const r of outcome!.results) expect(sameBits(r, outcome!.results[0]!)).toBe(true);
  expect(checkAtp(outcome!.results[0]!, tensors, 64)).toMatchObject({ inexact: 0, boundViolations: 0 });
  return outcome!.stats;
}

describe('ECN drives the workers’ windows (AIMD)', () => {
  test('without marks the window grows from 16 towards the 32 positions and never halves', async () => {
    const stats = await run(undefined);
    for (const s of stats) {
      expect(s).toMatchObject({ ecnMarks: 0, windowHalvings: 0 });
      expect(s.windowMax).toBeGreaterThan(16);
      expect(s.windowMin).toBe(16);
    }
  });

  test('marks on the core’s link to the PS come back in the ACKs and halve every worker’s window', async () => {
    // A congested egress: the core marks everything it sends to the PS for its first 100 packets.
    let marked = 0;
    const stats = await run((name) => name === 'core' && marked++ < 100);
    for (const s of stats) {
      expect(s.ecnMarks).toBeGreaterThan(0);
      expect(s.windowHalvings).toBeGreaterThanOrEqual(2);
      // Halved once per window of marked ACKs, not once per mark: far fewer halvings than marks.
      expect(s.windowHalvings).toBeLessThan(s.ecnMarks);
      expect(s.windowMin).toBeLessThan(16);
    }
  });

  test('marks at a ToR are ORed into the aggregate and reach the workers of both racks', async () => {
    let marked = 0;
    const stats = await run((name) => name === 'tor0' && marked++ < 50);
    for (const s of stats) {
      expect(s.ecnMarks).toBeGreaterThan(0);
      expect(s.windowMin).toBeLessThan(16);
    }
  });
});
