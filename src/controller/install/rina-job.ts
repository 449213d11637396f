/**
 * Setting up and tearing down one Rina job at the INA ToRs of its plan
 * (docs/rina.md §2, "What the controller installs per job").
 *
 * Setup: check that each INA ToR of the plan runs rina_tor.p4 with the job's
 * values per packet and at least its pool of slots (INSTALL_PIPELINE_MISMATCH
 * otherwise); allocate a slot range (the job's pool size) and a multicast
 * group per ToR (a CapacityError means nothing was taken and nothing is
 * written); decide about reused cells (dirty-cells.ts); then write per ToR,
 * each step its own Write: the group, the rina_rewrite entries, the
 * rina_workers entries, the cells an earlier job used cleared, and last the
 * rina_jobs entry, which switches the job on there, so that nothing is
 * aggregated before its result can be delivered. Every update that succeeded
 * is journalled; a failure undoes it all and releases the allocation.
 *
 * Teardown is the reverse, ToR by ToR: rina_jobs first (the job's packets
 * then pass as plain IPv4), workers and rewrites, then the group; entries
 * already gone (NOT_FOUND) are not an error. The slots were recorded as used
 * at setup, so the next job on them gets them cleared.
 */
import type { JobAllocation } from '../capacity.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import { jobDemand } from '../job-demand.js';
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import { allocateAvoidingDirtyCells, switchesToClear } from './dirty-cells.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import { removeJobEntities, writeJobEntities } from './job-entity-writes.js';
import { RINA_NAMES, rinaCellResets, rinaSwitchEntries, type RinaSwitchEntries } from './rina-entries.js';
import type { SwitchSession } from './switch-session.js';
import type { JobContext } from './switchml-job.js';

/** Where rina_tor.p4 keeps a round's values: RINA_ELEMENTS per cell, two cells per slot. */
const RINA_VALUES = 'ingress.rina.round.values';
/** The registers an operator clears by hand where the installer cannot (messages only). */
const RINA_CELL_REGISTERS = 'seen, pred_seen, remaining and stash_full';

/** SwitchML's context without its entry options: Rina's entries come from the plan alone. */
export type RinaJobContext = Omit<JobContext, 'entryOptions'>;

export interface RinaInstalledJob {
  readonly algorithm: 'rina';
  /** Undefined for a job found on a switch that no spec asked for (reconcile's "foreign"). */
  readonly spec: JobSpec | undefined;
  readonly plan: RolloutPlan | undefined;
  readonly allocation: JobAllocation;
  /** What was written per INA ToR: exactly what teardown removes. */
  readonly switches: readonly RinaSwitchEntries[];
  /** Register cells set to 0 before the job was switched on. */
  readonly cellsCleared: number;
}

/** The ToR's session, checked against the job: rina_tor.p4's tables, its values per packet, slots enough for the pool. */
function checkedSession(ctx: RinaJobContext, spec: JobSpec, sw: string): SwitchSession {
  const session = ctx.sessions.get(sw);
  if (!session) throw new InstallError(E.INSTALL_UNKNOWN_SWITCH, `job ${spec.id} has an INA rack here, but the installer has no P4Runtime session with this switch`, sw);
  const mismatch = (why: string): InstallError => new InstallError(E.INSTALL_PIPELINE_MISMATCH, `job ${spec.id} has an INA rack here, but ${why}`, sw);
  const { tables, registers } = session.schema;
  const seen = registers.find(RINA_NAMES.seen);
  const values = registers.find(RINA_VALUES);
  if (![RINA_NAMES.jobs, RINA_NAMES.workers, RINA_NAMES.rewrite].every((t) => tables.find(t)) || !seen || !values) {
    throw mismatch(`the switch's program is not rina_tor.p4 (it lacks ${RINA_NAMES.jobs}, ${RINA_NAMES.workers}, ${RINA_NAMES.rewrite} or the rounds' registers); run p4/rina_tor.p4 on the ToRs of INA racks, or mark the switch "ina": false`);
  }
  const perPacket = values.size / seen.size;
  if (perPacket !== spec.elementsPerPacket) {
    throw mismatch(`its rina_tor.p4 adds ${perPacket} values per packet and the job sends ${spec.elementsPerPacket}; set elements_per_packet to ${perPacket}, or compile rina_tor.p4 with -DRINA_ELEMENTS=${spec.elementsPerPacket}`);
  }
  const slots = seen.size / 2;
  if (spec.poolSize > slots) {
    throw mismatch(`its rina_tor.p4 has ${slots} slots and the job's pool_size is ${spec.poolSize}; lower pool_size to at most ${slots}, or compile rina_tor.p4 with -DRINA_SLOTS=${spec.poolSize}`);
  }
  return session;
}

/** Installs the job at every INA ToR of its plan, or nothing (see the file comment). */
export async function setupRinaJob(ctx: RinaJobContext, spec: JobSpec, plan: RolloutPlan): Promise<RinaInstalledJob> {
  if (plan.aggregationPoints.length === 0) {
    throw new InstallError(E.INSTALL_NOTHING_TO_INSTALL, `job ${spec.id} has no rack under an INA ToR (its ring is ${plan.ring?.length ?? 0} workers on their own); there is nothing to install`);
  }
  const sessions = plan.aggregationPoints.map((p) => checkedSession(ctx, spec, p.switch));
  const allocation = allocateAvoidingDirtyCells(ctx, sessions, jobDemand(plan), RINA_CELL_REGISTERS);
  const at = (sw: string): SwitchAllocation => allocation.switches.find((a) => a.switch === sw)!;
  let entries: RinaSwitchEntries[];
  let dirty: Set<string>;
  try {
    dirty = switchesToClear(ctx.cells, ctx.sessions, allocation, RINA_CELL_REGISTERS);
    entries = plan.aggregationPoints.map((p) => rinaSwitchEntries(ctx.topology, spec, plan, p.switch, at(p.switch)));
  } catch (err) {
    ctx.allocator.release(spec.id);
    throw err;
  }
  const cellsCleared = await writeJobEntities(ctx, spec.id, entries, dirty, (sw) => rinaCellResets(at(sw)));
  for (const a of allocation.switches) ctx.cells.markUsed(a.switch, a.slotBase, a.slots);
  ctx.log.info({ job: spec.id, tors: entries.map((e) => e.switch), ring: plan.ring?.length, cellsCleared }, 'Rina job installed');
  return { algorithm: 'rina', spec, plan, allocation, switches: entries, cellsCleared };
}

/** Removes what the job installed and releases its capacity. */
export async function teardownRinaJob(ctx: RinaJobContext, job: Pick<RinaInstalledJob, 'allocation' | 'switches'>): Promise<void> {
  for (const e of [...job.switches].reverse()) await removeJobEntities(ctx.sessions, e);
  if (ctx.allocator.has(job.allocation.jobId)) ctx.allocator.release(job.allocation.jobId);
  ctx.log.info({ job: job.allocation.jobId }, 'Rina job removed');
}
