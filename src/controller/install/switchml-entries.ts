/**
 * What one SwitchML job needs on one aggregating switch, as entities
 * (docs/p4-programs.md §3, "What the controller installs per job"):
 *
 *   group     PRE multicast group `multicastGroup`: one replica per worker,
 *             port = the switch's port towards it, instance = its worker id
 *   rewrites  egress.result_rewrite: (job_id, egress_rid = worker id) →
 *             rewrite_result(worker's MAC or next hop's, worker IP, UDP port)
 *   workers   ingress.switchml.workers: (job_id, worker_id) →
 *             accept_worker_from(1 << worker_id, worker's IP, worker's UDP port),
 *             so that a stray or forged update from anywhere else is dropped
 *             (accept_worker without the check when `checkSource` is false)
 *   job       ingress.switchml.jobs: job_id → set_job(slot_base, pool_size, worker_count, mcast_group)
 *
 * plus, when the job's cells may hold an earlier job's rounds, zeros for
 * `seen` and `remaining` of cells 2·slot_base … 2·(slot_base + slots) − 1.
 * Pure: the same inputs give the same entities, which is how reconciliation
 * compares a switch with a spec.
 */
import { action, multicastGroup, register, table, type MulticastGroupEntry, type RegisterEntry, type TableEntry } from '../../p4runtime/index.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import type { JobSpec } from '../job.js';
import type { AggregationPoint } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import { nextHopMac } from './next-hop-mac.js';

export const SWITCHML_NAMES = {
  jobs: 'ingress.switchml.jobs',
  setJob: 'ingress.switchml.set_job',
  workers: 'ingress.switchml.workers',
  acceptWorker: 'ingress.switchml.accept_worker',
  acceptWorkerFrom: 'ingress.switchml.accept_worker_from',
  resultRewrite: 'egress.result_rewrite',
  rewriteResult: 'egress.rewrite_result',
  seen: 'ingress.switchml.seen',
  remaining: 'ingress.switchml.remaining',
} as const;

export interface JobSwitchEntries {
  readonly switch: string;
  readonly jobId: number;
  readonly group: MulticastGroupEntry;
  readonly rewrites: readonly TableEntry[];
  readonly workers: readonly TableEntry[];
  readonly job: TableEntry;
}

export interface JobEntryOptions {
  /** Use accept_worker_from (the default): the switch also checks each update's IPv4 source and UDP source port. */
  readonly checkSource?: boolean;
}

export function jobSwitchEntries(topology: Topology, job: JobSpec, point: AggregationPoint, allocation: SwitchAllocation, options: JobEntryOptions = {}): JobSwitchEntries {
  const n = SWITCHML_NAMES;
  const members = [...point.members].sort((x, y) => x.workerId - y.workerId);
  const rewrites = members.map((m) => {
    const host = topology.hosts.get(m.host)!;
    const udpPort = job.workers[m.rank]!.udpPort;
    return table(n.resultRewrite, { job_id: job.id, egress_rid: m.workerId }, action(n.rewriteResult, { dst_mac: nextHopMac(topology, point.switch, m.host), dst_ip: host.ip, dst_port: udpPort }));
  });
  const workers = members.map((m) => {
    const bit = 2 ** m.workerId;
    const accept = (options.checkSource ?? true)
      ? action(n.acceptWorkerFrom, { bitmap_bit: bit, src_addr: topology.hosts.get(m.host)!.ip, src_port: job.workers[m.rank]!.udpPort })
      : action(n.acceptWorker, { bitmap_bit: bit });
    return table(n.workers, { job_id: job.id, worker_id: m.workerId }, accept);
  });
  return {
    switch: point.switch,
    jobId: job.id,
    group: multicastGroup(allocation.multicastGroup, members.map((m) => ({ port: m.port, instance: m.workerId }))),
    rewrites,
    workers,
    job: table(n.jobs, { job_id: job.id }, action(n.setJob, { slot_base: allocation.slotBase, pool_size: allocation.slots, worker_count: members.length, mcast_group: allocation.multicastGroup })),
  };
}

/** Zeros for `seen` and `remaining` of every cell of the slots (both copies of each slot). */
export function cellResets(allocation: Pick<SwitchAllocation, 'slotBase' | 'slots'>): RegisterEntry[] {
  const out: RegisterEntry[] = [];
  for (let cell = 2 * allocation.slotBase; cell < 2 * (allocation.slotBase + allocation.slots); cell++) {
    out.push(register(SWITCHML_NAMES.seen, { index: cell, value: 0 }), register(SWITCHML_NAMES.remaining, { index: cell, value: 0 }));
  }
  return out;
}
