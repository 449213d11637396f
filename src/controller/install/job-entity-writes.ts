/**
 * Writing and removing a job's entities at its switches, as the setups and
 * teardowns of SwitchML and Rina jobs (and ATP's teardown) do it. Setup
 * writes per switch group, rewrites, workers, cell resets, then the jobs
 * entry (it switches the job on, so it goes last), each its own Write,
 * journalled; a failed Write undoes the journal, releases the allocation and
 * throws INSTALL_WRITE_FAILED. Teardown is the reverse; entities already gone
 * (NOT_FOUND) are not an error.
 */
import type { Logger } from '../../log/logger.js';
import { del, insert, isNotFoundOnly, modify, type RegisterEntry, type Update } from '../../p4runtime/index.js';
import type { CapacityAllocator } from '../capacity.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import type { JobSwitchEntries } from './switchml-entries.js';
import type { SwitchSession } from './switch-session.js';
import { WriteJournal, writeFailed } from './write-journal.js';

/** A SwitchML job's entities at one switch; a Rina job's have the same and its ring position. */
type JobEntities = JobSwitchEntries;

export interface EntityWriteContext {
  readonly sessions: ReadonlyMap<string, SwitchSession>;
  readonly allocator: CapacityAllocator;
  readonly log: Logger;
}

/** Writes every switch's entities, clearing the cells of the switches in `dirty` (`resets` gives them); returns how many cells were cleared. */
export async function writeJobEntities(
  ctx: EntityWriteContext,
  jobId: number,
  entries: readonly JobEntities[],
  dirty: ReadonlySet<string>,
  resets: (sw: string) => readonly RegisterEntry[],
): Promise<number> {
  const journal = new WriteJournal();
  let cellsCleared = 0;
  for (const e of entries) {
    const session = ctx.sessions.get(e.switch)!;
    try {
      await journal.step(session, [insert(e.group)]);
      await journal.step(session, e.rewrites.map(insert));
      await journal.step(session, e.workers.map(insert));
      if (dirty.has(e.switch)) {
        // MODIFYs have no undo: cleared cells stay cleared on a rollback, which harms no one.
        const updates = resets(e.switch).map(modify);
        await journal.step(session, updates);
        cellsCleared += updates.length;
      }
      await journal.step(session, [insert(e.job)]);
    } catch (err) {
      const clean = await journal.undo(ctx.log);
      ctx.allocator.release(jobId);
      throw writeFailed(err, jobId, e.switch, clean);
    }
  }
  return cellsCleared;
}

/** The session of a switch a job is installed at. */
export function installedSession(sessions: ReadonlyMap<string, SwitchSession>, e: { readonly switch: string; readonly jobId: number }): SwitchSession {
  const session = sessions.get(e.switch);
  if (!session) throw new InstallError(E.INSTALL_UNKNOWN_SWITCH, `job ${e.jobId} is installed here, but the installer has no session with this switch`, e.switch);
  return session;
}

/** One Write of deletions; entities already gone are not an error. */
export async function deleteAll(session: SwitchSession, jobId: number, updates: readonly Update[]): Promise<void> {
  try {
    await session.write(updates);
  } catch (err) {
    if (!isNotFoundOnly(err)) throw new InstallError(E.INSTALL_WRITE_FAILED, `tearing down job ${jobId} failed: ${(err as Error).message}`, session.name, { cause: err });
  }
}

/** Deletes the job's entities at one switch: the jobs entry, then workers and rewrites, then the group. */
export async function removeJobEntities(sessions: ReadonlyMap<string, SwitchSession>, e: JobEntities): Promise<void> {
  const session = installedSession(sessions, e);
  await deleteAll(session, e.jobId, [del(e.job)]);
  await deleteAll(session, e.jobId, [...e.workers, ...e.rewrites].map(del));
  await deleteAll(session, e.jobId, [del(e.group)]);
}
