/**
 * OmniReduce in the demo's network on paper: the job (one host aggregator on
 * one more switch port, as the paper's aggregators are hosts; or the switch
 * itself running omnireduce.p4), and the agents' argv from the controller's
 * plan (omniReduceAgentCommands) plus what only the demo knows: each agent's
 * UDP wire and the tensor. Pure.
 */
import { OMNIREDUCE_PORTS } from '../wire/index.js';
import { wireArgs } from './demo-atp.js';
import type { DemoHost, NetworkHost, WirePorts } from './demo-network.js';

export const OMNIREDUCE_DEMO_JOB_ID = 1;

/** The demo's two OmniReduce rows: host aggregators (the paper) and the switch variant. */
export type OmniReduceVariant = 'hosts' | 'switch';

/** The host aggregator: the port after the workers'. */
export function omniReduceAggregatorHost(workers: number): NetworkHost {
  return { name: 'agg', ip: '10.0.0.201', mac: '02:00:00:00:00:c9', switchPort: workers + 1 };
}

/** The job (defineJob input): `slots` slots of `block` elements, aggregated on `aggregator`'s host or in the switch. */
export function omniReduceJobInput(hosts: readonly DemoHost[], variant: OmniReduceVariant, layout: { slots: number; block: number }) {
  const aggregator = omniReduceAggregatorHost(hosts.length);
  return {
    id: OMNIREDUCE_DEMO_JOB_ID,
    name: `demo-omnireduce-${variant}`,
    algorithm: 'omnireduce' as const,
    workers: hosts.map((h) => ({ rank: h.rank, host: h.name, udpPort: h.udpPort })),
    poolSize: layout.slots,
    elementsPerPacket: layout.block,
    omnireduce: variant === 'switch' ? { aggregator: 'switch' as const } : { aggregator: 'hosts' as const, shards: [{ host: aggregator.name, udpPort: OMNIREDUCE_PORTS.first, slots: layout.slots }] },
  };
}

/** `p4ina agent omnireduce-worker` for one worker: the plan's arguments, its wire, the tensor. */
export function omniReduceWorkerDemoArgs(planArgs: readonly string[], host: DemoHost, wire: WirePorts, run: { length: number; seed: number | string }): string[] {
  return ['omnireduce-worker', ...planArgs, ...wireArgs(host, wire), '--length', String(run.length), '--seed', String(run.seed), '--check', '--json'];
}

/** `p4ina agent omnireduce-aggregator` for the host aggregator: it serves until the demo stops it, then prints its report. */
export function omniReduceAggregatorDemoArgs(planArgs: readonly string[], host: NetworkHost, wire: WirePorts): string[] {
  return ['omnireduce-aggregator', ...planArgs, ...wireArgs(host, wire), '--json'];
}
