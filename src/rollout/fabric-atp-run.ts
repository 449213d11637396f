/**
 * One ATP run on the loopback fabric: the controller plans the job for the
 * stage (level 0 at the INA ToRs, the parameter server for the rest) and
 * installs it, the PS starts on its own host's wire, then one
 * `p4ina agent atp-worker --transport wire` per worker host; the job is torn
 * down again so the next run starts from clean switches.
 */
import { atpAgentConfigs, atpPsArgs, atpWorkerArgs, defineJob, type JobSpec } from '../controller/index.js';
import { JSON_LISTENING, startAnnouncedChild } from '../demo/announced-child.js';
import type { ChildGroup, TrackedChild } from '../demo/child-group.js';
import { DemoError, DEMO_ERROR_CODES } from '../demo/demo-error.js';
import { runWorkers } from '../demo/worker-runs.js';
import type { LoopbackFabric } from '../fabric/index.js';
import { ATP_PORTS } from '../wire/index.js';
import type { RunOutcome } from './rollout-cells.js';
import { runOutcome } from './worker-outcomes.js';

/** The seeded tensors' magnitude bound (seeded-tensor.ts: (−1, 1) × 2^k, k ≤ 8): ATP's fixed-point range. */
const VALUE_RANGE = 256;
const PS_START_TIMEOUT_MS = 30_000;
const PS_STOP_GRACE_MS = 5_000;
export const ROLLOUT_ATP_JOB_ID = 1;

export interface FabricRun {
  readonly fabric: LoopbackFabric;
  readonly group: ChildGroup;
  readonly cliEntry: string;
  /** Worker hosts by rank, and the parameter server's host. */
  readonly workers: readonly string[];
  readonly psHost: string;
  readonly elements: number;
  readonly seed: number | string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export function atpRolloutJob(workers: readonly string[], psHost: string): JobSpec {
  return defineJob({
    id: ROLLOUT_ATP_JOB_ID,
    name: 'rollout-atp',
    algorithm: 'atp',
    workers: workers.map((host, rank) => ({ rank, host, udpPort: ATP_PORTS.first + 1 })),
    parameterServer: { host: psHost, udpPort: ATP_PORTS.first },
    atp: { valueRange: VALUE_RANGE },
  });
}

export async function runAtpOnFabric(run: FabricRun): Promise<RunOutcome> {
  const spec = atpRolloutJob(run.workers, run.psHost);
  const installer = await run.fabric.controller();
  const plan = installer.planFor(spec);
  const installed = plan.aggregationPoints.length > 0;
  let server: TrackedChild | undefined;
  try {
    if (installed) await installer.setupJob(spec, plan);
    const configs = atpAgentConfigs(spec, plan);
    server = (
      await startAnnouncedChild(run.group, {
        name: 'rollout-atp-ps',
        command: process.execPath,
        args: [run.cliEntry, 'agent', 'atp-ps', ...atpPsArgs(configs.ps), ...run.fabric.wireArgs(run.psHost), '--json'],
        announcement: JSON_LISTENING,
        startTimeoutMs: PS_START_TIMEOUT_MS,
        signal: run.signal,
        what: "atp's parameter server",
        failed: (message) => new DemoError(DEMO_ERROR_CODES.worker, message),
      })
    ).child;
    const outcomes = await runWorkers(run.group, {
      label: 'rollout-atp',
      cliEntry: run.cliEntry,
      argvByRank: configs.workers.map((w) => [
        'atp-worker',
        ...atpWorkerArgs(w),
        ...run.fabric.wireArgs(w.host),
        '--length', String(run.elements),
        '--seed', String(run.seed),
        '--check',
        '--json',
      ]),
      timeoutMs: run.timeoutMs,
      signal: run.signal,
    });
    return runOutcome(plan.inNetwork === 'none' ? 'atp (PS only)' : `atp (${plan.inNetwork} INA)`, outcomes);
  } finally {
    if (server) await run.group.stop([server], PS_STOP_GRACE_MS);
    try {
      if (installed) await installer.teardownJob(spec.id);
    } finally {
      await installer.close();
    }
  }
}
