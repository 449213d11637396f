/**
 * Reads back the Rina job state of one rina_tor.p4 switch: the rina_jobs,
 * rina_workers and rina_rewrite entries and the multicast groups, grouped by
 * job id. A job is "found" when its rina_jobs entry exists; its slot range,
 * group, rack size and ring position come from that entry's set_rina_job
 * parameters. Workers and rewrite entries without a rina_jobs entry, and
 * job-range groups no entry names, are leftovers of an interrupted setup or
 * teardown ("orphans").
 */
import { multicastGroup, table, type Action, type MulticastGroupEntry, type TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import { RINA_NAMES, type RinaSwitchEntries } from './rina-entries.js';
import type { SwitchSession } from './switch-session.js';

export interface FoundRinaJob {
  readonly allocation: SwitchAllocation;
  /** What is on the switch for the job, in the shape setup writes. */
  readonly entries: RinaSwitchEntries;
  /** False when the group the rina_jobs entry names is missing. */
  readonly hasGroup: boolean;
}

export interface RinaSwitchState {
  readonly switch: string;
  readonly jobs: ReadonlyMap<number, FoundRinaJob>;
  readonly orphanEntries: readonly TableEntry[];
  readonly orphanGroups: readonly MulticastGroupEntry[];
}

const jobIdOf = (e: TableEntry): number => Number(e.match.job_id);
const param = (e: TableEntry, name: string): number => Number((e.action as Action).params[name]);

export async function readRinaState(session: SwitchSession, jobGroups: IdRange): Promise<RinaSwitchState> {
  const n = RINA_NAMES;
  const jobEntries = await session.readAll(table(n.jobs));
  const workers = await session.readAll(table(n.workers));
  const rewrites = await session.readAll(table(n.rewrite));
  const groups = new Map((await session.readAll(multicastGroup())).map((g) => [g.groupId, g]));
  const jobs = new Map<number, FoundRinaJob>();
  const usedGroups = new Set<number>();
  for (const e of jobEntries) {
    const jobId = jobIdOf(e);
    const group = param(e, 'mcast_group');
    usedGroups.add(group);
    jobs.set(jobId, {
      allocation: { switch: session.name, jobId, slotBase: param(e, 'slot_base'), slots: param(e, 'pool_size'), multicastGroup: group, workers: param(e, 'rack_workers') },
      entries: {
        switch: session.name,
        jobId,
        position: param(e, 'rank'),
        group: groups.get(group) ?? multicastGroup(group),
        rewrites: rewrites.filter((r) => jobIdOf(r) === jobId),
        workers: workers.filter((w) => jobIdOf(w) === jobId),
        job: e,
      },
      hasGroup: groups.has(group),
    });
  }
  return {
    switch: session.name,
    jobs,
    orphanEntries: [...workers, ...rewrites].filter((e) => !jobs.has(jobIdOf(e))),
    orphanGroups: [...groups.values()].filter((g) => g.groupId >= jobGroups.first && g.groupId <= jobGroups.last && !usedGroups.has(g.groupId)),
  };
}
