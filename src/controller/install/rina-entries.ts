/**
 * What one Rina job needs on one INA ToR, as entities (docs/rina.md §2,
 * "What the controller installs per job"), from the rollout plan
 * (planRina: the ring, the rack's aggregation point) and the topology:
 *
 *   group     PRE multicast group `multicastGroup`: a replica per rack
 *             worker (port towards it, instance = its worker id) and, in a
 *             ring of two or more, one for the next member (port towards
 *             its agent's host, instance RINA_NEXT_MEMBER_RID)
 *   rewrites  egress.rina_rewrite: (job_id, egress_rid) → rina_rewrite_to(the
 *             host's MAC or the next hop's, its IP, its UDP port)
 *   workers   ingress.rina.rina_workers: (job_id, worker_id) →
 *             rack_worker(1 << worker_id, worker's IP, worker's UDP port)
 *   job       ingress.rina.rina_jobs: job_id → set_rina_job(slot range,
 *             rack mask and count, group, ring position, last step, the
 *             agent's and the predecessor's addresses)
 *
 * Write them in that order, and delete them in the reverse. Pure: the same
 * inputs give the same entities, so a controller can compare a switch with
 * a spec. `rinaCellResets` gives the zeros for cells an earlier job used.
 */
import { action, multicastGroup, register, table, type MulticastGroupEntry, type RegisterEntry, type TableEntry } from '../../p4runtime/index.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import type { JobSpec } from '../job.js';
import type { RingMember, RolloutPlan } from '../rollout-plan.js';
import { TopologyGraph } from '../topology-graph.js';
import type { Topology } from '../topology.js';
import { nextHopMac } from './next-hop-mac.js';

export const RINA_NAMES = {
  jobs: 'ingress.rina.rina_jobs',
  setJob: 'ingress.rina.set_rina_job',
  workers: 'ingress.rina.rina_workers',
  rackWorker: 'ingress.rina.rack_worker',
  rewrite: 'egress.rina_rewrite',
  rewriteTo: 'egress.rina_rewrite_to',
  seen: 'ingress.rina.round.seen',
  predSeen: 'ingress.rina.round.pred_seen',
  remaining: 'ingress.rina.round.remaining',
  stashFull: 'ingress.rina.round.stash_full',
} as const;

/** The egress_rid of the next ring member's replica (rack workers' are their ids, 0..31). */
export const RINA_NEXT_MEMBER_RID = 32;

export interface RinaSwitchEntries {
  readonly switch: string;
  readonly jobId: number;
  /** The rack's position in the ring. */
  readonly position: number;
  readonly group: MulticastGroupEntry;
  /** Rack workers' rewrites by worker id, then the next member's. */
  readonly rewrites: readonly TableEntry[];
  readonly workers: readonly TableEntry[];
  readonly job: TableEntry;
}

interface Endpoint {
  readonly host: string;
  readonly ip: number;
  readonly udpPort: number;
}

function endpoint(topology: Topology, job: JobSpec, plan: RolloutPlan, rank: number): Endpoint {
  const host = plan.workers[rank]?.host;
  const h = host === undefined ? undefined : topology.hosts.get(host);
  if (host === undefined || h === undefined) throw new RangeError(`rank ${rank} of job ${job.id} has no host in the topology`);
  return { host, ip: h.ip, udpPort: job.workers[rank]!.udpPort };
}

/**
 * The entities of `plan` (a Rina plan of `job`) at the ToR `sw`, one of the
 * plan's aggregation points; `allocation` gives the slot range and group.
 */
export function rinaSwitchEntries(topology: Topology, job: JobSpec, plan: RolloutPlan, sw: string, allocation: Pick<SwitchAllocation, 'slotBase' | 'slots' | 'multicastGroup'>): RinaSwitchEntries {
  const n = RINA_NAMES;
  const point = plan.aggregationPoints.find((p) => p.switch === sw);
  const ring = plan.ring;
  if (plan.runs !== 'rina' || !point || !ring) throw new RangeError(`job ${job.id} has no Rina rack at ${sw}`);
  const member = ring.find((m): m is RingMember => m.kind === 'rack' && m.ranks.includes(point.members[0]!.rank));
  if (!member) throw new RangeError(`the plan's ring has no rack member for ${sw}`);
  if (allocation.multicastGroup < 1) throw new RangeError(`a Rina job needs a multicast group at ${sw}, not ${allocation.multicastGroup}`);
  const R = ring.length;
  const agent = endpoint(topology, job, plan, member.agentRank);
  const pred = R > 1 ? endpoint(topology, job, plan, ring[(member.position + R - 1) % R]!.agentRank) : undefined;
  const next = R > 1 ? endpoint(topology, job, plan, ring[(member.position + 1) % R]!.agentRank) : undefined;
  const members = [...point.members].sort((x, y) => x.workerId - y.workerId);
  const replicas = members.map((m) => ({ port: m.port, instance: m.workerId }));
  const rewrites = members.map((m) => {
    const e = endpoint(topology, job, plan, m.rank);
    return table(n.rewrite, { job_id: job.id, egress_rid: m.workerId }, action(n.rewriteTo, { dst_mac: nextHopMac(topology, sw, e.host), dst_ip: e.ip, dst_port: e.udpPort }));
  });
  if (next) {
    replicas.push({ port: TopologyGraph.of(topology).nextHop(sw, next.host)!.localPort, instance: RINA_NEXT_MEMBER_RID });
    rewrites.push(table(n.rewrite, { job_id: job.id, egress_rid: RINA_NEXT_MEMBER_RID }, action(n.rewriteTo, { dst_mac: nextHopMac(topology, sw, next.host), dst_ip: next.ip, dst_port: next.udpPort })));
  }
  const workers = members.map((m) => {
    const e = endpoint(topology, job, plan, m.rank);
    return table(n.workers, { job_id: job.id, worker_id: m.workerId }, action(n.rackWorker, { bitmap_bit: 2 ** m.workerId, src_addr: e.ip, src_port: e.udpPort }));
  });
  const rackMask = members.reduce((mask, m) => mask + 2 ** m.workerId, 0);
  return {
    switch: sw,
    jobId: job.id,
    position: member.position,
    group: multicastGroup(allocation.multicastGroup, replicas),
    rewrites,
    workers,
    job: table(n.jobs, { job_id: job.id }, action(n.setJob, {
      slot_base: allocation.slotBase, pool_size: allocation.slots, rack_mask: rackMask, rack_workers: members.length,
      mcast_group: allocation.multicastGroup, rank: member.position, last_step: R - 1,
      agent_ip: agent.ip, agent_port: agent.udpPort, pred_ip: pred?.ip ?? 0, pred_port: pred?.udpPort ?? 0,
    })),
  };
}

/**
 * Zeros for `seen`, `pred_seen`, `remaining` and `stash_full` of both copies
 * of every slot of the range: the cells then read as never used, with nothing
 * stashed (an earlier job's stashed data must never join a new job's round).
 */
export function rinaCellResets(allocation: Pick<SwitchAllocation, 'slotBase' | 'slots'>): RegisterEntry[] {
  const out: RegisterEntry[] = [];
  for (let cell = 2 * allocation.slotBase; cell < 2 * (allocation.slotBase + allocation.slots); cell++) {
    for (const name of [RINA_NAMES.seen, RINA_NAMES.predSeen, RINA_NAMES.remaining, RINA_NAMES.stashFull]) out.push(register(name, { index: cell, value: 0 }));
  }
  return out;
}
