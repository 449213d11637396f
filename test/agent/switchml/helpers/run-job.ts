/**
 * Runs one SwitchML job over the in-memory network: a worker per transport,
 * every worker's allreduce at once, then the workers closed (even on failure).
 */
import type { DatagramTransport } from '../../../../src/agent/transport/index.js';
import { SwitchMlWorker } from '../../../../src/agent/switchml/switchml-worker.js';
import type { SwitchMlWorkerOptions } from '../../../../src/agent/switchml/switchml-options.js';
import type { SwitchMlStats } from '../../../../src/agent/switchml/switchml-stats.js';

/** Fast timers for in-memory runs: a low floor for the adaptive timeout, a generous retry budget, still bounded. */
export const FAST_TIMING = {
  timeoutMs: 4,
  backoff: { factor: 2, minTimeoutMs: 2, maxTimeoutMs: 40 },
  maxRetries: 100,
} as const;

export type WorkerSettings = Omit<SwitchMlWorkerOptions, 'transport' | 'workerId' | 'numWorkers' | 'jobId'>;

export function makeWorkers(transports: readonly DatagramTransport[], jobId: number, workerIds: readonly number[], settings: WorkerSettings): SwitchMlWorker[] {
  return transports.map(
    (transport, i) => new SwitchMlWorker({ ...FAST_TIMING, ...settings, transport, jobId, workerId: workerIds[i]!, numWorkers: transports.length }),
  );
}

export interface JobOutcome {
  readonly results: Float32Array[];
  readonly stats: SwitchMlStats[];
}

/** One allreduce on every worker, tensors[i] for workers[i]. */
export async function allreduceAll(workers: readonly SwitchMlWorker[], tensors: readonly Float32Array[]): Promise<JobOutcome> {
  const outcomes = await Promise.all(workers.map((w, i) => w.allreduce(tensors[i]!)));
  return { results: outcomes.map((o) => o.result), stats: outcomes.map((o) => o.stats) };
}

/** Makes the workers, runs the calls in order, closes the workers. */
export async function runJob(
  transports: readonly DatagramTransport[],
  jobId: number,
  workerIds: readonly number[],
  calls: readonly (readonly Float32Array[])[],
  settings: WorkerSettings,
): Promise<JobOutcome[]> {
  const workers = makeWorkers(transports, jobId, workerIds, settings);
  try {
    const outcomes: JobOutcome[] = [];
    for (const tensors of calls) outcomes.push(await allreduceAll(workers, tensors));
    return outcomes;
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}
