/**
 * From an OmniReduce plan to its agents' arguments: each worker's
 * `p4ina agent omnireduce-worker` (its own address, rank, the aggregators
 * with their slot ranges, block size and zero threshold) and each host shard's
 * `p4ina agent omnireduce-aggregator` (where it listens, the workers in rank
 * order, its slots, the block size). With the switch variant the one
 * aggregator is the switch's own address on the OmniReduce port block, where
 * omnireduce.p4 recognises messages for itself. Testbeds and the demo add
 * only what they decide (transport, timing, tensor, output). Like
 * rina-agents.ts, the controller does not import the agents.
 */
import { ipv4ToText, OMNIREDUCE_PORTS } from '../wire/index.js';
import type { JobSpec } from './job.js';
import type { RolloutPlan } from './rollout-plan.js';
import type { Topology } from './topology.js';

export interface OmniReduceAgentCommand {
  readonly host: string;
  /** Arguments after `p4ina agent omnireduce-worker` (or `omnireduce-aggregator`). */
  readonly args: readonly string[];
}

export interface OmniReduceAgentCommands {
  /** By rank. */
  readonly workers: readonly (OmniReduceAgentCommand & { readonly rank: number })[];
  /** The host shards to start first; empty with the switch variant. */
  readonly aggregators: readonly (OmniReduceAgentCommand & { readonly firstSlot: number; readonly slotCount: number })[];
}

/** The agents of a plan that runs OmniReduce; throws for any other plan (a fallback runs other agents). */
export function omniReduceAgentCommands(spec: JobSpec, plan: RolloutPlan, topology: Topology): OmniReduceAgentCommands {
  const layout = plan.omnireduce;
  if (plan.runs !== 'omnireduce' || !layout) throw new Error(`job ${spec.id}'s plan runs ${plan.runs}, not OmniReduce`);
  const workers = [...spec.workers].sort((a, b) => a.rank - b.rank).map((w) => {
    const placed = plan.workers.find((p) => p.rank === w.rank);
    const host = placed && topology.hosts.get(placed.host);
    if (!placed || !host) throw new Error(`rank ${w.rank} of job ${spec.id} is not a planned worker on a topology host`);
    return { rank: w.rank, host: placed.host, address: `${ipv4ToText(host.ip)}:${w.udpPort}` };
  });
  let shards: { address: string; host: string; firstSlot: number; slotCount: number }[];
  if (layout.aggregator === 'switch') {
    const point = plan.aggregationPoints[0];
    const ip = point === undefined ? undefined : topology.switches.get(point.switch)?.ip;
    if (point === undefined || ip === undefined) throw new Error(`job ${spec.id} aggregates in a switch that has no address in the topology`);
    shards = [{ address: `${ipv4ToText(ip)}:${OMNIREDUCE_PORTS.first}`, host: point.switch, firstSlot: 0, slotCount: layout.slots }];
  } else {
    shards = layout.shards.map((s) => ({ address: `${ipv4ToText(s.ip)}:${s.udpPort}`, host: s.host, firstSlot: s.firstSlot, slotCount: s.slotCount }));
  }
  const block = ['--block-size', String(layout.blockSize)];
  const aggregatorArgs = shards.flatMap((s) => ['--aggregator', `${s.address}@${s.firstSlot}+${s.slotCount}`]);
  return {
    workers: workers.map((w) => ({
      rank: w.rank,
      host: w.host,
      args: ['--local', w.address, '--rank', String(w.rank), '--workers', String(workers.length), ...aggregatorArgs, ...block, '--zero-threshold', String(layout.zeroThreshold)],
    })),
    aggregators:
      layout.aggregator === 'switch'
        ? []
        : shards.map((s) => ({
            host: s.host,
            firstSlot: s.firstSlot,
            slotCount: s.slotCount,
            args: ['--listen', s.address, '--workers', workers.map((w) => w.address).join(','), '--first-slot', String(s.firstSlot), '--slots', String(s.slotCount), ...block],
          })),
  };
}
