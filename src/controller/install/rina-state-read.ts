/**
 * The Rina jobs of one rina_tor.p4 switch, read back (see
 * switch-state-read.ts): a rina_jobs entry's set_rina_job parameters give the
 * job's slot range, group, rack size and ring position; its rina_workers and
 * rina_rewrite entries are its members.
 */
import type { TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import { RINA_NAMES, type RinaSwitchEntries } from './rina-entries.js';
import type { SwitchSession } from './switch-session.js';
import { actionParam as param, readSwitchState, type FoundSwitchJob, type JobParts, type JobStateCodec, type SwitchState } from './switch-state-read.js';

export type FoundRinaJob = FoundSwitchJob<RinaSwitchEntries>;
export type RinaSwitchState = SwitchState<RinaSwitchEntries>;

const RINA_STATE: JobStateCodec<RinaSwitchEntries> = {
  jobs: RINA_NAMES.jobs,
  members: [RINA_NAMES.workers, RINA_NAMES.rewrite],
  holdsMembers: () => true,
  decode(e: TableEntry, { switch: sw, jobId, members: [workers = [], rewrites = []], group }: JobParts) {
    const mcastGroup = param(e, 'mcast_group');
    return {
      allocation: { slotBase: param(e, 'slot_base'), slots: param(e, 'pool_size'), multicastGroup: mcastGroup, workers: param(e, 'rack_workers') },
      entries: { switch: sw, jobId, position: param(e, 'rank'), group: group(mcastGroup), rewrites, workers, job: e },
      group: mcastGroup,
    };
  },
};

export function readRinaState(session: SwitchSession, jobGroups: IdRange): Promise<RinaSwitchState> {
  return readSwitchState(session, jobGroups, RINA_STATE);
}
