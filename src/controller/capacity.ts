/**
 * The capacity allocator: per switch, a pool of slots (first fit), the
 * multicast group ids jobs may take (the flood range is never handed out),
 * the job table's entries, and the workers one job may have there. A job id
 * holds resources once, whatever its algorithm. ATP jobs ask for no slots
 * (their pool is shared) and for a group only where ACKs are multicast.
 * `allocate` gives a job everything it asks for on every switch or throws a
 * CapacityError listing each shortfall with what is free, having taken
 * nothing; `release` gives back exactly what the job got. `snapshot` and
 * `CapacityAllocator.restore` rebuild the allocator from what is read back
 * from the switches after a controller restart (capacity-snapshot.ts).
 */
import { DEFAULT_SWITCH_LIMITS, limitsProblems, MAX_JOB_SLOTS, type SwitchLimits } from './capacity-limits.js';
import { checkSnapshot, type CapacitySnapshot, type SwitchAllocation } from './capacity-snapshot.js';
import { ControllerError, ControllerErrorCode as C, type Problem } from './errors.js';
import { compareNames } from './names.js';
import { RangePool, type Span } from './range-pool.js';

export interface SwitchDemand {
  readonly switch: string;
  /** Contiguous slots (the job's pool size); 0 for none (ATP: every job shares the switch's pool). */
  readonly slots: number;
  /** Workers aggregated at this switch (each needs a bitmap bit). */
  readonly workers: number;
  /** Whether the job needs a multicast group here (default true; ATP's level 1 does not). */
  readonly multicastGroup?: boolean;
}

export interface JobDemand {
  readonly jobId: number;
  /** At most one entry per switch; empty for jobs without switch state. */
  readonly switches: readonly SwitchDemand[];
}

export interface JobAllocation {
  readonly jobId: number;
  /** By switch name. */
  readonly switches: readonly SwitchAllocation[];
}

export type Resource = 'slots' | 'multicast-groups' | 'job-entries' | 'workers';

/** What did not fit on one switch, with the numbers to act on. */
export interface Shortfall {
  readonly switch: string;
  readonly resource: Resource;
  readonly needed: number;
  /** Free in all (for slots, possibly fragmented). */
  readonly free: number;
  /** How many the switch has in all (slots in the pool, job entries, group ids, workers per job). */
  readonly limit: number;
  /** For slots: the longest free run, which is what a contiguous range needs. */
  readonly largestFree: number | undefined;
}

export class CapacityError extends ControllerError {
  constructor(
    problems: readonly Problem[],
    readonly shortfalls: readonly Shortfall[],
  ) {
    super(problems);
  }
}

export interface CapacityOptions {
  /** Limits of every switch not listed in perSwitch (default: p4/switchml.p4's). */
  readonly defaults?: SwitchLimits;
  readonly perSwitch?: Readonly<Record<string, Partial<SwitchLimits>>>;
}

interface SwitchPools {
  readonly limits: SwitchLimits;
  readonly slots: RangePool;
  readonly groups: RangePool;
  readonly jobs: Set<number>;
}

function describe(s: Shortfall, jobId: number): string {
  const on = `job ${jobId} on ${s.switch}`;
  switch (s.resource) {
    case 'slots':
      return s.free >= s.needed
        ? `${on} needs ${s.needed} contiguous slots; ${s.free} are free but fragmented (the longest free run is ${s.largestFree}); release a job or lower pool_size to ${s.largestFree}`
        : `${on} needs ${s.needed} slots and ${s.free} are free (longest run ${s.largestFree}); release a job or lower pool_size`;
    case 'multicast-groups':
      return `${on} needs a multicast group and all ${s.limit} of the job range are in use; release a job`;
    case 'job-entries':
      return `${on} needs a job table entry and all ${s.limit} are in use; release a job`;
    case 'workers':
      return `${on} has ${s.needed} workers; at most ${s.limit} fit one switch's bitmap; split the job or aggregate per rack`;
  }
}

export class CapacityAllocator {
  private readonly pools = new Map<string, SwitchPools>();
  private readonly jobs = new Map<number, JobAllocation>();

  constructor(private readonly options: CapacityOptions = {}) {
    const problems = limitsProblems(this.options.defaults ?? DEFAULT_SWITCH_LIMITS, 'defaults');
    for (const name of Object.keys(options.perSwitch ?? {})) problems.push(...limitsProblems(this.limitsOf(name), `perSwitch.${name}`));
    if (problems.length > 0) throw new ControllerError(problems);
  }

  limitsOf(sw: string): SwitchLimits {
    return { ...(this.options.defaults ?? DEFAULT_SWITCH_LIMITS), ...(this.options.perSwitch?.[sw] ?? {}) };
  }

  private poolsOf(sw: string): SwitchPools {
    let p = this.pools.get(sw);
    if (!p) {
      const limits = this.limitsOf(sw);
      p = { limits, slots: new RangePool(0, limits.slots - 1), groups: new RangePool(limits.jobGroups.first, limits.jobGroups.last), jobs: new Set() };
      this.pools.set(sw, p);
    }
    return p;
  }

  has(jobId: number): boolean {
    return this.jobs.has(jobId);
  }

  allocation(jobId: number): JobAllocation | undefined {
    return this.jobs.get(jobId);
  }

  /** Free resources of one switch. */
  usage(sw: string): { slotsFree: number; largestFreeSlots: number; groupsFree: number; jobEntriesFree: number } {
    const p = this.poolsOf(sw);
    return { slotsFree: p.slots.free, largestFreeSlots: p.slots.largestFree, groupsFree: p.groups.free, jobEntriesFree: p.limits.maxJobs - p.jobs.size };
  }

  private checkDemand(demand: JobDemand): void {
    const problems: Problem[] = [];
    const bad = (path: string, message: string): void => void problems.push({ code: C.CAPACITY_BAD_DEMAND, path, message });
    if (!Number.isInteger(demand.jobId) || demand.jobId < 0 || demand.jobId > 0xffff) bad('jobId', `a job id is an integer from 0 to 65535, not ${demand.jobId}`);
    const seen = new Set<string>();
    demand.switches.forEach((d, i) => {
      if (seen.has(d.switch)) bad(`switches[${i}]`, `switch ${d.switch} appears twice; ask once per switch`);
      seen.add(d.switch);
      if (!Number.isInteger(d.slots) || d.slots < 0 || d.slots > MAX_JOB_SLOTS) bad(`switches[${i}].slots`, `slots must be an integer from 0 (none) to ${MAX_JOB_SLOTS}, not ${d.slots}`);
      if (!Number.isInteger(d.workers) || d.workers < 1) bad(`switches[${i}].workers`, `workers must be a positive integer, not ${d.workers}`);
    });
    if (problems.length > 0) throw new ControllerError(problems);
    if (this.jobs.has(demand.jobId)) {
      throw ControllerError.of(C.CAPACITY_JOB_EXISTS, 'jobId', `job ${demand.jobId} already holds resources; release it first or use another job id`);
    }
  }

  /**
   * Gives the job everything it asks for, or throws (CapacityError when it does not fit) having taken nothing.
   * `avoidSlots` (by switch) are slots not to hand out this time, e.g. cells an earlier job used on a
   * target that cannot clear them.
   */
  allocate(demand: JobDemand, options: { readonly avoidSlots?: Readonly<Record<string, readonly Span[]>> } = {}): JobAllocation {
    this.checkDemand(demand);
    const shortfalls: Shortfall[] = [];
    const planned: SwitchAllocation[] = [];
    for (const d of [...demand.switches].sort((x, y) => compareNames(x.switch, y.switch))) {
      const p = this.poolsOf(d.switch);
      const short = (resource: Resource, needed: number, free: number, limit: number, largestFree?: number): void =>
        void shortfalls.push({ switch: d.switch, resource, needed, free, limit, largestFree });
      if (d.workers > p.limits.maxWorkersPerJob) short('workers', d.workers, p.limits.maxWorkersPerJob, p.limits.maxWorkersPerJob);
      if (p.jobs.size >= p.limits.maxJobs) short('job-entries', 1, 0, p.limits.maxJobs);
      const slotBase = d.slots === 0 ? 0 : p.slots.findFirstFit(d.slots, options.avoidSlots?.[d.switch]);
      if (slotBase === undefined) short('slots', d.slots, p.slots.free, p.slots.capacity, p.slots.largestFree);
      const group = d.multicastGroup === false ? 0 : p.groups.findFirstFit(1);
      if (group === undefined) short('multicast-groups', 1, 0, p.groups.capacity);
      if (slotBase !== undefined && group !== undefined) {
        planned.push({ switch: d.switch, jobId: demand.jobId, slotBase, slots: d.slots, multicastGroup: group, workers: d.workers });
      }
    }
    if (shortfalls.length > 0) {
      throw new CapacityError(
        shortfalls.map((s) => ({ code: C.CAPACITY_EXHAUSTED, path: `${s.switch}.${s.resource}`, message: describe(s, demand.jobId) })),
        shortfalls,
      );
    }
    return this.commit(demand.jobId, planned);
  }

  private commit(jobId: number, allocations: readonly SwitchAllocation[]): JobAllocation {
    for (const a of allocations) {
      const p = this.poolsOf(a.switch);
      if (a.slots > 0) p.slots.take(a.slotBase, a.slots);
      if (a.multicastGroup > 0) p.groups.take(a.multicastGroup, 1);
      p.jobs.add(jobId);
    }
    const job: JobAllocation = { jobId, switches: [...allocations].sort((x, y) => compareNames(x.switch, y.switch)) };
    this.jobs.set(jobId, job);
    return job;
  }

  /** Gives back everything the job holds and returns it. */
  release(jobId: number): JobAllocation {
    const job = this.jobs.get(jobId);
    if (!job) throw ControllerError.of(C.CAPACITY_UNKNOWN_JOB, 'jobId', `job ${jobId} holds no resources; nothing to release`);
    for (const a of job.switches) {
      const p = this.poolsOf(a.switch);
      if (a.slots > 0) p.slots.release(a.slotBase, a.slots);
      if (a.multicastGroup > 0) p.groups.release(a.multicastGroup, 1);
      p.jobs.delete(jobId);
    }
    this.jobs.delete(jobId);
    return job;
  }

  /** Everything allocated, as plain data (by job id, then switch). */
  snapshot(): CapacitySnapshot {
    const jobs = [...this.jobs.values()].sort((x, y) => x.jobId - y.jobId);
    return { version: 1, allocations: jobs.flatMap((j) => j.switches.map((a) => ({ ...a }))) };
  }

  /** Rebuilds an allocator from a snapshot (e.g. entries read back from the switches); throws CAPACITY_INCONSISTENT_STATE listing every contradiction. */
  static restore(snapshot: CapacitySnapshot, options: CapacityOptions = {}): CapacityAllocator {
    const allocator = new CapacityAllocator(options);
    const problems = checkSnapshot(snapshot, (sw) => allocator.limitsOf(sw));
    if (problems.length > 0) throw new ControllerError(problems);
    const byJob = new Map<number, SwitchAllocation[]>();
    for (const a of snapshot.allocations) byJob.set(a.jobId, [...(byJob.get(a.jobId) ?? []), a]);
    for (const [jobId, allocations] of byJob) allocator.commit(jobId, allocations);
    return allocator;
  }
}
