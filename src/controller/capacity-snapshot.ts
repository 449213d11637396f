/**
 * What the allocator holds, as plain data: one record per (job, switch), the
 * same facts the switch's job table and PRE hold (slot base and count,
 * multicast group, worker count). After a controller restart the installer
 * reads those entries back, builds a snapshot from them and restores the
 * allocator, instead of allocating (and installing) twice. A snapshot read
 * from switches may be wrong, so it is checked like user input: ranges
 * within the limits, no overlaps, no group twice, no job twice per switch.
 * Jobs that hold no switch state leave no record.
 */
import type { SwitchLimits } from './capacity-limits.js';
import { ControllerErrorCode as C, type Problem } from './errors.js';
import { RangePool } from './range-pool.js';

export interface SwitchAllocation {
  readonly switch: string;
  readonly jobId: number;
  /** First slot of the job's contiguous range in the switch's pool (0 when it has none). */
  readonly slotBase: number;
  /** 0: no range (an ATP job, which shares the pool). */
  readonly slots: number;
  /** 0: no group (ATP's level 1). */
  readonly multicastGroup: number;
  readonly workers: number;
}

export interface CapacitySnapshot {
  readonly version: 1;
  readonly allocations: readonly SwitchAllocation[];
}

const isCount = (n: unknown, min: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min;

/** Every contradiction in a snapshot, given each switch's limits. */
export function checkSnapshot(snapshot: CapacitySnapshot, limitsOf: (sw: string) => SwitchLimits): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string): void => void problems.push({ code: C.CAPACITY_INCONSISTENT_STATE, path, message });
  if (snapshot?.version !== 1 || !Array.isArray(snapshot.allocations)) {
    add('$', 'a capacity snapshot is { version: 1, allocations: [...] }');
    return problems;
  }
  const slots = new Map<string, RangePool>();
  const groups = new Map<string, Map<number, number>>();
  const jobs = new Map<string, Set<number>>();
  snapshot.allocations.forEach((a, i) => {
    const at = `$.allocations[${i}]`;
    if (typeof a?.switch !== 'string' || !isCount(a.jobId, 0) || !isCount(a.slotBase, 0) || !isCount(a.slots, 0) || !isCount(a.multicastGroup, 0) || !isCount(a.workers, 1)) {
      add(at, 'a record needs switch (text), jobId, slotBase ≥ 0, slots ≥ 0, multicastGroup ≥ 0 (0: none) and workers ≥ 1 (integers)');
      return;
    }
    const limits = limitsOf(a.switch);
    const on = `job ${a.jobId} on ${a.switch}`;
    const jobSet = jobs.get(a.switch) ?? new Set<number>();
    jobs.set(a.switch, jobSet);
    if (jobSet.has(a.jobId)) add(at, `${on} has two records; a job has one range per switch`);
    jobSet.add(a.jobId);
    if (jobSet.size > limits.maxJobs) add(at, `${on} is job number ${jobSet.size} on a switch whose job table holds ${limits.maxJobs}`);
    if (a.workers > limits.maxWorkersPerJob) add(`${at}.workers`, `${on} has ${a.workers} workers; a switch takes at most ${limits.maxWorkersPerJob} per job`);
    const pool = slots.get(a.switch) ?? new RangePool(0, limits.slots - 1);
    slots.set(a.switch, pool);
    if (a.slots === 0) {
      // An ATP job: no range of its own.
    } else if (!pool.contains(a.slotBase, a.slots)) {
      add(`${at}.slotBase`, `${on} holds slots ${a.slotBase}..${a.slotBase + a.slots - 1}, beyond the pool of ${limits.slots}`);
    } else {
      const clash = pool.overlapping(a.slotBase, a.slots);
      if (clash) add(`${at}.slotBase`, `${on} holds slots ${a.slotBase}..${a.slotBase + a.slots - 1}, which overlap slots ${clash.start}..${clash.start + clash.size - 1} of another job`);
      else pool.take(a.slotBase, a.slots);
    }
    if (a.multicastGroup === 0) return;
    const { first, last } = limits.jobGroups;
    if (a.multicastGroup < first || a.multicastGroup > last) add(`${at}.multicastGroup`, `${on} uses multicast group ${a.multicastGroup}, outside the job range ${first}..${last}`);
    const owners = groups.get(a.switch) ?? new Map<number, number>();
    groups.set(a.switch, owners);
    const owner = owners.get(a.multicastGroup);
    if (owner !== undefined && owner !== a.jobId) add(`${at}.multicastGroup`, `${on} uses multicast group ${a.multicastGroup}, which job ${owner} uses too`);
    owners.set(a.multicastGroup, a.jobId);
  });
  return problems;
}
