/**
 * Setting up and tearing down one SwitchML job on its aggregating switches.
 *
 * Setup: check the switches and their pipelines (switchml.p4's tables, and
 * the values per packet it was compiled with, read from its P4Info as the
 * size of `values` over that of `seen`, equal to the job's
 * elements_per_packet: INSTALL_PIPELINE_MISMATCH otherwise, since the
 * switch would drop every update of another size), allocate from the
 * CapacityAllocator (a CapacityError means nothing was taken and nothing is
 * written), decide about reused cells (dirty-cells.ts: clear them over
 * P4Runtime on p4ina's switch; on targets that cannot write registers, give
 * the job never-used slots or refuse with INSTALL_DIRTY_CELLS), then write
 * per switch in the documented
 * order: group, result_rewrite, workers, cell resets, jobs (the jobs entry
 * switches the job on, so it goes last). Each step is its own Write. Every
 * update that succeeded is journalled; if a Write fails, the journal is
 * undone in reverse (INSERT → DELETE; cleared cells stay cleared, which
 * harms no one) and the allocation released, and INSTALL_WRITE_FAILED says
 * which update failed.
 *
 * Teardown is the reverse: jobs first (the job's packets are then dropped as
 * unknown), workers and rewrites, then the group; entries already gone
 * (NOT_FOUND) are not an error. The slots were recorded as used at setup.
 */
import type { Logger } from '../../log/logger.js';
import type { CapacityAllocator, JobAllocation } from '../capacity.js';
import { jobDemand } from '../job-demand.js';
import { maxElementsPerPacket, type JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import type { CellHistory } from './cell-history.js';
import { allocateAvoidingDirtyCells, switchesToClear } from './dirty-cells.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import { removeJobEntities, writeJobEntities } from './job-entity-writes.js';
import { cellResets, jobSwitchEntries, SWITCHML_NAMES, type JobEntryOptions, type JobSwitchEntries } from './switchml-entries.js';
import type { SwitchSession } from './switch-session.js';

/** The registers an operator clears by hand where the installer cannot (messages only). */
const SWITCHML_CELL_REGISTERS = 'seen and remaining';
/** Where switchml.p4 keeps a round's sums: SWITCHML_ELEMENTS per cell, as many cells as `seen`. */
const SWITCHML_VALUES = 'ingress.switchml.values';


export interface JobContext {
  readonly topology: Topology;
  readonly sessions: ReadonlyMap<string, SwitchSession>;
  readonly allocator: CapacityAllocator;
  readonly cells: CellHistory;
  readonly entryOptions: JobEntryOptions;
  readonly log: Logger;
}

export interface InstalledJob {
  readonly algorithm: 'switchml';
  /** Undefined for a job found on a switch that no spec asked for (reconcile's "foreign"). */
  readonly spec: JobSpec | undefined;
  readonly plan: RolloutPlan | undefined;
  readonly allocation: JobAllocation;
  /** What was written per switch: exactly what teardown removes. */
  readonly switches: readonly JobSwitchEntries[];
  /** Register cells set to 0 before the job was switched on. */
  readonly cellsCleared: number;
}

/** The session of every switch the plan aggregates on, each running switchml.p4 with the job's values per packet. */
export function sessionsFor(ctx: JobContext, spec: JobSpec, plan: RolloutPlan): SwitchSession[] {
  return plan.aggregationPoints.map((p) => {
    const session = ctx.sessions.get(p.switch);
    if (!session) throw new InstallError(E.INSTALL_UNKNOWN_SWITCH, `job ${plan.jobId} aggregates here, but the installer has no P4Runtime session with this switch`, p.switch);
    for (const name of [SWITCHML_NAMES.jobs, SWITCHML_NAMES.workers, SWITCHML_NAMES.resultRewrite]) {
      if (!session.schema.tables.find(name)) {
        throw new InstallError(E.INSTALL_PIPELINE_MISMATCH, `job ${plan.jobId} aggregates here, but the switch's program has no table ${name}; run p4/switchml.p4 on INA switches`, p.switch);
      }
    }
    checkValuesPerPacket(session, spec);
    return session;
  });
}

/** INSTALL_PIPELINE_MISMATCH unless the switch's switchml.p4 adds the job's elements_per_packet values per packet. */
export function checkValuesPerPacket(session: SwitchSession, spec: JobSpec): void {
  const mismatch = (why: string): InstallError => new InstallError(E.INSTALL_PIPELINE_MISMATCH, `job ${spec.id} aggregates here, but ${why}`, session.name);
  const seen = session.schema.registers.find(SWITCHML_NAMES.seen);
  const values = session.schema.registers.find(SWITCHML_VALUES);
  if (!seen || !values || seen.size === 0) {
    throw mismatch(`the switch's program lacks switchml.p4's registers ${SWITCHML_NAMES.seen} and ${SWITCHML_VALUES}; run p4/switchml.p4 on INA switches`);
  }
  const perPacket = values.size / seen.size;
  if (perPacket !== spec.elementsPerPacket) {
    // switchml.p4 compiles with any count a job spec accepts: 1 up to what fits the MTU.
    const fix = spec.elementsPerPacket <= maxElementsPerPacket('switchml') ? `, or compile switchml.p4 with -DSWITCHML_ELEMENTS=${spec.elementsPerPacket}` : '';
    throw mismatch(`its switchml.p4 adds ${perPacket} values per packet and the job sends ${spec.elementsPerPacket}; set elements_per_packet to ${perPacket}${fix}`);
  }
}

/** Installs the job on every switch of its plan, or nothing (see the file comment). */
export async function setupJob(ctx: JobContext, spec: JobSpec, plan: RolloutPlan): Promise<InstalledJob> {
  const sessions = sessionsFor(ctx, spec, plan);
  if (sessions.length === 0) throw new InstallError(E.INSTALL_NOTHING_TO_INSTALL, `job ${spec.id} aggregates on no switch (${plan.runs} runs on hosts); there is nothing to install`);
  const allocation = allocateAvoidingDirtyCells(ctx, sessions, jobDemand(plan), SWITCHML_CELL_REGISTERS);
  let entries: JobSwitchEntries[];
  let dirty: Set<string>;
  try {
    dirty = switchesToClear(ctx.cells, ctx.sessions, allocation, SWITCHML_CELL_REGISTERS);
    entries = plan.aggregationPoints.map((point) => jobSwitchEntries(ctx.topology, spec, point, allocation.switches.find((s) => s.switch === point.switch)!, ctx.entryOptions));
  } catch (err) {
    ctx.allocator.release(spec.id);
    throw err;
  }
  const cellsCleared = await writeJobEntities(ctx, spec.id, entries, dirty, (sw) => cellResets(allocation.switches.find((s) => s.switch === sw)!));
  for (const a of allocation.switches) ctx.cells.markUsed(a.switch, a.slotBase, a.slots);
  ctx.log.info({ job: spec.id, switches: allocation.switches.map((a) => a.switch), cellsCleared }, 'job installed');
  return { algorithm: 'switchml', spec, plan, allocation, switches: entries, cellsCleared };
}

/** Removes what the job installed and releases its capacity. */
export async function teardownJob(ctx: JobContext, job: Pick<InstalledJob, 'allocation' | 'switches'>): Promise<void> {
  for (const e of job.switches) await removeJobEntities(ctx.sessions, e);
  if (ctx.allocator.has(job.allocation.jobId)) ctx.allocator.release(job.allocation.jobId);
  ctx.log.info({ job: job.allocation.jobId }, 'job removed');
}
