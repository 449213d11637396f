// poolBase: a job hashes over its own part of the switches' pool (a static
// split), and the PS moves collided positions only within that part.
import { afterEach, describe, expect, test } from 'vitest';
import { sameBits } from '../../../src/agent/baseline/accuracy.js';
import { parseAtpPsArgs } from '../../../src/agent/atp/ps-main.js';
import { resolveAtpPsJob } from '../../../src/agent/atp/ps-options.js';
import { parseAtpWorkerArgs } from '../../../src/agent/atp/worker-args.js';
import { socketAddress } from '../../../src/agent/transport/index.js';
import { AtpMemoryNetwork } from './helpers/atp-network.js';
import { atpTensors, checkAtp } from './helpers/numbers.js';
import { allreduceJobs, closeJobs, startJob, type RunningJob } from './helpers/run-virtual.js';
import { VirtualTime } from './helpers/virtual-time.js';

const running: RunningJob[] = [];
afterEach(async () => {
  await closeJobs(running.splice(0));
});

describe('poolBase: jobs on disjoint parts of one pool', () => {
  test('two jobs, 8 aggregators each of 16: both exact, every position stays in its job’s part', async () => {
    const net = new AtpMemoryNetwork({ racks: 1, poolSize: 16, seed: 'pool-base' });
    const time = new VirtualTime();
    const parts = [
      { jobId: 41, poolBase: 0 },
      { jobId: 42, poolBase: 8 },
    ];
    const jobs = parts.map(({ jobId, poolBase }) =>
      startJob(net.addJob({ jobId, racks: [{ tor: 0, workers: 2, aggregating: true }], coreAggregates: false }), time, {
        poolSize: 8,
        maxWindow: 16,
        worker: { initialWindow: 16, poolBase },
        ps: { poolBase },
      }),
    );
    running.push(...jobs);
    const tensors = jobs.map((_, j) => atpTensors(2, 4096, `pool-base-${j}`));
    const outcomes = await allreduceJobs(net, time, jobs, tensors);
    outcomes.forEach((outcome, j) => {
      for (const r of outcome.results) expect(sameBits(r, outcome.results[0]!)).toBe(true);
      expect(checkAtp(outcome.results[0]!, tensors[j]!, 64)).toMatchObject({ inexact: 0, boundViolations: 0 });
    });
    jobs.forEach((job, j) => {
      const base = parts[j]!.poolBase;
      // 16 positions on 8 aggregators collide, so the PS moved some; none left the part.
      expect(job.ps.stats.aggregatorMoves).toBeGreaterThan(0);
      for (const w of job.workers) for (const index of w.aggregators) expect(index >= base && index < base + 8).toBe(true);
    });
  });

  test('a part that runs past the largest pool is refused', () => {
    expect(() => resolveAtpPsJob({ jobId: 1, poolSize: 16, poolBase: 65_530, contributors: [{ aggregating: false, workers: [socketAddress('127.0.0.1', 1, 'test')] }] })).toThrow(/poolBase/);
  });

  test('--pool-base on atp-worker and atp-ps: default 0; a part past the largest pool is ATP_BAD_CONFIG', () => {
    const worker = ['--local', '10.0.1.2:48896', '--ps', '10.0.9.1', '--job', '4', '--rank', '0', '--workers', '2', '--pool', '1024', '--bitmap1-bit', '0', '--fan-in1', '2'];
    const ps = ['--listen', '127.0.0.1:0', '--job', '4', '--pool', '1024', '--rack', 'legacy:10.0.1.2:48896', '--rack', 'legacy:10.0.1.3:48896'];
    expect(parseAtpWorkerArgs(worker)?.poolBase).toBe(0);
    expect(parseAtpWorkerArgs([...worker, '--pool-base', '3072'])?.poolBase).toBe(3072);
    expect(parseAtpPsArgs(ps)?.poolBase).toBe(0);
    expect(parseAtpPsArgs([...ps, '--pool-base', '64512'])?.poolBase).toBe(64_512);
    const codeOf = (parse: () => unknown): string | undefined => {
      try {
        parse();
      } catch (err) {
        return (err as { code?: string }).code;
      }
      return undefined;
    };
    expect(codeOf(() => parseAtpWorkerArgs([...worker, '--pool-base', '64513']))).toBe('ATP_BAD_CONFIG');
    expect(codeOf(() => parseAtpPsArgs([...ps, '--pool-base', '64513']))).toBe('ATP_BAD_CONFIG');
  });
});
