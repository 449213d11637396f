/**
 * The SwitchML jobs of one switch, read back (see switch-state-read.ts): a
 * jobs entry's set_job parameters give the job's slot range, worker count and
 * group; its workers and result_rewrite entries are its members.
 */
import type { TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import { SWITCHML_NAMES, type JobSwitchEntries } from './switchml-entries.js';
import type { SwitchSession } from './switch-session.js';
import { actionParam as param, readSwitchState, type FoundSwitchJob, type JobParts, type JobStateCodec, type SwitchState } from './switch-state-read.js';

export type FoundJob = FoundSwitchJob<JobSwitchEntries>;
export type SwitchJobState = SwitchState<JobSwitchEntries>;

const SWITCHML_STATE: JobStateCodec<JobSwitchEntries> = {
  jobs: SWITCHML_NAMES.jobs,
  members: [SWITCHML_NAMES.workers, SWITCHML_NAMES.resultRewrite],
  holdsMembers: () => true,
  decode(e: TableEntry, { switch: sw, jobId, members: [workers = [], rewrites = []], group }: JobParts) {
    const mcastGroup = param(e, 'mcast_group');
    return {
      allocation: { slotBase: param(e, 'slot_base'), slots: param(e, 'pool_size'), multicastGroup: mcastGroup, workers: param(e, 'worker_count') },
      entries: { switch: sw, jobId, group: group(mcastGroup), rewrites, workers, job: e },
      group: mcastGroup,
    };
  },
};

export function readJobState(session: SwitchSession, jobGroups: IdRange): Promise<SwitchJobState> {
  return readSwitchState(session, jobGroups, SWITCHML_STATE);
}
