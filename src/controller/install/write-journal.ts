/**
 * Writes that can be undone: every update of a job's setup that the switch
 * applied is journalled with its undo (an INSERT's DELETE, a MODIFY's
 * previous entity; none for what is harmless to leave, such as cleared
 * cells), so that a failed setup removes exactly what it wrote. Undo runs in
 * reverse order; an entity already gone (NOT_FOUND) is not an error.
 */
import type { Logger } from '../../log/logger.js';
import { del, isNotFoundOnly, P4WriteError, type Update } from '../../p4runtime/index.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import type { SwitchSession } from './switch-session.js';

interface JournalItem {
  readonly session: SwitchSession;
  readonly undo: Update | undefined;
}

const deleteInserts = (u: Update): Update | undefined => (u.type === 'INSERT' ? del(u.entity) : undefined);

export class WriteJournal {
  private readonly items: JournalItem[] = [];

  /** One Write; `undoOf` says how to undo each update (default: DELETE what was INSERTed). */
  async step(session: SwitchSession, updates: readonly Update[], undoOf: (u: Update, i: number) => Update | undefined = deleteInserts): Promise<void> {
    try {
      await session.write(updates);
    } catch (err) {
      // Updates of a CONTINUE_ON_ERROR batch that did not fail were applied: journal those too.
      const failed = new Set(err instanceof P4WriteError ? err.failures.map((f) => f.index) : updates.map((_, i) => i));
      updates.forEach((u, i) => void (failed.has(i) ? undefined : this.items.push({ session, undo: undoOf(u, i) })));
      throw err;
    }
    updates.forEach((u, i) => this.items.push({ session, undo: undoOf(u, i) }));
  }

  /** Undoes everything journalled, newest first; false when some undo failed (logged). */
  async undo(log: Logger): Promise<boolean> {
    let clean = true;
    for (const item of this.items.splice(0).reverse()) {
      if (!item.undo) continue;
      try {
        await item.session.write([item.undo]);
      } catch (err) {
        if (isNotFoundOnly(err)) continue;
        clean = false;
        log.error({ switch: item.session.name, err: (err as Error).message }, 'rollback of a job update failed');
      }
    }
    return clean;
  }
}

export function writeFailed(err: unknown, jobId: number, sw: string, rolledBack: boolean): InstallError {
  const detail = err instanceof Error ? err.message : String(err);
  const after = rolledBack ? 'what it had written was removed and its resources released' : 'rollback failed too; run reconcile to clean up';
  return new InstallError(E.INSTALL_WRITE_FAILED, `installing job ${jobId} failed (${detail}); ${after}`, sw, { cause: err });
}
