/**
 * Reused cells at setup, for programs whose jobs hold slot ranges
 * (switchml.p4, rina_tor.p4; docs/p4-programs.md §3, "Reusing cells"). The
 * cell history says which slots may hold an earlier job's rounds. On p4ina's
 * switch such slots are cleared over P4Runtime before the job goes live; on
 * targets that cannot write registers (BMv2, Tofino) the allocator is told to
 * avoid them, and a job that fits only on them, or on a switch whose past is
 * unknown, is refused with INSTALL_DIRTY_CELLS.
 */
import { CapacityError, type CapacityAllocator, type JobAllocation, type JobDemand } from '../capacity.js';
import type { CellHistory } from './cell-history.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import type { SwitchSession } from './switch-session.js';

export interface DirtyCellsContext {
  readonly allocator: CapacityAllocator;
  readonly cells: CellHistory;
}

/** What to tell the operator to clear, e.g. "seen and remaining". */
const howToClean = (registers: string): string => `restart the switch (or clear ${registers} with its CLI) and tell the installer with markCellsClean`;

/**
 * Allocates the demand; on switches that cannot clear registers, slots that earlier jobs used are
 * avoided, and when only such slots would fit, the job is refused with INSTALL_DIRTY_CELLS.
 */
export function allocateAvoidingDirtyCells(ctx: DirtyCellsContext, sessions: readonly SwitchSession[], demand: JobDemand, registers: string): JobAllocation {
  const avoidSlots: Record<string, { start: number; size: number }[]> = {};
  for (const s of sessions) {
    const used = s.canWriteRegisters ? undefined : ctx.cells.usedSpans(s.name);
    if (used?.length) avoidSlots[s.name] = used;
  }
  try {
    return ctx.allocator.allocate(demand, { avoidSlots });
  } catch (err) {
    if (!(err instanceof CapacityError) || Object.keys(avoidSlots).length === 0) throw err;
    // Would it fit on used cells? Then say so: restarting the switch (or clearing them) makes room.
    ctx.allocator.release(ctx.allocator.allocate(demand).jobId);
    throw new InstallError(
      E.INSTALL_DIRTY_CELLS,
      `job ${demand.jobId} fits only on slots earlier jobs used, and ${Object.keys(avoidSlots).join(', ')} cannot clear registers over P4Runtime; ${howToClean(registers)}`,
      undefined,
      { cause: err },
    );
  }
}

/**
 * The switches of the allocation whose slots may hold an earlier job's rounds, to be cleared before
 * the job goes live; INSTALL_DIRTY_CELLS when such a switch cannot clear registers. Takes nothing:
 * on a throw the caller still holds (and must release) the allocation.
 */
export function switchesToClear(cells: CellHistory, sessions: ReadonlyMap<string, SwitchSession>, allocation: JobAllocation, registers: string): Set<string> {
  const dirty = new Set<string>();
  for (const a of allocation.switches) {
    if (!cells.mayBeDirty(a.switch, a.slotBase, a.slots)) continue;
    const session = sessions.get(a.switch)!;
    if (!session.canWriteRegisters) {
      throw new InstallError(
        E.INSTALL_DIRTY_CELLS,
        `slots ${a.slotBase}..${a.slotBase + a.slots - 1} may hold an earlier job's rounds and a ${session.sw.target} switch cannot clear registers over P4Runtime; ${howToClean(registers)}`,
        a.switch,
      );
    }
    dirty.add(a.switch);
  }
  return dirty;
}
