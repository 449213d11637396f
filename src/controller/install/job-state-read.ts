/**
 * Reads back the SwitchML job state of one switch: the jobs, workers and
 * result_rewrite entries and the multicast groups, grouped by job id. A job
 * is "found" when its jobs entry exists; its slot range and group come from
 * that entry's set_job parameters. Entries without a jobs entry, and job-range
 * groups no jobs entry names, are leftovers of an interrupted setup or
 * teardown ("orphans").
 */
import { multicastGroup, table, type Action, type MulticastGroupEntry, type TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import { SWITCHML_NAMES } from './switchml-entries.js';
import type { JobSwitchEntries } from './switchml-entries.js';
import type { SwitchSession } from './switch-session.js';

export interface FoundJob {
  readonly allocation: SwitchAllocation;
  /** What is on the switch for the job, in the shape setup writes. */
  readonly entries: JobSwitchEntries;
  /** False when the group the jobs entry names is missing. */
  readonly hasGroup: boolean;
}

export interface SwitchJobState {
  readonly switch: string;
  readonly jobs: ReadonlyMap<number, FoundJob>;
  readonly orphanEntries: readonly TableEntry[];
  readonly orphanGroups: readonly MulticastGroupEntry[];
}

const jobIdOf = (e: TableEntry): number => Number(e.match.job_id);
const param = (e: TableEntry, name: string): number => Number((e.action as Action).params[name]);

export async function readJobState(session: SwitchSession, jobGroups: IdRange): Promise<SwitchJobState> {
  const n = SWITCHML_NAMES;
  const jobEntries = await session.readAll(table(n.jobs));
  const workers = await session.readAll(table(n.workers));
  const rewrites = await session.readAll(table(n.resultRewrite));
  const groups = new Map((await session.readAll(multicastGroup())).map((g) => [g.groupId, g]));
  const jobs = new Map<number, FoundJob>();
  const usedGroups = new Set<number>();
  for (const e of jobEntries) {
    const jobId = jobIdOf(e);
    const group = param(e, 'mcast_group');
    usedGroups.add(group);
    jobs.set(jobId, {
      allocation: { switch: session.name, jobId, slotBase: param(e, 'slot_base'), slots: param(e, 'pool_size'), multicastGroup: group, workers: param(e, 'worker_count') },
      entries: {
        switch: session.name,
        jobId,
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
