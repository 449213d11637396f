/**
 * What one ATP job needs on one aggregating switch, as entities
 * (docs/p4-programs.md §4, "What the controller installs"):
 *
 *   level 0   group     PRE multicast group `multicastGroup`: one replica per
 *                       worker of the rack, port = the ToR's port towards it,
 *                       instance = its bitmap0 bit
 *             rewrites  egress.ack_rewrite: (job_id, egress_rid = bitmap0 bit) →
 *                       rewrite_ack(worker's MAC or next hop's, worker IP, UDP port)
 *             job       ingress.atp.atp_jobs: job_id → aggregate_at_level0(generation, group)
 *   level 1   job       ingress.atp.atp_jobs: job_id → aggregate_at_level1(generation)
 *
 * Pure: the same inputs give the same entities, which is how reconciliation
 * compares a switch with a spec (with the generation read back, since any
 * generation serves a running setup).
 */
import { action, multicastGroup, table, type MulticastGroupEntry, type TableEntry } from '../../p4runtime/index.js';
import type { AtpPlan } from '../atp-plan.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import type { JobSpec } from '../job.js';
import { TopologyGraph } from '../topology-graph.js';
import type { Topology } from '../topology.js';
import { nextHopMac } from './next-hop-mac.js';

export const ATP_NAMES = {
  settings: 'ingress.atp_settings',
  setSettings: 'ingress.set_atp_settings',
  defaultSettings: 'ingress.default_atp_settings',
  jobs: 'ingress.atp.atp_jobs',
  level0: 'ingress.atp.aggregate_at_level0',
  level1: 'ingress.atp.aggregate_at_level1',
  ackRewrite: 'egress.ack_rewrite',
  rewriteAck: 'egress.rewrite_ack',
  owner: 'ingress.atp.owner',
  values: 'ingress.atp.values',
} as const;

export interface AtpSwitchEntries {
  readonly switch: string;
  readonly jobId: number;
  readonly level: 0 | 1;
  readonly generation: number;
  /** Level 0 only. */
  readonly group: MulticastGroupEntry | undefined;
  /** Level 0 only, by bitmap0 bit. */
  readonly rewrites: readonly TableEntry[];
  readonly job: TableEntry;
}

export function atpSwitchEntries(topology: Topology, spec: JobSpec, plan: AtpPlan, sw: string, allocation: SwitchAllocation, generation: number): AtpSwitchEntries {
  const n = ATP_NAMES;
  const rack = plan.level0.find((l) => l.switch === sw);
  if (!rack) {
    if (plan.level1 !== sw) throw new RangeError(`job ${spec.id} does not aggregate at ${sw}`);
    return { switch: sw, jobId: spec.id, level: 1, generation, group: undefined, rewrites: [], job: table(n.jobs, { job_id: spec.id }, action(n.level1, { generation })) };
  }
  const graph = TopologyGraph.of(topology);
  const workers = rack.ranks.map((rank) => plan.workers[rank]!);
  return {
    switch: sw,
    jobId: spec.id,
    level: 0,
    generation,
    group: multicastGroup(
      allocation.multicastGroup,
      workers.map((w) => ({ port: graph.nextHop(sw, w.host)!.localPort, instance: w.bitmap0Bit! })),
    ),
    rewrites: workers.map((w) =>
      table(n.ackRewrite, { job_id: spec.id, egress_rid: w.bitmap0Bit! }, action(n.rewriteAck, { dst_mac: nextHopMac(topology, sw, w.host), dst_ip: w.ip, dst_port: w.udpPort })),
    ),
    job: table(n.jobs, { job_id: spec.id }, action(n.level0, { generation, mcast_group: allocation.multicastGroup })),
  };
}
