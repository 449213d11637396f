/**
 * The installer: the controller's part that programs switches. One object
 * per controller run, holding a session with every P4Runtime switch of the
 * topology, the capacity allocator, the record of used cells, the ATP
 * generations it gave, and the jobs it installed. SwitchML jobs go to
 * switchml-job.ts, ATP jobs to atp-job.ts, Rina jobs to rina-job.ts,
 * OmniReduce jobs to omnireduce-job.ts; all share the allocator, so a job id holds switch state once, whatever its
 * algorithm.
 *
 *   const installer = await Installer.connect(topology, { electionId: 1n });
 *   await installer.installForwarding();
 *   await installer.setupJob(job);                // planRollout(topology, job) decides where
 *   await installer.teardownJob(job.id);
 *   await installer.reconcile([job]);             // after a restart, instead of setupJob
 *   await installer.close();
 *
 * Each switch's capacity comes from its P4Info (slots = size of `seen` / 2,
 * jobs = size of the `jobs` table, or of `atp_jobs` on atp.p4, as
 * docs/p4-programs.md says; on rina_tor.p4 its `seen` and `rina_jobs`, as
 * docs/rina.md says; on omnireduce.p4 its `seen` and `omnireduce_jobs`),
 * overridable per switch with `capacity`. ATP
 * plans count a switch as able to aggregate when it is INA-capable and its
 * P4Info has atp.p4's `atp_jobs`.
 */
import type { Logger } from '../../log/logger.js';
import { moduleLogger } from '../../log/logger.js';
import type { ElectionIdInput } from '../../p4runtime/index.js';
import type { SwitchLimits } from '../capacity-limits.js';
import { CapacityAllocator, type CapacityOptions } from '../capacity.js';
import { forwardingPlan, type ForwardingPlanOptions } from '../forwarding-plan.js';
import type { JobSpec } from '../job.js';
import { compareNames } from '../names.js';
import type { RolloutPlan } from '../rollout-plan.js';
import { planRollout, type RolloutOptions } from '../rollout.js';
import { isProgrammable, type Topology } from '../topology.js';
import { ATP_NAMES } from './atp-entries.js';
import { AtpGenerations, type WallClock } from './atp-generation.js';
import { setupAtpJob, teardownAtpJob, type AtpJobContext } from './atp-job.js';
import { atpSettingsFor } from './atp-settings.js';
import { CellHistory } from './cell-history.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import { installForwarding, type ForwardingReport } from './forwarding-install.js';
import { ProgramCache, type ProgramCacheOptions } from './program-cache.js';
import type { AnyInstalledJob } from './installed-job.js';
import { OMNIREDUCE_NAMES } from './omnireduce-entries.js';
import { setupOmniReduceJob, teardownOmniReduceJob } from './omnireduce-job.js';
import { RINA_NAMES } from './rina-entries.js';
import { setupRinaJob, teardownRinaJob } from './rina-job.js';
import { reconcileJobs, type ReconcileOptions, type ReconcileReport } from './reconcile.js';
import type { JobEntryOptions } from './switchml-entries.js';
import { setupJob, teardownJob, type JobContext } from './switchml-job.js';
import { SwitchSession, type SessionCounters } from './switch-session.js';

export interface InstallerOptions {
  /** This controller's election id (default 1); a higher one wins. */
  readonly electionId?: ElectionIdInput;
  /** A shared cache, or options for a new one. */
  readonly programs?: ProgramCache | ProgramCacheOptions;
  /** Per-switch limits over those read from the P4Info. */
  readonly capacity?: Readonly<Record<string, Partial<SwitchLimits>>>;
  readonly forwarding?: ForwardingPlanOptions;
  readonly rollout?: RolloutOptions;
  /**
   * Workers entries check each update's IPv4 source and UDP source port
   * (accept_worker_from), so that a stray or forged update is dropped and
   * counted (default true; false installs accept_worker, which does not).
   */
  readonly checkSource?: boolean;
  readonly rpcTimeoutMs?: number;
  readonly logger?: Logger;
  /** The wall clock ATP generations come from (atp-generation.ts; default Date.now). */
  readonly clock?: WallClock;
}

export class Installer {
  private allocatorValue: CapacityAllocator;
  private readonly installed = new Map<number, AnyInstalledJob>();
  private readonly cells = new CellHistory();
  private readonly generations: AtpGenerations;
  private readonly log: Logger;

  private constructor(
    readonly topology: Topology,
    readonly sessions: ReadonlyMap<string, SwitchSession>,
    private readonly options: InstallerOptions,
  ) {
    this.log = options.logger ?? moduleLogger('controller.install');
    this.generations = new AtpGenerations(options.clock);
    this.allocatorValue = new CapacityAllocator(this.capacityOptions());
    for (const s of sessions.values()) if (s.counters.pipelinePushes > 0) this.cells.markClean(s.name);
  }

  /** Opens a session with every P4Runtime switch (by name), pushing pipelines where needed; closes them all if one fails. */
  static async connect(topology: Topology, options: InstallerOptions = {}): Promise<Installer> {
    const programs = options.programs instanceof ProgramCache ? options.programs : new ProgramCache(options.programs ?? {});
    const sessions = new Map<string, SwitchSession>();
    try {
      for (const sw of [...topology.switches.values()].sort((x, y) => compareNames(x.name, y.name))) {
        if (!isProgrammable(sw)) continue;
        const logger = (options.logger ?? moduleLogger('controller.install')).child({ switch: sw.name });
        const timeout = options.rpcTimeoutMs === undefined ? {} : { rpcTimeoutMs: options.rpcTimeoutMs };
        sessions.set(sw.name, await SwitchSession.open(sw, { electionId: options.electionId ?? 1n, programs, logger, ...timeout }));
      }
    } catch (err) {
      await Promise.allSettled([...sessions.values()].map((s) => s.close()));
      throw err;
    }
    return new Installer(topology, sessions, options);
  }

  get allocator(): CapacityAllocator {
    return this.allocatorValue;
  }

  /** Write requests and updates sent, and pipelines pushed, over all sessions. */
  counters(): SessionCounters {
    const total: SessionCounters = { writes: 0, updates: 0, pipelinePushes: 0 };
    for (const s of this.sessions.values()) {
      total.writes += s.counters.writes;
      total.updates += s.counters.updates;
      total.pipelinePushes += s.counters.pipelinePushes;
    }
    return total;
  }

  /** Installs every switch's forwarding plan (only what is missing or different). */
  async installForwarding(): Promise<ForwardingReport[]> {
    const reports: ForwardingReport[] = [];
    for (const plan of forwardingPlan(this.topology, this.options.forwarding)) {
      const session = this.sessions.get(plan.switch);
      if (session) reports.push(await installForwarding(session, plan));
    }
    return reports;
  }

  /** The rollout plan of a job on this topology. */
  planFor(spec: JobSpec): RolloutPlan {
    const atpCapable = (sw: string): boolean => this.sessions.get(sw)?.schema.tables.find(ATP_NAMES.jobs) !== undefined;
    const omniReduceCapable = (sw: string): boolean => this.sessions.get(sw)?.schema.tables.find(OMNIREDUCE_NAMES.jobs) !== undefined;
    return planRollout(this.topology, spec, { atpCapable, omniReduceCapable, ...this.options.rollout });
  }

  /**
   * Installs a job (idempotent: the same spec again changes nothing; another
   * spec with an installed job's id is INSTALL_JOB_CONFLICT).
   */
  async setupJob(spec: JobSpec, plan: RolloutPlan = this.planFor(spec)): Promise<AnyInstalledJob> {
    const current = this.installed.get(spec.id);
    if (current) {
      if (current.spec !== undefined && JSON.stringify(current.spec) === JSON.stringify(spec)) return current;
      throw new InstallError(E.INSTALL_JOB_CONFLICT, `job ${spec.id} is installed already with another spec; tear it down first`);
    }
    const job =
      spec.algorithm === 'atp'
        ? await setupAtpJob(this.context(), spec, plan, this.atpSettings([spec]))
        : spec.algorithm === 'rina'
          ? await setupRinaJob(this.context(), spec, plan)
          : spec.algorithm === 'omnireduce'
            ? await setupOmniReduceJob(this.context(), spec, plan)
            : await setupJob(this.context(), spec, plan);
    this.installed.set(spec.id, job);
    return job;
  }

  async teardownJob(jobId: number): Promise<void> {
    const job = this.installed.get(jobId);
    if (!job) throw new InstallError(E.INSTALL_UNKNOWN_JOB, `job ${jobId} is not installed by this controller; reconcile first if another run installed it`);
    if (job.algorithm === 'atp') await teardownAtpJob(this.context(), job, this.atpSettings([], jobId));
    else if (job.algorithm === 'rina') await teardownRinaJob(this.context(), job);
    else if (job.algorithm === 'omnireduce') await teardownOmniReduceJob(this.context(), job);
    else await teardownJob(this.context(), job);
    this.installed.delete(jobId);
  }

  jobs(): AnyInstalledJob[] {
    return [...this.installed.values()].sort((a, b) => a.allocation.jobId - b.allocation.jobId);
  }

  /** Forwarding first, then the jobs (see reconcile.ts). Replaces what this installer knew about jobs. */
  async reconcile(specs: readonly JobSpec[], options: ReconcileOptions = {}): Promise<ReconcileReport & { forwarding: ForwardingReport[] }> {
    const forwarding = await this.installForwarding();
    const wanted = specs.map((spec) => ({ spec, plan: this.planFor(spec) }));
    const result = await reconcileJobs(this.context(), wanted, this.capacityOptions(), options);
    this.allocatorValue = result.allocator;
    this.installed.clear();
    for (const [id, job] of result.jobs) this.installed.set(id, job);
    return { ...result.report, forwarding };
  }

  /** Tells the installer that a switch's aggregation cells are clean (e.g. after `register_reset` on BMv2). */
  markCellsClean(sw: string): void {
    this.cells.markClean(sw);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((s) => s.close()));
  }

  /** What atp.p4 switches should hold with the installed jobs' specs, plus `adding`, less `removing`. */
  private atpSettings(adding: readonly JobSpec[], removing?: number): ReturnType<typeof atpSettingsFor> {
    const specs = [...this.installed.values()].flatMap((j) => (j.spec !== undefined && j.allocation.jobId !== removing ? [j.spec] : []));
    return atpSettingsFor([...specs, ...adding]);
  }

  private context(): JobContext & AtpJobContext {
    return {
      topology: this.topology,
      sessions: this.sessions,
      allocator: this.allocatorValue,
      generations: this.generations,
      cells: this.cells,
      entryOptions: { checkSource: this.options.checkSource ?? true } satisfies JobEntryOptions,
      log: this.log,
    };
  }

  private capacityOptions(): CapacityOptions {
    const perSwitch: Record<string, Partial<SwitchLimits>> = {};
    for (const s of this.sessions.values()) {
      const { registers, tables } = s.schema;
      const seen = registers.find('ingress.switchml.seen') ?? registers.find(RINA_NAMES.seen) ?? registers.find(OMNIREDUCE_NAMES.seen);
      const jobs = tables.find('ingress.switchml.jobs') ?? tables.find(ATP_NAMES.jobs) ?? tables.find(RINA_NAMES.jobs) ?? tables.find(OMNIREDUCE_NAMES.jobs);
      perSwitch[s.name] = {
        ...(seen ? { slots: Math.floor(seen.size / 2) } : {}),
        ...(jobs ? { maxJobs: jobs.size } : {}),
        ...(this.options.capacity?.[s.name] ?? {}),
      };
    }
    return { perSwitch };
  }
}
