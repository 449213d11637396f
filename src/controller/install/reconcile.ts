/**
 * Reconciliation: what a (re)started controller does instead of installing
 * blindly. It reads every INA switch's job state back (reconcile-states.ts:
 * switchml.p4, atp.p4, rina_tor.p4 and omnireduce.p4 switches), rebuilds the
 * capacity allocator from the job entries it finds, and compares each wanted
 * job with what is there (reconcile-compare.ts; ATP jobs whatever their
 * generation):
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
import { CapacityAllocator, type CapacityOptions } from '../capacity.js';
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import { setupAtpJob, type AtpJobContext } from './atp-job.js';
import { atpSettingsFor, syncAtpSettings } from './atp-settings.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import type { AnyInstalledJob } from './installed-job.js';
import { setupOmniReduceJob } from './omnireduce-job.js';
import { compareWanted, kindOf } from './reconcile-compare.js';
import { foreignJob, foundAllocations, kindsHolding, markFoundCellsUsed, readReconcileStates, removeFoundJob, removeOrphans } from './reconcile-states.js';
import { setupRinaJob } from './rina-job.js';
import { setupJob, type JobContext } from './switchml-job.js';

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
  const states = await readReconcileStates(ctx.sessions, (sw) => new CapacityAllocator(capacity).limitsOf(sw).jobGroups);
  const allocations = foundAllocations(states);
  const allocator = CapacityAllocator.restore({ version: 1, allocations }, capacity);
  const jctx: JobContext & AtpJobContext = { ...ctx, allocator };
  for (const s of states.atp) for (const f of s.jobs.values()) ctx.generations.remember(s.switch, f.allocation.jobId, f.entries.generation);

  const verdicts = new Map<number, Verdict>();
  /** Jobs found as their spec says: kept as they are. */
  const adopted = new Map<number, AnyInstalledJob>();
  const conflicts: string[] = [];
  for (const { spec, plan } of wanted) {
    const c = compareWanted(ctx, allocator, states, spec, plan);
    if (c.verdict === 'differs') {
      if (options.replace) verdicts.set(spec.id, 'replaced');
      else conflicts.push(`job ${spec.id} on ${c.switches.join(', ')}`);
      continue;
    }
    if (c.verdict === 'unchanged') adopted.set(spec.id, c.job);
    // A job id held by switch state of another kind goes, and the job is set up anew.
    const elsewhere = kindsHolding(states, spec.id).some((k) => k !== kindOf(spec));
    verdicts.set(spec.id, c.verdict === 'installed' && elsewhere ? 'reinstalled' : c.verdict);
  }
  if (conflicts.length > 0) {
    throw new InstallError(
      E.INSTALL_JOB_CONFLICT,
      `the switches hold jobs whose entries differ from their specs: ${conflicts.join('; ')}; tear them down first, or reconcile with { replace: true }`,
    );
  }

  const orphansRemoved = await removeOrphans(states, ctx.sessions);
  const jobs = new Map<number, AnyInstalledJob>();
  markFoundCellsUsed(states, ctx.cells);
  const wantedIds = new Set(wanted.map((w) => w.spec.id));
  const foreign = [...new Set(allocations.map((a) => a.jobId))].filter((id) => !wantedIds.has(id)).sort((a, b) => a - b);
  for (const id of foreign) jobs.set(id, foreignJob(states, id, allocator.allocation(id)!));
  const settings = atpSettingsFor(wanted.map((w) => w.spec));
  for (const { spec, plan } of wanted) {
    const verdict = verdicts.get(spec.id)!;
    if (verdict === 'unchanged') {
      jobs.set(spec.id, adopted.get(spec.id)!);
      continue;
    }
    await removeFoundJob(jctx, states, spec.id, settings);
    if (verdict === 'hostOnly') continue;
    const kind = kindOf(spec);
    jobs.set(
      spec.id,
      kind === 'atp'
        ? await setupAtpJob(jctx, spec, plan, settings)
        : kind === 'rina'
          ? await setupRinaJob(jctx, spec, plan)
          : kind === 'omnireduce'
            ? await setupOmniReduceJob(jctx, spec, plan)
            : await setupJob(jctx, spec, plan),
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
