/**
 * An OmniReduce switch plan as omnireduce.p4 sees it at its one aggregating
 * switch: the job's workers (rank, the topology host's IPv4 address, the
 * spec's UDP port, the MAC of the next hop towards the host, the switch's
 * port towards it) and the allocation's slot range and group, owning the
 * job's wire slots from 0 (one switch holds every slot of the job). Pure,
 * as omnireduce-entries.ts, so setup and reconcile build the same entities.
 */
import type { SwitchAllocation } from '../capacity-snapshot.js';
import type { JobSpec } from '../job.js';
import type { AggregationPoint, RolloutPlan } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import { nextHopMac } from './next-hop-mac.js';
import { omniReduceSwitchEntries, type OmniReduceJobOnSwitch, type OmniReduceSwitchEntries } from './omnireduce-entries.js';

/** What the installer writes at one switch for an OmniReduce job, and teardown removes. */
export interface OmniReduceEntriesAt extends OmniReduceSwitchEntries {
  readonly switch: string;
}

/** The aggregating switch of an OmniReduce switch plan, or undefined when the plan puts no state in switches. */
export function omniReducePoint(plan: RolloutPlan): AggregationPoint | undefined {
  if (plan.aggregationPoints.length === 0) return undefined;
  if (plan.runs !== 'omnireduce' || plan.omnireduce?.aggregator !== 'switch' || plan.aggregationPoints.length !== 1) {
    throw new RangeError(`job ${plan.jobId}'s plan is not an OmniReduce switch plan (it runs ${plan.runs} on ${plan.aggregationPoints.length} switches)`);
  }
  return plan.aggregationPoints[0];
}

export function omniReduceJobOnSwitch(
  topology: Topology,
  spec: JobSpec,
  point: AggregationPoint,
  allocation: Pick<SwitchAllocation, 'slotBase' | 'slots' | 'multicastGroup'>,
): OmniReduceJobOnSwitch {
  const workers = point.members.map((m) => {
    const host = topology.hosts.get(m.host);
    const worker = spec.workers[m.rank];
    if (!host || !worker) throw new RangeError(`rank ${m.rank} of job ${spec.id} has no host ${m.host} in the topology or no worker in the spec`);
    return { rank: m.rank, ip: host.ip, udpPort: worker.udpPort, mac: nextHopMac(topology, point.switch, m.host), switchPort: m.port };
  });
  return { jobId: spec.id, workers, slotBase: allocation.slotBase, slotCount: allocation.slots, firstSlot: 0, multicastGroup: allocation.multicastGroup };
}

/** The entities of the job at its switch (see omnireduce-entries.ts). */
export function omniReduceEntriesAt(
  topology: Topology,
  spec: JobSpec,
  point: AggregationPoint,
  allocation: Pick<SwitchAllocation, 'slotBase' | 'slots' | 'multicastGroup'>,
): OmniReduceEntriesAt {
  return { switch: point.switch, ...omniReduceSwitchEntries(omniReduceJobOnSwitch(topology, spec, point, allocation)) };
}
