/**
 * Runs ATP jobs on the in-memory fabric in virtual time: the event loop turns
 * until no packet is in flight, and only then does the clock move to the next
 * timer (a resend). So every timeout is a real stall, and each run is
 * bounded by a number of clock steps, not by a wall-clock wait.
 */
import { AtpWorker } from '../../../../src/agent/atp/atp-worker.js';
import type { AtpWorkerOptions } from '../../../../src/agent/atp/atp-options.js';
import type { AtpStats } from '../../../../src/agent/atp/atp-stats.js';
import { AtpParameterServer } from '../../../../src/agent/atp/parameter-server.js';
import type { AtpPsJob } from '../../../../src/agent/atp/ps-options.js';
import type { AtpMemoryNetwork, AtpNetJob } from './atp-network.js';
import { VirtualTime } from './virtual-time.js';
import { driveVirtual } from '../../helpers/drive-virtual.js';

/** Drives `work` to its end (drive-virtual.ts) and gives its value. */
export async function runVirtual<T>(net: AtpMemoryNetwork, time: VirtualTime, work: Promise<T>, maxSteps = 200_000): Promise<T> {
  return (await driveVirtual(net, time, work, maxSteps)).value;
}

/** Job constants the workers and the PS share, and worker settings. */
export interface JobSettings {
  readonly poolSize?: number;
  readonly elementsPerPacket?: number;
  readonly maxWindow?: number;
  readonly valueRange?: number;
  readonly worker?: Partial<Omit<AtpWorkerOptions, 'transport' | 'jobId' | 'rank' | 'worldSize' | 'clock' | 'timers'>>;
  readonly ps?: Partial<AtpPsJob>;
}

export interface RunningJob {
  readonly job: AtpNetJob;
  readonly workers: AtpWorker[];
  readonly ps: AtpParameterServer;
}

/** Fast but bounded resends for virtual time: the floor keeps the count of clock steps low. */
export const VIRTUAL_TIMING = { timeoutMs: 10, backoff: { factor: 2, minTimeoutMs: 10, maxTimeoutMs: 80 }, maxRetries: 60 } as const;

export function startJob(job: AtpNetJob, time: VirtualTime, settings: JobSettings = {}, poolSize = 256): RunningJob {
  const common = {
    poolSize: settings.poolSize ?? poolSize,
    elementsPerPacket: settings.elementsPerPacket,
    maxWindow: settings.maxWindow,
    valueRange: settings.valueRange,
  };
  const ps = new AtpParameterServer({ transport: job.ps, jobs: [{ ...common, ...settings.ps, jobId: job.jobId, contributors: job.contributors }] });
  const workers = job.workers.map(
    (transport, rank) =>
      new AtpWorker({
        ...VIRTUAL_TIMING,
        ...common,
        ...job.placements[rank]!,
        ...settings.worker,
        transport,
        jobId: job.jobId,
        rank,
        worldSize: job.worldSize,
        clock: time,
        timers: time,
      }),
  );
  return { job, workers, ps };
}

export interface CallOutcome {
  readonly results: Float32Array[];
  readonly stats: AtpStats[];
}

/** One allreduce on every worker of every job at once (tensors[j][rank]). */
export async function allreduceJobs(net: AtpMemoryNetwork, time: VirtualTime, jobs: readonly RunningJob[], tensors: readonly (readonly Float32Array[])[]): Promise<CallOutcome[]> {
  const all = Promise.all(
    jobs.map(async (j, i) => {
      const outcomes = await Promise.all(j.workers.map((w, rank) => w.allreduce(tensors[i]![rank]!)));
      return { results: outcomes.map((o) => o.result), stats: outcomes.map((o) => o.stats) };
    }),
  );
  return runVirtual(net, time, all);
}

export async function closeJobs(jobs: readonly RunningJob[]): Promise<void> {
  for (const j of jobs) {
    await Promise.all(j.workers.map((w) => w.close()));
    await j.ps.close();
  }
}
