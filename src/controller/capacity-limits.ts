/**
 * What one switch can hold for jobs, and the defaults that match
 * p4/switchml.p4: 4096 slots (SWITCHML_SLOTS) shared by every job, 64 jobs
 * (SWITCHML_MAX_JOBS), 32 workers per job (the seen bitmap's width), and
 * multicast group ids split in two: a small range reserved for flooding
 * ordinary traffic (the forwarding plan uses its first id) and the rest for
 * jobs. v1model's `mcast_grp` is 16 bits and 0 means "no multicast", so ids
 * are 1..65535.
 */
import { ControllerErrorCode as C, type Problem } from './errors.js';
import { MAX_POOL_SLOTS, SWITCHML_MAX_WORKERS } from '../wire/index.js';

export interface IdRange {
  readonly first: number;
  readonly last: number;
}

export interface SwitchLimits {
  /** Slots in the switch's pool (register cells / 2: each slot has two copies). */
  readonly slots: number;
  /** Entries of the job table. */
  readonly maxJobs: number;
  /** Workers one job may have at one switch (the bitmap width). */
  readonly maxWorkersPerJob: number;
  /** Multicast group ids jobs may take. */
  readonly jobGroups: IdRange;
  /** Multicast group ids reserved for flooding; never given to a job. */
  readonly floodGroups: IdRange;
}

export const MAX_MULTICAST_GROUP = 0xffff;
/** The group the forwarding plan floods broadcasts through. */
export const DEFAULT_FLOOD_GROUP = 1;

export const DEFAULT_SWITCH_LIMITS: SwitchLimits = Object.freeze({
  slots: 4096,
  maxJobs: 64,
  maxWorkersPerJob: SWITCHML_MAX_WORKERS,
  jobGroups: Object.freeze({ first: 16, last: MAX_MULTICAST_GROUP }),
  floodGroups: Object.freeze({ first: DEFAULT_FLOOD_GROUP, last: 15 }),
});

function integerIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

/** What is wrong with a set of limits (none when they are usable). */
export function limitsProblems(limits: SwitchLimits, path: string): Problem[] {
  const problems: Problem[] = [];
  const add = (field: string, message: string): void => {
    problems.push({ code: C.CAPACITY_BAD_LIMITS, path: `${path}.${field}`, message });
  };
  // The wire's 15-bit slot index addresses at most MAX_POOL_SLOTS slots of one job, but the switch's pool may be larger.
  if (!integerIn(limits.slots, 1, 2 ** 31 - 1)) add('slots', `slots must be a positive integer, not ${limits.slots}`);
  if (!integerIn(limits.maxJobs, 1, 65536)) add('maxJobs', `maxJobs must be an integer from 1 to 65536, not ${limits.maxJobs}`);
  if (!integerIn(limits.maxWorkersPerJob, 1, SWITCHML_MAX_WORKERS)) {
    add('maxWorkersPerJob', `maxWorkersPerJob must be from 1 to ${SWITCHML_MAX_WORKERS} (the bitmap width), not ${limits.maxWorkersPerJob}`);
  }
  for (const key of ['jobGroups', 'floodGroups'] as const) {
    const r = limits[key];
    if (!integerIn(r.first, 1, MAX_MULTICAST_GROUP) || !integerIn(r.last, r.first, MAX_MULTICAST_GROUP)) {
      add(key, `${key} must be a range first..last within 1..${MAX_MULTICAST_GROUP}, not ${r.first}..${r.last}`);
    }
  }
  const j = limits.jobGroups;
  const f = limits.floodGroups;
  if (j.first <= f.last && f.first <= j.last) add('jobGroups', `jobGroups ${j.first}..${j.last} overlap the flood range ${f.first}..${f.last}; keep them apart`);
  return problems;
}

/** Per-job slot counts beyond this cannot be addressed by a 15-bit slot index. */
export const MAX_JOB_SLOTS = MAX_POOL_SLOTS;
