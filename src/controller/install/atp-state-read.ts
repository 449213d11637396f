/**
 * Reads back the ATP job state of one atp.p4 switch: the atp_jobs and
 * ack_rewrite entries and the multicast groups, grouped by job id. A job is
 * "found" when its atp_jobs entry exists; its level, generation and group
 * come from that entry. ack_rewrite entries without a level-0 entry of their
 * job, and job-range groups no entry names, are leftovers of an interrupted
 * setup or teardown ("orphans").
 */
import { multicastGroup, table, type Action, type MulticastGroupEntry, type TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import { ATP_NAMES, type AtpSwitchEntries } from './atp-entries.js';
import type { SwitchSession } from './switch-session.js';

export interface FoundAtpJob {
  readonly allocation: SwitchAllocation;
  /** What is on the switch for the job, in the shape setup writes. */
  readonly entries: AtpSwitchEntries;
  /** False when a level-0 entry names a group that is missing. */
  readonly hasGroup: boolean;
}

export interface AtpSwitchState {
  readonly switch: string;
  readonly jobs: ReadonlyMap<number, FoundAtpJob>;
  readonly orphanEntries: readonly TableEntry[];
  readonly orphanGroups: readonly MulticastGroupEntry[];
}

const jobIdOf = (e: TableEntry): number => Number(e.match.job_id);
const param = (e: TableEntry, name: string): number => Number((e.action as Action).params[name]);

export async function readAtpState(session: SwitchSession, jobGroups: IdRange): Promise<AtpSwitchState> {
  const n = ATP_NAMES;
  const jobEntries = await session.readAll(table(n.jobs));
  const rewrites = await session.readAll(table(n.ackRewrite));
  const groups = new Map((await session.readAll(multicastGroup())).map((g) => [g.groupId, g]));
  const jobs = new Map<number, FoundAtpJob>();
  const usedGroups = new Set<number>();
  for (const e of jobEntries) {
    const jobId = jobIdOf(e);
    const level = (e.action as Action).name === n.level0 ? 0 : 1;
    const group = level === 0 ? param(e, 'mcast_group') : 0;
    if (group !== 0) usedGroups.add(group);
    const own = level === 0 ? rewrites.filter((r) => jobIdOf(r) === jobId) : [];
    jobs.set(jobId, {
      allocation: { switch: session.name, jobId, slotBase: 0, slots: 0, multicastGroup: group, workers: Math.max(1, own.length) },
      entries: {
        switch: session.name,
        jobId,
        level,
        generation: param(e, 'generation'),
        group: level === 0 ? (groups.get(group) ?? multicastGroup(group)) : undefined,
        rewrites: own,
        job: e,
      },
      hasGroup: level === 1 || group === 0 || groups.has(group),
    });
  }
  return {
    switch: session.name,
    jobs,
    orphanEntries: rewrites.filter((r) => jobs.get(jobIdOf(r))?.entries.level !== 0),
    orphanGroups: [...groups.values()].filter((g) => g.groupId >= jobGroups.first && g.groupId <= jobGroups.last && !usedGroups.has(g.groupId)),
  };
}
