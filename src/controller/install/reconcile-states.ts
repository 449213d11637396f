/**
 * What reconcile.ts reads back, by kind of program: every INA switch's job
 * state (job-state-read.ts for switchml.p4, atp-state-read.ts for atp.p4,
 * rina-state-read.ts for rina_tor.p4, omnireduce-state-read.ts for
 * omnireduce.p4; a switch is read for each kind whose jobs table its P4Info
 * has), and what reconcile does with one job id across all kinds: which
 * kinds hold it, the installed job it is when no spec asks for it, and its
 * removal where a spec wants it set up anew.
 */
import type { IdRange } from '../capacity-limits.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import type { JobAllocation } from '../capacity.js';
import { del } from '../../p4runtime/index.js';
import { ATP_NAMES } from './atp-entries.js';
import { teardownAtpJob, type AtpJobContext } from './atp-job.js';
import type { AtpSettings } from './atp-settings.js';
import { readAtpState, type AtpSwitchState } from './atp-state-read.js';
import type { CellHistory } from './cell-history.js';
import type { AnyInstalledJob } from './installed-job.js';
import { readJobState, type SwitchJobState } from './job-state-read.js';
import { OMNIREDUCE_NAMES } from './omnireduce-entries.js';
import { teardownOmniReduceJob } from './omnireduce-job.js';
import { readOmniReduceState, type OmniReduceSwitchState } from './omnireduce-state-read.js';
import { RINA_NAMES } from './rina-entries.js';
import { teardownRinaJob } from './rina-job.js';
import { readRinaState, type RinaSwitchState } from './rina-state-read.js';
import type { SwitchSession } from './switch-session.js';
import { foundIn, type SwitchState } from './switch-state-read.js';
import { SWITCHML_NAMES } from './switchml-entries.js';
import { teardownJob, type JobContext } from './switchml-job.js';

export type JobKind = AnyInstalledJob['algorithm'];

/** The job states of every switch, by kind. */
export interface ReconcileStates {
  readonly switchml: readonly SwitchJobState[];
  readonly atp: readonly AtpSwitchState[];
  readonly rina: readonly RinaSwitchState[];
  readonly omnireduce: readonly OmniReduceSwitchState[];
}

export async function readReconcileStates(sessions: ReadonlyMap<string, SwitchSession>, jobGroups: (sw: string) => IdRange): Promise<ReconcileStates> {
  const states = { switchml: [] as SwitchJobState[], atp: [] as AtpSwitchState[], rina: [] as RinaSwitchState[], omnireduce: [] as OmniReduceSwitchState[] };
  for (const session of sessions.values()) {
    const has = (t: string): boolean => session.schema.tables.find(t) !== undefined;
    const groups = jobGroups(session.name);
    if (has(SWITCHML_NAMES.jobs)) states.switchml.push(await readJobState(session, groups));
    if (has(ATP_NAMES.jobs)) states.atp.push(await readAtpState(session, groups));
    if (has(RINA_NAMES.jobs)) states.rina.push(await readRinaState(session, groups));
    if (has(OMNIREDUCE_NAMES.jobs)) states.omnireduce.push(await readOmniReduceState(session, groups));
  }
  return states;
}

/** Every switch's state of every kind, for what all kinds share (orphans, allocations). */
function everyState(s: ReconcileStates): readonly SwitchState<unknown>[] {
  return [...s.switchml, ...s.atp, ...s.rina, ...s.omnireduce];
}

/** What the switches hold, as the allocator's allocations. */
export function foundAllocations(s: ReconcileStates): SwitchAllocation[] {
  return everyState(s).flatMap((state) => [...state.jobs.values()].map((f) => f.allocation));
}

/** The kinds of switch state that hold the job id. */
export function kindsHolding(s: ReconcileStates, jobId: number): JobKind[] {
  const kinds: JobKind[] = [];
  if (foundIn(s.switchml, jobId).length > 0) kinds.push('switchml');
  if (foundIn(s.atp, jobId).length > 0) kinds.push('atp');
  if (foundIn(s.rina, jobId).length > 0) kinds.push('rina');
  if (foundIn(s.omnireduce, jobId).length > 0) kinds.push('omnireduce');
  return kinds;
}

/** A job found on the switches that no spec asks for, as it is there. */
export function foreignJob(s: ReconcileStates, jobId: number, allocation: JobAllocation): AnyInstalledJob {
  const held = { spec: undefined, plan: undefined, allocation, cellsCleared: 0 };
  const atp = foundIn(s.atp, jobId);
  if (atp.length > 0) return { ...held, algorithm: 'atp', switches: atp.map((f) => f.entries) };
  const rina = foundIn(s.rina, jobId);
  if (rina.length > 0) return { ...held, algorithm: 'rina', switches: rina.map((f) => f.entries) };
  const omnireduce = foundIn(s.omnireduce, jobId);
  if (omnireduce.length > 0) return { ...held, algorithm: 'omnireduce', switches: omnireduce.map((f) => f.entries) };
  return { ...held, algorithm: 'switchml', switches: foundIn(s.switchml, jobId).map((f) => f.entries) };
}

/** Deletes leftovers of interrupted setups and teardowns (entries before groups, separate Writes); returns how many. */
export async function removeOrphans(s: ReconcileStates, sessions: ReadonlyMap<string, SwitchSession>): Promise<number> {
  let removed = 0;
  for (const state of everyState(s)) {
    const session = sessions.get(state.switch)!;
    await session.write(state.orphanEntries.map(del));
    await session.write(state.orphanGroups.map(del));
    removed += state.orphanEntries.length + state.orphanGroups.length;
  }
  return removed;
}

/** Records the slots of every found job that holds a slot range as used (ATP's pool is shared). */
export function markFoundCellsUsed(s: ReconcileStates, cells: CellHistory): void {
  for (const state of [...s.switchml, ...s.rina, ...s.omnireduce]) {
    for (const f of state.jobs.values()) cells.markUsed(f.allocation.switch, f.allocation.slotBase, f.allocation.slots);
  }
}

/** Removes whatever switch state of any kind holds the job id, releasing its capacity. */
export async function removeFoundJob(ctx: JobContext & AtpJobContext, s: ReconcileStates, jobId: number, atpSettings: AtpSettings | undefined): Promise<void> {
  const allocation = (): JobAllocation => ctx.allocator.allocation(jobId) ?? { jobId, switches: [] };
  const switchml = foundIn(s.switchml, jobId);
  if (switchml.length > 0) await teardownJob(ctx, { allocation: allocation(), switches: switchml.map((f) => f.entries) });
  const atp = foundIn(s.atp, jobId);
  if (atp.length > 0) await teardownAtpJob(ctx, { allocation: allocation(), switches: atp.map((f) => f.entries) }, atpSettings);
  const rina = foundIn(s.rina, jobId);
  if (rina.length > 0) await teardownRinaJob(ctx, { allocation: allocation(), switches: rina.map((f) => f.entries) });
  const omnireduce = foundIn(s.omnireduce, jobId);
  if (omnireduce.length > 0) await teardownOmniReduceJob(ctx, { allocation: allocation(), switches: omnireduce.map((f) => f.entries) });
}
