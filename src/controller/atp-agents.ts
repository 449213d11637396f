/**
 * From an ATP plan to what each agent needs (src/agent/atp): every worker's
 * bits, fan-ins and job constants, and the parameter server's contributors
 * in `bitmap1` order (a level-0 rack lists its workers in `bitmap0` order;
 * its ACK goes to the first, which the ToR multicasts). Field names are the
 * agents' own (AtpWorkerMainOptions, AtpWorkerOptions, AtpPsMainOptions), so
 * a config spreads into them; the controller does not import the agents, and
 * a test checks that they fit. `atpWorkerArgs` and `atpPsArgs` give the
 * same as `p4ina agent atp-worker|atp-ps` arguments, for testbeds.
 */
import { ipv4ToText } from '../wire/index.js';
import type { JobSpec } from './job.js';
import type { RolloutPlan } from './rollout-plan.js';

export interface AtpAgentEndpoint {
  readonly address: string;
  readonly port: number;
}

/** The constants every worker and the PS of a job share. */
interface AtpJobConstants {
  readonly jobId: number;
  /** Aggregators of the shared pool the job hashes over, from `poolBase`. */
  readonly poolSize: number;
  readonly poolBase: number;
  readonly elementsPerPacket: number;
  /** Window positions W. */
  readonly maxWindow: number;
  readonly valueRange: number;
}

export interface AtpWorkerConfig extends AtpJobConstants {
  readonly rank: number;
  readonly worldSize: number;
  /** The topology host it runs on. */
  readonly host: string;
  readonly localAddress: string;
  readonly localPort: number;
  readonly psAddress: string;
  readonly psPort: number;
  readonly bitmap0Bit: number | undefined;
  readonly bitmap1Bit: number;
  readonly fanIn0: number;
  readonly fanIn1: number;
  readonly initialWindow: number | undefined;
  readonly timeoutMs: number;
  readonly backoff: { readonly factor: number; readonly minTimeoutMs: number; readonly maxTimeoutMs: number };
  readonly maxRetries: number;
}

/** One `--rack` of the PS: a level-0 rack (aggregating) or one worker whose ToR does not aggregate. */
export interface AtpPsRack {
  readonly aggregating: boolean;
  readonly workers: readonly AtpAgentEndpoint[];
}

export interface AtpPsConfig extends AtpJobConstants {
  readonly host: string;
  readonly listenAddress: string;
  readonly listenPort: number;
  /** In `bitmap1` order. */
  readonly racks: readonly AtpPsRack[];
}

export interface AtpAgentConfigs {
  /** By rank. */
  readonly workers: readonly AtpWorkerConfig[];
  readonly ps: AtpPsConfig;
}

/** The agents' configurations of an ATP plan (a plan of another algorithm is a TypeError: a misuse). */
export function atpAgentConfigs(spec: JobSpec, plan: RolloutPlan): AtpAgentConfigs {
  const atp = plan.atp;
  const ps = plan.parameterServer;
  if (!atp || !ps || !spec.atp || plan.jobId !== spec.id) throw new TypeError(`job ${spec.id}: atpAgentConfigs takes an ATP job and its own ATP plan`);
  const constants: AtpJobConstants = { jobId: spec.id, poolSize: spec.poolSize, poolBase: spec.atp.poolBase, elementsPerPacket: spec.elementsPerPacket, maxWindow: spec.atp.window, valueRange: spec.atp.valueRange };
  const t = spec.timeouts;
  const psAddress = ipv4ToText(ps.ip);
  const workers = atp.workers.map(
    (w): AtpWorkerConfig => ({
      ...constants,
      rank: w.rank,
      worldSize: atp.workers.length,
      host: w.host,
      localAddress: ipv4ToText(w.ip),
      localPort: w.udpPort,
      psAddress,
      psPort: ps.udpPort,
      bitmap0Bit: w.bitmap0Bit,
      bitmap1Bit: w.bitmap1Bit,
      fanIn0: w.fanIn0,
      fanIn1: w.fanIn1,
      initialWindow: spec.atp!.initialWindow,
      timeoutMs: t.timeoutMs,
      backoff: { factor: t.backoffFactor, minTimeoutMs: t.minTimeoutMs, maxTimeoutMs: t.maxTimeoutMs },
      maxRetries: t.maxRetries,
    }),
  );
  const endpoint = (rank: number): AtpAgentEndpoint => ({ address: workers[rank]!.localAddress, port: workers[rank]!.localPort });
  const racks = atp.contributors.map((c): AtpPsRack => ({ aggregating: c.kind === 'rack', workers: c.ranks.map(endpoint) }));
  return { workers, ps: { ...constants, host: ps.host, listenAddress: psAddress, listenPort: ps.udpPort, racks } };
}

function constantArgs(c: AtpJobConstants): string[] {
  const args = ['--job', String(c.jobId), '--pool', String(c.poolSize), '--elements', String(c.elementsPerPacket), '--window', String(c.maxWindow), '--range', String(c.valueRange)];
  if (c.poolBase !== 0) args.push('--pool-base', String(c.poolBase));
  return args;
}

/** `p4ina agent atp-worker` arguments (the tensor, seed and output options are the caller's). */
export function atpWorkerArgs(c: AtpWorkerConfig): string[] {
  const args = ['--local', `${c.localAddress}:${c.localPort}`, '--ps', `${c.psAddress}:${c.psPort}`, ...constantArgs(c), '--rank', String(c.rank), '--workers', String(c.worldSize)];
  args.push('--bitmap1-bit', String(c.bitmap1Bit), '--fan-in1', String(c.fanIn1));
  if (c.bitmap0Bit !== undefined) args.push('--bitmap0-bit', String(c.bitmap0Bit), '--fan-in0', String(c.fanIn0));
  if (c.initialWindow !== undefined) args.push('--initial-window', String(c.initialWindow));
  // The command line takes whole milliseconds.
  args.push('--timeout', String(Math.ceil(c.timeoutMs)), '--max-retries', String(c.maxRetries));
  return args;
}

/** `p4ina agent atp-ps` arguments (--stop-after, --linger and --json are the caller's). */
export function atpPsArgs(c: AtpPsConfig): string[] {
  const racks = c.racks.flatMap((r) => ['--rack', `${r.aggregating ? 'ina' : 'legacy'}:${r.workers.map((w) => `${w.address}:${w.port}`).join(',')}`]);
  return ['--listen', `${c.listenAddress}:${c.listenPort}`, ...constantArgs(c), ...racks];
}
