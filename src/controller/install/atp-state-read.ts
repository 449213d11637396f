/**
 * The ATP jobs of one atp.p4 switch, read back (see switch-state-read.ts): an
 * atp_jobs entry gives the job's level, generation and (level 0) group. Only
 * a level-0 job holds ack_rewrite entries, one per rack worker; a level-1
 * job names no group and holds none.
 */
import type { Action, TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import { ATP_NAMES, type AtpSwitchEntries } from './atp-entries.js';
import type { SwitchSession } from './switch-session.js';
import { actionParam as param, readSwitchState, type FoundSwitchJob, type JobParts, type JobStateCodec, type SwitchState } from './switch-state-read.js';

export type FoundAtpJob = FoundSwitchJob<AtpSwitchEntries>;
export type AtpSwitchState = SwitchState<AtpSwitchEntries>;

const isLevel0 = (e: TableEntry): boolean => (e.action as Action).name === ATP_NAMES.level0;

const ATP_STATE: JobStateCodec<AtpSwitchEntries> = {
  jobs: ATP_NAMES.jobs,
  members: [ATP_NAMES.ackRewrite],
  holdsMembers: isLevel0,
  decode(e: TableEntry, { switch: sw, jobId, members: [rewrites = []], group }: JobParts) {
    const level = isLevel0(e) ? 0 : 1;
    const mcastGroup = level === 0 ? param(e, 'mcast_group') : 0;
    return {
      allocation: { slotBase: 0, slots: 0, multicastGroup: mcastGroup, workers: Math.max(1, rewrites.length) },
      entries: { switch: sw, jobId, level, generation: param(e, 'generation'), group: level === 0 ? group(mcastGroup) : undefined, rewrites, job: e },
      // Group 0 is none.
      group: mcastGroup !== 0 ? mcastGroup : undefined,
    };
  },
};

export function readAtpState(session: SwitchSession, jobGroups: IdRange): Promise<AtpSwitchState> {
  return readSwitchState(session, jobGroups, ATP_STATE);
}
