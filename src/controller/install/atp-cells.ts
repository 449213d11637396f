/**
 * Freeing a job's aggregators in the shared pool, on switches that can write
 * registers over P4Runtime (p4ina's): read `owner` and write 0 to every cell
 * whose tag is the job's (`job_id << 16 | sequence`). An owner of 0 is all
 * that makes an aggregator free; whoever takes it next writes every other
 * field (docs/p4-programs.md §4, "Registers").
 *
 * Done while the job has no `atp_jobs` entry on the switch (before setup
 * writes it, after teardown deleted it): the switch then never touches the
 * job's aggregators, and no other job's tag carries this job id, so nothing
 * races with the writes. It is not needed for correctness (the generation
 * and the reclaim time make leftovers harmless, atp-generation.ts); it
 * leaves the pool as it was and frees the aggregators at once instead of
 * after the reclaim time. BMv2 and Tofino cannot write registers over
 * P4Runtime, so there it is skipped.
 */
import { modify, register } from '../../p4runtime/index.js';
import { ATP_NAMES } from './atp-entries.js';
import type { SwitchSession } from './switch-session.js';

/** Cells of `owner` that hold one of the job's tags, by index. */
export async function jobCells(session: SwitchSession, jobId: number): Promise<number[]> {
  const cells = await session.readAll(register(ATP_NAMES.owner));
  return cells
    .filter((c) => Math.floor(Number(c.value) / 0x1_0000) === jobId)
    .map((c) => c.index!)
    .sort((a, b) => a - b);
}

/** Frees every aggregator the job owns on the switch; returns how many (0 where registers cannot be written). */
export async function clearJobCells(session: SwitchSession, jobId: number): Promise<number> {
  if (!session.canWriteRegisters) return 0;
  const cells = await jobCells(session, jobId);
  await session.write(cells.map((index) => modify(register(ATP_NAMES.owner, { index, value: 0 }))));
  return cells.length;
}
