/**
 * Reconciliation: what a (re)started controller does instead of installing
 * blindly. It reads every INA switch's job state back (job-state-read.ts for
 * switchml.p4, atp-state-read.ts for atp.p4, rina-state-read.ts for
 * rina_tor.p4), rebuilds the capacity allocator from the job entries it
 * finds, and compares each wanted job with what is there (ATP jobs by
 * atp-reconcile.ts, whatever their generation; Rina jobs by
 * rina-reconcile.ts):
 *
 *   unchanged    on every switch of its plan, with exactly the entries the
 *                spec gives (with the slot range and group read back): no write
 *   installed    on no switch (a restarted switch comes back empty): set up anew
 *   reinstalled  on some switches of its plan only: the rest is removed and
 *                the job set up anew
 *   replaced     there with different entries, and `replace` was asked for:
 *                torn down and set up from the spec
 *   hostOnly     its plan uses no switch: any entries of it are removed
 *   foreign      on a switch but not asked for: left running, its resources
 *                held, and teardownJob can remove it
 *
 * A job whose entries differ from its spec is an error (INSTALL_JOB_CONFLICT,
 * listing every such job, raised before anything is written) unless
 * `replace` is set: replacing a running job disturbs its workers, so the
 * caller decides. Leftovers of an interrupted setup or teardown (workers or
 * rewrite entries without a jobs entry, job-range groups nobody names) are
 * removed. A job id held by switch state of another kind than the spec's
 * algorithm (a SwitchML job where an ATP job is wanted) is reinstalled. Last,
 * every atp.p4 switch gets the settings the wanted ATP jobs call for
 * (atp-settings.ts), written only where they differ.
 */
import { del } from '../../p4runtime/index.js';
import { CapacityAllocator, type CapacityOptions } from '../capacity.js';
import type { SwitchAllocation } from '../capacity-snapshot.js';
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import { jobEntitiesSignature } from './entity-signature.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import { readJobState, type SwitchJobState } from './job-state-read.js';
import { jobSwitchEntries } from './switchml-entries.js';
import { setupJob, teardownJob, type JobContext } from './switchml-job.js';
import { foundIn } from './switch-state-read.js';
import { compareAtpJob, type AtpComparison } from './atp-reconcile.js';
import { setupAtpJob, teardownAtpJob, type AtpJobContext } from './atp-job.js';
import { atpSettingsFor, syncAtpSettings } from './atp-settings.js';
import { readAtpState, type AtpSwitchState } from './atp-state-read.js';
import { ATP_NAMES } from './atp-entries.js';
import type { AnyInstalledJob } from './installed-job.js';
import { RINA_NAMES } from './rina-entries.js';
import { setupRinaJob, teardownRinaJob, type RinaJobContext } from './rina-job.js';
import { compareRinaJob, type RinaComparison } from './rina-reconcile.js';
import { readRinaState, type RinaSwitchState } from './rina-state-read.js';

export interface ReconcileOptions {
  /** Replace jobs whose entries differ from their spec instead of refusing. */
  readonly replace?: boolean;
}

export interface ReconcileReport {
  readonly unchanged: readonly number[];
  readonly installed: readonly number[];
  readonly reinstalled: readonly number[];
  readonly replaced: readonly number[];
  readonly foreign: readonly number[];
  /** Jobs whose plan uses no switch (they run on hosts): nothing installed, and any switch state of theirs removed. */
  readonly hostOnly: readonly number[];
  /** Leftover entries and groups removed. */
  readonly orphansRemoved: number;
}

export interface WantedJob {
  readonly spec: JobSpec;
  readonly plan: RolloutPlan;
}

type Verdict = 'unchanged' | 'installed' | 'reinstalled' | 'replaced' | 'hostOnly';

export async function reconcileJobs(
  ctx: JobContext & Pick<AtpJobContext, 'generations'>,
  wanted: readonly WantedJob[],
  capacity: CapacityOptions,
  options: ReconcileOptions = {},
): Promise<{ allocator: CapacityAllocator; jobs: Map<number, AnyInstalledJob>; report: ReconcileReport }> {
  const jobGroups = (sw: string) => new CapacityAllocator(capacity).limitsOf(sw).jobGroups;
  const states: SwitchJobState[] = [];
  const atpStates: AtpSwitchState[] = [];
  const rinaStates: RinaSwitchState[] = [];
  for (const session of ctx.sessions.values()) {
    if (session.schema.tables.find('ingress.switchml.jobs')) states.push(await readJobState(session, jobGroups(session.name)));
    if (session.schema.tables.find(ATP_NAMES.jobs)) atpStates.push(await readAtpState(session, jobGroups(session.name)));
    if (session.schema.tables.find(RINA_NAMES.jobs)) rinaStates.push(await readRinaState(session, jobGroups(session.name)));
  }
  const allocations: SwitchAllocation[] = [...states, ...atpStates, ...rinaStates].flatMap((s) => [...s.jobs.values()].map((f) => f.allocation));
  const allocator = CapacityAllocator.restore({ version: 1, allocations }, capacity);
  const jctx: JobContext = { ...ctx, allocator };
  const actx: AtpJobContext = { ...ctx, allocator };
  const rctx: RinaJobContext = { ...ctx, allocator };
  /** Whether switch state of another kind than `kind` holds the job id (it goes, and the job is set up anew). */
  const elsewhere = (id: number, kind: AnyInstalledJob['algorithm']): boolean =>
    (kind !== 'switchml' && foundIn(states, id).length > 0) || (kind !== 'atp' && foundIn(atpStates, id).length > 0) || (kind !== 'rina' && foundIn(rinaStates, id).length > 0);
  for (const s of atpStates) for (const f of s.jobs.values()) ctx.generations.remember(s.switch, f.allocation.jobId, f.entries.generation);

  const verdicts = new Map<number, Verdict>();
  /** Jobs found as their spec says: kept as they are. */
  const adopted = new Map<number, AnyInstalledJob>();
  const conflicts: string[] = [];
  for (const { spec, plan } of wanted) {
    const held = () => ({ spec, plan, allocation: allocator.allocation(spec.id)!, cellsCleared: 0 });
    if (spec.algorithm === 'atp' || spec.algorithm === 'rina') {
      let c: AtpComparison | RinaComparison;
      if (spec.algorithm === 'atp') {
        const a = (c = compareAtpJob(ctx.topology, ctx.sessions, spec, plan, atpStates));
        if (a.verdict === 'unchanged') adopted.set(spec.id, { ...held(), algorithm: 'atp', switches: a.entries });
      } else {
        const r = (c = compareRinaJob(ctx.topology, ctx.sessions, spec, plan, rinaStates));
        if (r.verdict === 'unchanged') adopted.set(spec.id, { ...held(), algorithm: 'rina', switches: r.entries });
      }
      if (c.verdict === 'differs') {
        if (options.replace) verdicts.set(spec.id, 'replaced');
        else conflicts.push(`job ${spec.id} on ${c.switches.join(', ')}`);
        continue;
      }
      verdicts.set(spec.id, c.verdict === 'installed' && elsewhere(spec.id, spec.algorithm) ? 'reinstalled' : c.verdict);
      continue;
    }
    const here = foundIn(states, spec.id);
    const points = plan.aggregationPoints;
    if (points.length === 0) {
      verdicts.set(spec.id, 'hostOnly');
      continue;
    }
    if (here.length === 0) {
      verdicts.set(spec.id, elsewhere(spec.id, 'switchml') ? 'reinstalled' : 'installed');
      continue;
    }
    const sameSwitches = here.length === points.length && points.every((p) => here.some((f) => f.allocation.switch === p.switch));
    if (!sameSwitches) {
      verdicts.set(spec.id, 'reinstalled');
      continue;
    }
    const mine = points.map((p) => {
      const f = here.find((h) => h.allocation.switch === p.switch)!;
      // The spec's pool size, not the one read back: a job whose pool changed differs.
      return { f, want: jobSwitchEntries(ctx.topology, spec, p, { ...f.allocation, slots: spec.poolSize }, ctx.entryOptions) };
    });
    const differs = mine.filter(({ f, want }) => !f.hasGroup || jobEntitiesSignature(ctx.sessions.get(f.allocation.switch)!.schema, f.entries) !== jobEntitiesSignature(ctx.sessions.get(f.allocation.switch)!.schema, want));
    if (differs.length === 0) {
      verdicts.set(spec.id, 'unchanged');
      adopted.set(spec.id, { ...held(), algorithm: 'switchml', switches: mine.map((m) => m.want) });
    } else if (options.replace) {
      verdicts.set(spec.id, 'replaced');
    } else {
      conflicts.push(`job ${spec.id} on ${differs.map((d) => d.f.allocation.switch).join(', ')}`);
    }
  }
  if (conflicts.length > 0) {
    throw new InstallError(
      E.INSTALL_JOB_CONFLICT,
      `the switches hold jobs whose entries differ from their specs: ${conflicts.join('; ')}; tear them down first, or reconcile with { replace: true }`,
    );
  }

  let orphansRemoved = 0;
  for (const s of [...states, ...atpStates, ...rinaStates]) {
    // Entries before groups: an entry may name a group; a separate Write keeps that order.
    const session = ctx.sessions.get(s.switch)!;
    await session.write(s.orphanEntries.map(del));
    await session.write(s.orphanGroups.map(del));
    orphansRemoved += s.orphanEntries.length + s.orphanGroups.length;
  }

  const jobs = new Map<number, AnyInstalledJob>();
  for (const f of [...states, ...rinaStates].flatMap((s) => [...s.jobs.values()])) ctx.cells.markUsed(f.allocation.switch, f.allocation.slotBase, f.allocation.slots);
  const wantedIds = new Set(wanted.map((w) => w.spec.id));
  const foreign = [...new Set(allocations.map((a) => a.jobId))].filter((id) => !wantedIds.has(id)).sort((a, b) => a - b);
  for (const id of foreign) {
    const held = { spec: undefined, plan: undefined, allocation: allocator.allocation(id)!, cellsCleared: 0 };
    const atpFound = foundIn(atpStates, id);
    const rinaFound = foundIn(rinaStates, id);
    jobs.set(
      id,
      atpFound.length > 0
        ? { ...held, algorithm: 'atp', switches: atpFound.map((f) => f.entries) }
        : rinaFound.length > 0
          ? { ...held, algorithm: 'rina', switches: rinaFound.map((f) => f.entries) }
          : { ...held, algorithm: 'switchml', switches: foundIn(states, id).map((f) => f.entries) },
    );
  }
  const settings = atpSettingsFor(wanted.map((w) => w.spec));
  for (const { spec, plan } of wanted) {
    const verdict = verdicts.get(spec.id)!;
    if (verdict === 'unchanged') {
      jobs.set(spec.id, adopted.get(spec.id)!);
      continue;
    }
    const leftovers = foundIn(states, spec.id);
    if (leftovers.length > 0) await teardownJob(jctx, { allocation: allocator.allocation(spec.id)!, switches: leftovers.map((f) => f.entries) });
    const atpLeftovers = foundIn(atpStates, spec.id);
    if (atpLeftovers.length > 0) await teardownAtpJob(actx, { allocation: allocator.allocation(spec.id) ?? { jobId: spec.id, switches: [] }, switches: atpLeftovers.map((f) => f.entries) }, settings);
    const rinaLeftovers = foundIn(rinaStates, spec.id);
    if (rinaLeftovers.length > 0) await teardownRinaJob(rctx, { allocation: allocator.allocation(spec.id) ?? { jobId: spec.id, switches: [] }, switches: rinaLeftovers.map((f) => f.entries) });
    if (verdict === 'hostOnly') continue;
    jobs.set(
      spec.id,
      spec.algorithm === 'atp' ? await setupAtpJob(actx, spec, plan, settings) : spec.algorithm === 'rina' ? await setupRinaJob(rctx, spec, plan) : await setupJob(jctx, spec, plan),
    );
  }
  await syncAtpSettings(ctx.sessions, settings);
  const ids = (v: Verdict) => wanted.filter((w) => verdicts.get(w.spec.id) === v).map((w) => w.spec.id);
  return {
    allocator,
    jobs,
    report: { unchanged: ids('unchanged'), installed: ids('installed'), reinstalled: ids('reinstalled'), replaced: ids('replaced'), hostOnly: ids('hostOnly'), foreign, orphansRemoved },
  };
}
