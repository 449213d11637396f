/**
 * Reads back one algorithm's job state of one switch: its jobs entries, the
 * entries of its per-job member tables (workers, rewrites) and the multicast
 * groups, grouped by job id. A job is "found" when its jobs entry exists; what
 * it holds comes from that entry, as the algorithm's `JobStateCodec` decodes
 * it. Member entries no found job holds, and job-range groups no jobs entry
 * names, are leftovers of an interrupted setup or teardown ("orphans").
 */
import { multicastGroup, table, type Action, type MulticastGroupEntry, type TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import type { SwitchSession } from './switch-session.js';

export interface FoundSwitchJob<E> {
  readonly allocation: SwitchAllocation;
  /** What is on the switch for the job, in the shape setup writes. */
  readonly entries: E;
  /** False when the group the jobs entry names is missing. */
  readonly hasGroup: boolean;
}

export interface SwitchState<E> {
  readonly switch: string;
  readonly jobs: ReadonlyMap<number, FoundSwitchJob<E>>;
  readonly orphanEntries: readonly TableEntry[];
  readonly orphanGroups: readonly MulticastGroupEntry[];
}

/** What a codec gets to decode one jobs entry with. */
export interface JobParts {
  readonly switch: string;
  readonly jobId: number;
  /** Per member table, in the codec's order: the entries of this job (none when the job holds no members). */
  readonly members: readonly (readonly TableEntry[])[];
  /** The group as read from the switch, or an empty one of that id when it is missing. */
  readonly group: (id: number) => MulticastGroupEntry;
}

interface DecodedJob<E> {
  readonly allocation: Omit<SwitchAllocation, 'switch' | 'jobId'>;
  readonly entries: E;
  /** The multicast group the jobs entry names; undefined when it names none. */
  readonly group: number | undefined;
}

/** How one algorithm's jobs show on a switch. */
export interface JobStateCodec<E> {
  /** The jobs table, keyed by job_id. */
  readonly jobs: string;
  /** The tables whose entries belong to a job by their job_id, in the order they are read. */
  readonly members: readonly string[];
  /** The job id a member entry belongs to (default: its match field job_id; omnireduce.p4's workers carry it as an action parameter). */
  memberJobId?(member: TableEntry): number;
  /** Whether the job of this jobs entry holds member entries; ones carrying its id that it does not hold are orphans. */
  holdsMembers(job: TableEntry): boolean;
  decode(job: TableEntry, parts: JobParts): DecodedJob<E>;
}

const jobIdOf = (e: TableEntry): number => Number(e.match.job_id);
export const actionParam = (e: TableEntry, name: string): number => Number((e.action as Action).params[name]);

export async function readSwitchState<E>(session: SwitchSession, jobGroups: IdRange, codec: JobStateCodec<E>): Promise<SwitchState<E>> {
  const jobEntries = await session.readAll(table(codec.jobs));
  const memberTables: TableEntry[][] = [];
  for (const name of codec.members) memberTables.push(await session.readAll(table(name)));
  const groups = new Map((await session.readAll(multicastGroup())).map((g) => [g.groupId, g]));
  const group = (id: number): MulticastGroupEntry => groups.get(id) ?? multicastGroup(id);
  const memberJobId = codec.memberJobId ?? jobIdOf;
  const jobs = new Map<number, FoundSwitchJob<E>>();
  const holders = new Set<number>();
  const usedGroups = new Set<number>();
  for (const e of jobEntries) {
    const jobId = jobIdOf(e);
    const holds = codec.holdsMembers(e);
    if (holds) holders.add(jobId);
    const members = memberTables.map((entries) => (holds ? entries.filter((m) => memberJobId(m) === jobId) : []));
    const decoded = codec.decode(e, { switch: session.name, jobId, members, group });
    if (decoded.group !== undefined) usedGroups.add(decoded.group);
    jobs.set(jobId, {
      allocation: { switch: session.name, jobId, ...decoded.allocation },
      entries: decoded.entries,
      hasGroup: decoded.group === undefined || groups.has(decoded.group),
    });
  }
  return {
    switch: session.name,
    jobs,
    orphanEntries: memberTables.flat().filter((e) => !holders.has(memberJobId(e))),
    orphanGroups: [...groups.values()].filter((g) => g.groupId >= jobGroups.first && g.groupId <= jobGroups.last && !usedGroups.has(g.groupId)),
  };
}

/** The job's state on every switch that has it. */
export function foundIn<E>(states: readonly SwitchState<E>[], jobId: number): FoundSwitchJob<E>[] {
  return states.flatMap((s) => {
    const f = s.jobs.get(jobId);
    return f ? [f] : [];
  });
}
