/**
 * The controller step of a testbed, run from the root namespace against the
 * switches' P4Runtime ports: connect to every programmable switch of a
 * topology file (pushing its pipeline unless the cookie matches), install
 * forwarding, set up each job; or tear the jobs down again. Built on the
 * Installer (src/controller/install); it decides nothing of its own.
 */
import { compilePipeline } from '../p4c/index.js';
import { pino, type Logger } from 'pino';
import {
  atpAgentConfigs,
  atpPsArgs,
  atpWorkerArgs,
  loadJobSpec,
  loadTopology,
  omniReduceAgentCommands,
  rinaWorkerCommands,
  type JobSpec,
  type OmniReduceAgentCommands,
  type RinaWorkerCommand,
  type Topology,
} from '../controller/index.js';
import { Installer, type ForwardingReport } from '../controller/install/index.js';

export interface ControllerStepOptions {
  readonly topologyPath: string;
  readonly jobPaths: readonly string[];
  readonly electionId?: bigint;
  readonly rpcTimeoutMs?: number;
  /** Log level of the controller's lines on stderr (default warn). */
  readonly logLevel?: string;
}

export interface AppliedJob {
  readonly id: number;
  readonly algorithm: string;
  /** What runs: the algorithm, or its fallback when no switch can aggregate. */
  readonly runs: string;
  readonly inNetwork: string;
  /** Each aggregating switch with the address workers send to. */
  readonly aggregation: readonly { switch: string; ip: string | undefined; scope: string }[];
  readonly reasons: readonly string[];
  /** ATP jobs: the levels, and each agent's `p4ina agent atp-worker|atp-ps` arguments from the plan. */
  readonly atp?: AppliedAtp;
  /** Rina jobs (also with no INA rack: then a plain ring): each worker's `p4ina agent rina-worker` arguments from the plan. */
  readonly rina?: { readonly workers: readonly RinaWorkerCommand[] };
  /**
   * OmniReduce jobs whose plan runs OmniReduce (not a fallback): where it aggregates, the block
   * size and slots, each worker's `p4ina agent omnireduce-worker` and each host shard's
   * `omnireduce-aggregator` arguments (no shards when the switch aggregates).
   */
  readonly omnireduce?: AppliedOmniReduce;
}

export interface AppliedOmniReduce extends OmniReduceAgentCommands {
  readonly aggregator: 'hosts' | 'switch';
  readonly blockSize: number;
  readonly slots: number;
}

export interface AppliedAtp {
  readonly level0: readonly string[];
  readonly level1: string | undefined;
  readonly fanIn1: number;
  readonly workers: readonly { readonly rank: number; readonly host: string; readonly args: readonly string[] }[];
  readonly ps: { readonly host: string; readonly args: readonly string[] };
}

function appliedAtp(spec: JobSpec, plan: ReturnType<Installer['planFor']>): AppliedAtp | undefined {
  if (!plan.atp) return undefined;
  const { workers, ps } = atpAgentConfigs(spec, plan);
  return {
    level0: plan.atp.level0.map((l) => l.switch),
    level1: plan.atp.level1,
    fanIn1: plan.atp.fanIn1,
    workers: workers.map((w) => ({ rank: w.rank, host: w.host, args: atpWorkerArgs(w) })),
    ps: { host: ps.host, args: atpPsArgs(ps) },
  };
}

function appliedOmniReduce(spec: JobSpec, plan: ReturnType<Installer['planFor']>, topology: Topology): AppliedOmniReduce | undefined {
  if (plan.runs !== 'omnireduce' || !plan.omnireduce) return undefined;
  const { aggregator, blockSize, slots } = plan.omnireduce;
  return { aggregator, blockSize, slots, ...omniReduceAgentCommands(spec, plan, topology) };
}

export interface ControllerReport {
  readonly switches: readonly string[];
  readonly forwarding: readonly ForwardingReport[];
  readonly jobs: readonly AppliedJob[];
  /** Job ids written by this run, and job ids found already in place. */
  readonly installed: readonly number[];
  readonly unchanged: readonly number[];
  readonly pipelinePushes: number;
  readonly writes: number;
}

/** Controller logs go to stderr: stdout carries the report (a table or --json). */
export function stderrLogger(level = 'warn'): Logger {
  return pino({ level, base: { module: 'controller' } }, pino.destination(2));
}

async function load(options: ControllerStepOptions): Promise<{ topology: Topology; jobs: JobSpec[] }> {
  const topology = await loadTopology(options.topologyPath);
  const jobs: JobSpec[] = [];
  for (const p of options.jobPaths) jobs.push(await loadJobSpec(p));
  return { topology, jobs };
}

async function connect(topology: Topology, options: ControllerStepOptions): Promise<Installer> {
  return Installer.connect(topology, {
    electionId: options.electionId ?? 1n,
    rpcTimeoutMs: options.rpcTimeoutMs ?? 30_000,
    logger: stderrLogger(options.logLevel),
    programs: { compiler: compilePipeline },
  });
}

function describe(topology: Topology, installer: Installer, spec: JobSpec): AppliedJob {
  const plan = installer.planFor(spec);
  const omnireduce = appliedOmniReduce(spec, plan, topology);
  return {
    id: spec.id,
    algorithm: spec.algorithm,
    runs: plan.runs,
    inNetwork: plan.inNetwork,
    aggregation: plan.aggregationPoints.map((p) => ({ switch: p.switch, ip: topology.switches.get(p.switch)?.ipText, scope: p.scope })),
    reasons: plan.reasons,
    ...(plan.atp ? { atp: appliedAtp(spec, plan) } : {}),
    ...(spec.algorithm === 'rina' && plan.ring ? { rina: { workers: rinaWorkerCommands(spec, plan, topology) } } : {}),
    ...(omnireduce ? { omnireduce } : {}),
  };
}

/**
 * Forwarding on every switch, then the jobs, idempotently: reconcile reads
 * the switches first, so running apply again (or after a controller restart)
 * adopts what is there and writes only what is missing.
 */
export async function applyController(options: ControllerStepOptions): Promise<ControllerReport> {
  const { topology, jobs } = await load(options);
  const installer = await connect(topology, options);
  try {
    const result = await installer.reconcile(jobs);
    const counters = installer.counters();
    return {
      switches: [...installer.sessions.keys()],
      forwarding: result.forwarding,
      jobs: jobs.map((spec) => describe(topology, installer, spec)),
      installed: [...result.installed, ...result.reinstalled, ...result.replaced].sort((a, b) => a - b),
      unchanged: [...result.unchanged],
      pipelinePushes: counters.pipelinePushes,
      writes: counters.writes,
    };
  } finally {
    await installer.close();
  }
}

/** Removes the jobs' entries (read back from the switches first, as after a controller restart). */
export async function teardownController(options: ControllerStepOptions): Promise<ControllerReport> {
  const { topology, jobs } = await load(options);
  const installer = await connect(topology, options);
  try {
    const withSwitchState = jobs.filter((spec) => installer.planFor(spec).aggregationPoints.length > 0);
    const reconciled = await installer.reconcile(withSwitchState);
    for (const spec of withSwitchState) await installer.teardownJob(spec.id);
    const counters = installer.counters();
    return {
      switches: [...installer.sessions.keys()],
      forwarding: reconciled.forwarding,
      jobs: jobs.map((spec) => describe(topology, installer, spec)),
      installed: [],
      unchanged: [],
      pipelinePushes: counters.pipelinePushes,
      writes: counters.writes,
    };
  } finally {
    await installer.close();
  }
}
