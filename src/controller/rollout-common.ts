/**
 * Pieces every rollout rule uses: the job's workers grouped by rack, the
 * plans that need no switch state (ring AllReduce, parameter server,
 * OmniReduce's host aggregators), which double as the fallbacks of the INA
 * algorithms, and small helpers for wording reasons.
 */
import type { Algorithm } from './job.js';
import type { PlacedJob, PlacedWorker } from './job-placement.js';
import { compareNames } from './names.js';
import type { AggregationMember, RingMember, RolloutPlan, WorkerPlan } from './rollout-plan.js';
import { TopologyGraph } from './topology-graph.js';

export interface RackGroup {
  readonly rack: string;
  readonly tor: string;
  /** The ToR can aggregate. */
  readonly ina: boolean;
  /** The job's workers in this rack, by rank. */
  readonly workers: readonly PlacedWorker[];
}

/** The job's workers by rack, racks in natural order of their names. */
export function rackGroups(placed: PlacedJob): RackGroup[] {
  const groups = new Map<string, PlacedWorker[]>();
  for (const w of placed.workers) {
    const list = groups.get(w.rack) ?? [];
    list.push(w);
    groups.set(w.rack, list);
  }
  return [...groups.entries()]
    .map(([rack, workers]) => {
      const tor = workers[0]!.tor;
      return { rack, tor, ina: placed.topology.switches.get(tor)!.ina, workers };
    })
    .sort((x, y) => compareNames(x.rack, y.rack));
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** A switch's members: each worker with its bit and the switch's port towards it. */
export function membersAt(placed: PlacedJob, sw: string, workers: readonly PlacedWorker[], bit: (w: PlacedWorker, i: number) => number): AggregationMember[] {
  const graph = TopologyGraph.of(placed.topology);
  return workers.map((w, i) => ({ rank: w.rank, workerId: bit(w, i), host: w.host, port: graph.nextHop(sw, w.host)!.localPort }));
}

export function workerPlan(w: PlacedWorker, fields: Pick<WorkerPlan, 'role'> & Partial<WorkerPlan>): WorkerPlan {
  return { rank: w.rank, host: w.host, tor: w.tor, rack: w.rack, aggregationPoint: undefined, workerId: undefined, ringPosition: undefined, ...fields };
}

/** Ring AllReduce of every worker by rank: no switch state. */
export function ringPlan(placed: PlacedJob, requested: Algorithm, reasons: readonly string[]): RolloutPlan {
  const ring: RingMember[] = placed.workers.map((w, position) => ({ position, kind: 'worker', agentRank: w.rank, ranks: [w.rank], rack: w.rack }));
  return {
    jobId: placed.job.id,
    requested,
    runs: 'ring',
    inNetwork: 'none',
    aggregationPoints: [],
    workers: placed.workers.map((w, position) => workerPlan(w, { role: 'ring-member', ringPosition: position })),
    ring,
    expectedRingLength: ring.length,
    parameterServer: undefined,
    atp: undefined,
    reasons: [...reasons, `ring AllReduce among ${plural(ring.length, 'worker')} in rank order, with no switch state`],
  };
}

/** Every worker sends to the parameter server: no switch state. */
export function parameterServerPlan(placed: PlacedJob, requested: Algorithm, reasons: readonly string[]): RolloutPlan {
  const ps = placed.parameterServer!;
  return {
    jobId: placed.job.id,
    requested,
    runs: 'ps',
    inNetwork: 'none',
    aggregationPoints: [],
    workers: placed.workers.map((w) => workerPlan(w, { role: 'to-host-aggregator' })),
    ring: undefined,
    expectedRingLength: undefined,
    parameterServer: ps,
    atp: undefined,
    reasons: [...reasons, `${plural(placed.workers.length, 'worker')} send to the parameter server on ${ps.host}, with no switch state`],
  };
}

/** What an INA algorithm runs when it can use no switch: the job's fallback baseline. */
export function fallbackPlan(placed: PlacedJob, reasons: readonly string[]): RolloutPlan {
  const requested = placed.job.algorithm;
  const why = [...reasons, `no switch can aggregate for ${requested}: falling back to ${placed.job.fallback === 'ps' ? 'a parameter server' : 'ring AllReduce'}`];
  return placed.job.fallback === 'ps' ? parameterServerPlan(placed, requested, why) : ringPlan(placed, requested, why);
}
