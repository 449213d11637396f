/**
 * The OmniReduce jobs of one omnireduce.p4 switch, read back (see
 * switch-state-read.ts): an omnireduce_jobs entry's set_job parameters give
 * the job's slot range, worker count and group; its reply_rewrite entries
 * (keyed by job_id) and omnireduce_workers entries (keyed by the worker's
 * address, naming the job in accept_worker's job_id) are its members.
 */
import type { TableEntry } from '../../p4runtime/index.js';
import type { IdRange } from '../capacity-limits.js';
import { OMNIREDUCE_NAMES } from './omnireduce-entries.js';
import type { OmniReduceEntriesAt } from './omnireduce-job-on-switch.js';
import type { SwitchSession } from './switch-session.js';
import { actionParam as param, readSwitchState, type FoundSwitchJob, type JobParts, type JobStateCodec, type SwitchState } from './switch-state-read.js';

export type FoundOmniReduceJob = FoundSwitchJob<OmniReduceEntriesAt>;
export type OmniReduceSwitchState = SwitchState<OmniReduceEntriesAt>;

const OMNIREDUCE_STATE: JobStateCodec<OmniReduceEntriesAt> = {
  jobs: OMNIREDUCE_NAMES.jobs,
  members: [OMNIREDUCE_NAMES.workers, OMNIREDUCE_NAMES.rewrite],
  memberJobId: (e) => (e.match.job_id === undefined ? param(e, 'job_id') : Number(e.match.job_id)),
  holdsMembers: () => true,
  decode(e: TableEntry, { switch: sw, jobId, members: [workers = [], rewrites = []], group }: JobParts) {
    const mcastGroup = param(e, 'mcast_group');
    return {
      allocation: { slotBase: param(e, 'slot_base'), slots: param(e, 'slot_count'), multicastGroup: mcastGroup, workers: param(e, 'worker_count') },
      entries: { switch: sw, jobId, group: group(mcastGroup), rewrites, workers, job: e },
      group: mcastGroup,
    };
  },
};

export function readOmniReduceState(session: SwitchSession, jobGroups: IdRange): Promise<OmniReduceSwitchState> {
  return readSwitchState(session, jobGroups, OMNIREDUCE_STATE);
}
