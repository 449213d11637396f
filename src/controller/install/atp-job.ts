/**
 * Setting up and tearing down one ATP job on the switches of its plan
 * (docs/p4-programs.md §4, "What the controller installs").
 *
 * Setup: check that each aggregating switch runs atp.p4 with the job's
 * values per packet and a pool at least as large as the job's; allocate
 * (job table entries, and a multicast group at each level-0 switch; a
 * CapacityError means nothing was taken and nothing is written); pick a
 * generation per switch (atp-generation.ts); then write: the switch-wide
 * settings where they change (atp-settings.ts), and per switch, level 1
 * first, then each level-0 ToR: the job's leftover aggregators freed (p4ina's
 * switch only, atp-cells.ts), the group, the ack_rewrite entries, and last
 * the atp_jobs entry, which switches the job on there, so that no ACK is
 * multicast before its copies can be addressed. Each step is its own Write,
 * journalled; a failure undoes it all (settings restored) and releases the
 * allocation.
 *
 * Teardown is the reverse: per switch the atp_jobs entry first (the job's
 * packets then pass as plain IPv4), the rewrites, the group, then its
 * aggregators freed; NOT_FOUND is not an error. The settings follow the jobs
 * that remain.
 */
import type { Logger } from '../../log/logger.js';
import { del, insert } from '../../p4runtime/index.js';
import type { CapacityAllocator, JobAllocation } from '../capacity.js';
import { jobDemand } from '../job-demand.js';
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import { clearJobCells } from './atp-cells.js';
import { ATP_NAMES, atpSwitchEntries, type AtpSwitchEntries } from './atp-entries.js';
import type { AtpGenerations } from './atp-generation.js';
import { syncAtpSettings, type AtpSettings } from './atp-settings.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import { deleteAll, installedSession } from './job-entity-writes.js';
import type { SwitchSession } from './switch-session.js';
import { WriteJournal, writeFailed } from './write-journal.js';

export interface AtpJobContext {
  readonly topology: Topology;
  readonly sessions: ReadonlyMap<string, SwitchSession>;
  readonly allocator: CapacityAllocator;
  readonly generations: AtpGenerations;
  readonly log: Logger;
}

export interface AtpInstalledJob {
  readonly algorithm: 'atp';
  /** Undefined for a job found on a switch that no spec asked for (reconcile's "foreign"). */
  readonly spec: JobSpec | undefined;
  readonly plan: RolloutPlan | undefined;
  readonly allocation: JobAllocation;
  /** What was written per switch (level 1 first): exactly what teardown removes. */
  readonly switches: readonly AtpSwitchEntries[];
  /** Aggregators of the job freed before it went live (left by an earlier setup). */
  readonly cellsCleared: number;
}

/** The plan's aggregating switches, level 1 first. */
export function atpSwitchesOf(plan: RolloutPlan): string[] {
  const atp = plan.atp;
  if (!atp) return [];
  return [...(atp.level1 === undefined ? [] : [atp.level1]), ...atp.level0.map((l) => l.switch)];
}

/** The switch's session, checked against the job: atp.p4's tables, its values per packet, a pool large enough. */
function checkedSession(ctx: AtpJobContext, spec: JobSpec, sw: string): SwitchSession {
  const session = ctx.sessions.get(sw);
  const mismatch = (why: string): InstallError => new InstallError(E.INSTALL_PIPELINE_MISMATCH, `job ${spec.id} aggregates here, but ${why}`, sw);
  if (!session) throw new InstallError(E.INSTALL_UNKNOWN_SWITCH, `job ${spec.id} aggregates here, but the installer has no P4Runtime session with this switch`, sw);
  const schema = session.schema;
  const owner = schema.registers.find(ATP_NAMES.owner);
  const values = schema.registers.find(ATP_NAMES.values);
  if (!schema.tables.find(ATP_NAMES.jobs) || !schema.tables.find(ATP_NAMES.ackRewrite) || !owner || !values) {
    throw mismatch(`the switch's program is not atp.p4 (it lacks ${ATP_NAMES.jobs}, ${ATP_NAMES.ackRewrite} or the pool's registers); run p4/atp.p4 on it`);
  }
  const perPacket = values.size / owner.size;
  if (perPacket !== spec.elementsPerPacket) {
    throw mismatch(`its atp.p4 adds ${perPacket} values per packet and the job sends ${spec.elementsPerPacket}; set elements_per_packet to ${perPacket}, or compile atp.p4 with -DATP_VALUES=${spec.elementsPerPacket}`);
  }
  const poolBase = spec.atp?.poolBase ?? 0;
  if (poolBase + spec.poolSize > owner.size) {
    const asked = poolBase === 0 ? `hashes over ${spec.poolSize}` : `hashes over aggregators ${poolBase}..${poolBase + spec.poolSize - 1}`;
    throw mismatch(`its pool has ${owner.size} aggregators and the job ${asked}; set pool_base + pool_size to at most ${owner.size}, or compile atp.p4 with a larger ATP_AGGREGATORS`);
  }
  return session;
}

/** Installs the job on every switch of its plan, or nothing (see the file comment). `settings` are what every atp.p4 switch holds once it runs. */
export async function setupAtpJob(ctx: AtpJobContext, spec: JobSpec, plan: RolloutPlan, settings: AtpSettings | undefined): Promise<AtpInstalledJob> {
  const names = atpSwitchesOf(plan);
  if (names.length === 0) throw new InstallError(E.INSTALL_NOTHING_TO_INSTALL, `job ${spec.id} aggregates on no switch (every worker sends to the parameter server); there is nothing to install`);
  for (const sw of names) checkedSession(ctx, spec, sw);
  const allocation = ctx.allocator.allocate(jobDemand(plan));
  const entries = names.map((sw) => atpSwitchEntries(ctx.topology, spec, plan.atp!, sw, allocation.switches.find((a) => a.switch === sw)!, ctx.generations.next(sw, spec.id)));
  const journal = new WriteJournal();
  let at = names[0]!;
  let cellsCleared = 0;
  try {
    await syncAtpSettings(ctx.sessions, settings, journal);
    for (const e of entries) {
      at = e.switch;
      const session = ctx.sessions.get(e.switch)!;
      cellsCleared += await clearJobCells(session, spec.id);
      if (e.group) await journal.step(session, [insert(e.group)]);
      await journal.step(session, e.rewrites.map(insert));
      await journal.step(session, [insert(e.job)]);
    }
  } catch (err) {
    const clean = await journal.undo(ctx.log);
    ctx.allocator.release(spec.id);
    throw writeFailed(err, spec.id, at, clean);
  }
  ctx.log.info({ job: spec.id, level0: plan.atp!.level0.map((l) => l.switch), level1: plan.atp!.level1, generations: entries.map((e) => e.generation), cellsCleared }, 'ATP job installed');
  return { algorithm: 'atp', spec, plan, allocation, switches: entries, cellsCleared };
}

/** Removes what the job installed, frees its aggregators, releases its capacity, and leaves every atp.p4 switch with `settings`. */
export async function teardownAtpJob(ctx: AtpJobContext, job: Pick<AtpInstalledJob, 'allocation' | 'switches'>, settings: AtpSettings | undefined): Promise<void> {
  let cellsCleared = 0;
  for (const e of [...job.switches].reverse()) {
    const session = installedSession(ctx.sessions, e);
    await deleteAll(session, e.jobId, [del(e.job)]);
    await deleteAll(session, e.jobId, e.rewrites.map(del));
    if (e.group) await deleteAll(session, e.jobId, [del(e.group)]);
    cellsCleared += await clearJobCells(session, e.jobId);
  }
  if (ctx.allocator.has(job.allocation.jobId)) ctx.allocator.release(job.allocation.jobId);
  await syncAtpSettings(ctx.sessions, settings);
  ctx.log.info({ job: job.allocation.jobId, cellsCleared }, 'ATP job removed');
}
