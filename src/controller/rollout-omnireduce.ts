/**
 * OmniReduce's rule. With `"aggregator": "hosts"` (the paper's design) the
 * job's host aggregator shards aggregate, with no switch state. With
 * `"aggregator": "switch"` one switch running p4/omnireduce.p4 aggregates
 * the whole job, chosen as SwitchML's switch is (rollout-switchml.ts); where
 * no switch can, the shards take over if the spec lists any, else the job's
 * fallback runs. The plan carries the block layout the agents need.
 */
import { OMNIREDUCE_SWITCH_MAX_WORKERS } from './install/omnireduce-entries.js';
import type { PlacedJob } from './job-placement.js';
import { fallbackPlan, listNames, plural, workerPlan } from './rollout-common.js';
import type { OmniReducePlan, RolloutPlan } from './rollout-plan.js';
import { planOneSwitch, type AncestorRule } from './rollout-switchml.js';

function layout(placed: PlacedJob): Omit<OmniReducePlan, 'aggregator' | 'shards'> {
  const { job } = placed;
  return { blockSize: job.elementsPerPacket, slots: job.poolSize, zeroThreshold: job.omnireduce?.zeroThreshold ?? 0 };
}

/** Every worker sends to the shards: no switch state. */
function onHosts(placed: PlacedJob, reasons: readonly string[]): RolloutPlan {
  const { shards } = placed;
  if (shards.length === 0) return fallbackPlan(placed, [...reasons, 'the job lists no host aggregators to fall back on']);
  const where = shards.length === 1 ? `the OmniReduce aggregator on ${shards[0]!.host}` : `${shards.length} OmniReduce aggregator shards on ${listNames(shards.map((s) => s.host))}`;
  return {
    jobId: placed.job.id,
    requested: 'omnireduce',
    runs: 'omnireduce',
    inNetwork: 'none',
    aggregationPoints: [],
    workers: placed.workers.map((w) => workerPlan(w, { role: 'to-host-aggregator' })),
    ring: undefined,
    expectedRingLength: undefined,
    parameterServer: shards.length === 1 ? shards[0] : undefined,
    atp: undefined,
    omnireduce: { aggregator: 'hosts', ...layout(placed), shards },
    reasons: [...reasons, `${plural(placed.workers.length, 'worker')} send to ${where}, with no switch state`],
  };
}

/** `capable`: whether an INA-capable switch runs omnireduce.p4 (the installer reads it from the P4Info). */
export function planOmniReduce(placed: PlacedJob, ancestorRule: AncestorRule, capable?: (sw: string) => boolean): RolloutPlan {
  if (placed.job.omnireduce?.aggregator !== 'switch') return onHosts(placed, ['OmniReduce aggregates on hosts, as in the paper']);
  const plan = planOneSwitch(placed, {
    algorithm: 'omnireduce',
    maxWorkers: OMNIREDUCE_SWITCH_MAX_WORKERS,
    ancestorRule,
    ...(capable ? { capable } : {}),
    noSwitch: (reasons) => onHosts(placed, reasons),
  });
  return plan.aggregationPoints.length > 0 ? { ...plan, omnireduce: { aggregator: 'switch', ...layout(placed), shards: [] } } : plan;
}
