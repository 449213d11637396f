import { describe, expect, test } from 'vitest';
import {
  CapacityAllocator,
  CapacityError,
  DEFAULT_SWITCH_LIMITS,
  type CapacityOptions,
  type CapacitySnapshot,
  type JobDemand,
} from '../../src/controller/index.js';
import { errorOf, problemsOf } from './helpers.js';

/** s1 is small so that it fills up: 16 slots, 3 job entries, job groups 16..18. */
const SMALL: CapacityOptions = { perSwitch: { s1: { slots: 16, maxJobs: 3, jobGroups: { first: 16, last: 18 } } } };

const demand = (jobId: number, ...switches: [string, number, number?][]): JobDemand => ({
  jobId,
  switches: switches.map(([sw, slots, workers]) => ({ switch: sw, slots, workers: workers ?? 2 })),
});

function filled(): CapacityAllocator {
  const a = new CapacityAllocator(SMALL);
  a.allocate(demand(1, ['s1', 4]));
  a.allocate(demand(2, ['s1', 8, 4]));
  a.allocate(demand(3, ['s1', 4], ['s2', 4, 3]));
  return a;
}

function shortfallsOf(fn: () => unknown): unknown[] {
  const error = errorOf(fn);
  expect(error).toBeInstanceOf(CapacityError);
  expect(error.code).toBe('CAPACITY_EXHAUSTED');
  return (error as CapacityError).shortfalls.map((s) => ({ ...s }));
}

describe('allocation', () => {
  test('several jobs get first-fit slot ranges and a multicast group per switch', () => {
    const a = filled();
    expect(a.snapshot()).toEqual({
      version: 1,
      allocations: [
        { switch: 's1', jobId: 1, slotBase: 0, slots: 4, multicastGroup: 16, workers: 2 },
        { switch: 's1', jobId: 2, slotBase: 4, slots: 8, multicastGroup: 17, workers: 4 },
        { switch: 's1', jobId: 3, slotBase: 12, slots: 4, multicastGroup: 18, workers: 2 },
        { switch: 's2', jobId: 3, slotBase: 0, slots: 4, multicastGroup: 16, workers: 3 },
      ],
    });
    expect(a.usage('s1')).toEqual({ slotsFree: 0, largestFreeSlots: 0, groupsFree: 0, jobEntriesFree: 0 });
    expect(a.usage('s2')).toEqual({ slotsFree: 4092, largestFreeSlots: 4092, groupsFree: 65519, jobEntriesFree: 63 });
    expect(a.allocation(3)!.switches.map((s) => s.switch)).toEqual(['s1', 's2']);
  });

  test('the flood range is never given to a job', () => {
    const a = new CapacityAllocator();
    expect(a.allocate(demand(9, ['s1', 1])).switches[0]!.multicastGroup).toBe(DEFAULT_SWITCH_LIMITS.jobGroups.first);
    expect(DEFAULT_SWITCH_LIMITS.floodGroups).toEqual({ first: 1, last: 15 });
  });

  test('a job that does not fit is refused with every shortfall, and nothing is allocated anywhere', () => {
    const a = filled();
    const before = a.snapshot();
    const s2Before = a.usage('s2');
    expect(shortfallsOf(() => a.allocate(demand(4, ['s2', 8], ['s1', 2, 40])))).toEqual([
      { switch: 's1', resource: 'workers', needed: 40, free: 32, limit: 32, largestFree: undefined },
      { switch: 's1', resource: 'job-entries', needed: 1, free: 0, limit: 3, largestFree: undefined },
      { switch: 's1', resource: 'slots', needed: 2, free: 0, limit: 16, largestFree: 0 },
      { switch: 's1', resource: 'multicast-groups', needed: 1, free: 0, limit: 3, largestFree: undefined },
    ]);
    expect(a.snapshot()).toEqual(before);
    expect(a.usage('s2')).toEqual(s2Before);
    expect(a.has(4)).toBe(false);
  });

  test('the refusal says what does not fit and how much is free', () => {
    const a = filled();
    const error = errorOf(() => a.allocate(demand(4, ['s1', 2])));
    expect(error.problems.map((p) => [p.path, p.message])).toEqual([
      ['s1.job-entries', 'job 4 on s1 needs a job table entry and all 3 are in use; release a job'],
      ['s1.slots', 'job 4 on s1 needs 2 slots and 0 are free (longest run 0); release a job or lower pool_size'],
      ['s1.multicast-groups', 'job 4 on s1 needs a multicast group and all 3 of the job range are in use; release a job'],
    ]);
  });

  test('release returns exactly what was taken, and it can be taken again', () => {
    const a = filled();
    const taken = a.allocation(2);
    expect(a.release(2)).toEqual(taken);
    expect(a.has(2)).toBe(false);
    expect(a.usage('s1')).toEqual({ slotsFree: 8, largestFreeSlots: 8, groupsFree: 1, jobEntriesFree: 1 });
    expect(a.allocate(demand(5, ['s1', 8]))).toEqual({ jobId: 5, switches: [{ switch: 's1', jobId: 5, slotBase: 4, slots: 8, multicastGroup: 17, workers: 2 }] });
  });

  test('fragmentation: enough free slots but no run long enough is refused until a neighbour leaves', () => {
    const a = filled();
    a.release(1);
    a.release(3);
    expect(a.usage('s1')).toMatchObject({ slotsFree: 8, largestFreeSlots: 4 });
    expect(shortfallsOf(() => a.allocate(demand(6, ['s1', 8])))).toEqual([{ switch: 's1', resource: 'slots', needed: 8, free: 8, limit: 16, largestFree: 4 }]);
    expect(errorOf(() => a.allocate(demand(6, ['s1', 8]))).message).toBe(
      's1.slots: job 6 on s1 needs 8 contiguous slots; 8 are free but fragmented (the longest free run is 4); release a job or lower pool_size to 4',
    );
    expect(a.allocate(demand(6, ['s1', 4])).switches[0]!.slotBase).toBe(0);
    a.release(6);
    a.release(2);
    expect(a.allocate(demand(6, ['s1', 16])).switches[0]).toMatchObject({ slotBase: 0, slots: 16 });
  });

  test('ATP-shaped demands: no slots, and a group only where asked for; job ids stay unique across algorithms', () => {
    const a = new CapacityAllocator({ perSwitch: { s1: { maxJobs: 2 } } });
    const atp = a.allocate({ jobId: 3, switches: [{ switch: 's1', slots: 0, workers: 4 }, { switch: 's2', slots: 0, workers: 1, multicastGroup: false }] });
    expect(atp.switches).toEqual([
      { switch: 's1', jobId: 3, slotBase: 0, slots: 0, multicastGroup: 16, workers: 4 },
      { switch: 's2', jobId: 3, slotBase: 0, slots: 0, multicastGroup: 0, workers: 1 },
    ]);
    // The slots are all still free, the next group is 17, and job 3 cannot be taken again.
    expect(a.usage('s1')).toMatchObject({ slotsFree: 4096, groupsFree: 65520 - 1, jobEntriesFree: 1 });
    expect(a.allocate({ jobId: 4, switches: [{ switch: 's1', slots: 8, workers: 2 }] }).switches[0]).toMatchObject({ slotBase: 0, multicastGroup: 17 });
    expect(problemsOf(() => a.allocate({ jobId: 3, switches: [] }))).toEqual([['CAPACITY_JOB_EXISTS', 'jobId']]);
    // The job table is full (2 entries): nothing is taken on any switch.
    expect(() => a.allocate({ jobId: 5, switches: [{ switch: 's1', slots: 0, workers: 1 }, { switch: 's2', slots: 0, workers: 1, multicastGroup: false }] })).toThrow(CapacityError);
    expect(a.usage('s2').jobEntriesFree).toBe(63);
    // Released and restored as read back from the switches.
    const restored = CapacityAllocator.restore(a.snapshot(), { perSwitch: { s1: { maxJobs: 2 } } });
    expect(restored.snapshot()).toEqual(a.snapshot());
    expect(a.release(3).switches.map((s) => s.multicastGroup)).toEqual([16, 0]);
    expect(a.usage('s1')).toMatchObject({ slotsFree: 4088, jobEntriesFree: 1 });
  });

  test('a job without switch state holds nothing and releases cleanly', () => {
    const a = new CapacityAllocator();
    expect(a.allocate({ jobId: 11, switches: [] })).toEqual({ jobId: 11, switches: [] });
    expect(a.release(11)).toEqual({ jobId: 11, switches: [] });
  });

  test('misuse: a job twice, an unknown release, a nonsensical demand, bad limits', () => {
    const a = filled();
    expect(problemsOf(() => a.allocate(demand(1, ['s2', 1])))).toEqual([['CAPACITY_JOB_EXISTS', 'jobId']]);
    expect(problemsOf(() => a.release(42))).toEqual([['CAPACITY_UNKNOWN_JOB', 'jobId']]);
    // 0 slots is a job without a range (ATP); a negative count makes no sense.
    expect(problemsOf(() => a.allocate(demand(70000, ['s2', -1], ['s2', 1, 0])))).toEqual([
      ['CAPACITY_BAD_DEMAND', 'jobId'],
      ['CAPACITY_BAD_DEMAND', 'switches[0].slots'],
      ['CAPACITY_BAD_DEMAND', 'switches[1]'],
      ['CAPACITY_BAD_DEMAND', 'switches[1].workers'],
    ]);
    expect(problemsOf(() => new CapacityAllocator({ perSwitch: { s9: { jobGroups: { first: 10, last: 20 }, slots: 0 } } }))).toEqual([
      ['CAPACITY_BAD_LIMITS', 'perSwitch.s9.slots'],
      ['CAPACITY_BAD_LIMITS', 'perSwitch.s9.jobGroups'],
    ]);
  });
});

describe('snapshot and restore (reconciliation after a controller restart)', () => {
  test('restore(snapshot) holds the same and allocates next exactly as the original would', () => {
    const original = filled();
    original.release(2);
    const restored = CapacityAllocator.restore(original.snapshot(), SMALL);
    expect(restored.snapshot()).toEqual(original.snapshot());
    for (const jobId of [1, 3]) expect(restored.allocation(jobId)).toEqual(original.allocation(jobId));
    const next = demand(8, ['s1', 8], ['s2', 4]);
    // By hand, from filled() less job 2: on s1 only slots 4..11 and group 17 are
    // free (first fit: base 4); on s2 job 3 holds slots 0..3 and group 16.
    const expectedNext = {
      jobId: 8,
      switches: [
        { switch: 's1', jobId: 8, slotBase: 4, slots: 8, multicastGroup: 17, workers: 2 },
        { switch: 's2', jobId: 8, slotBase: 4, slots: 4, multicastGroup: 17, workers: 2 },
      ],
    };
    expect(restored.allocate(next)).toEqual(expectedNext);
    expect(original.allocate(next)).toEqual(expectedNext);
    const job3 = {
      jobId: 3,
      switches: [
        { switch: 's1', jobId: 3, slotBase: 12, slots: 4, multicastGroup: 18, workers: 2 },
        { switch: 's2', jobId: 3, slotBase: 0, slots: 4, multicastGroup: 16, workers: 3 },
      ],
    };
    expect(restored.release(3)).toEqual(job3);
    expect(original.release(3)).toEqual(job3);
  });

  test('a snapshot as read back from switches, in any order', () => {
    const readBack: CapacitySnapshot = {
      version: 1,
      allocations: [
        { switch: 's2', jobId: 3, slotBase: 100, slots: 4, multicastGroup: 30, workers: 2 },
        { switch: 's1', jobId: 5, slotBase: 0, slots: 8, multicastGroup: 16, workers: 4 },
        { switch: 's1', jobId: 3, slotBase: 8, slots: 4, multicastGroup: 17, workers: 2 },
      ],
    };
    const a = CapacityAllocator.restore(readBack, SMALL);
    expect(a.allocation(3)!.switches.map((s) => [s.switch, s.slotBase])).toEqual([['s1', 8], ['s2', 100]]);
    expect(a.allocate(demand(6, ['s1', 4], ['s2', 100]))).toEqual({
      jobId: 6,
      switches: [
        { switch: 's1', jobId: 6, slotBase: 12, slots: 4, multicastGroup: 18, workers: 2 },
        { switch: 's2', jobId: 6, slotBase: 0, slots: 100, multicastGroup: 16, workers: 2 },
      ],
    });
  });

  test('contradictions in what was read back are all reported, and no allocator is built', () => {
    const bad = {
      version: 1,
      allocations: [
        { switch: 's1', jobId: 1, slotBase: 0, slots: 8, multicastGroup: 16, workers: 2 },
        { switch: 's1', jobId: 2, slotBase: 4, slots: 4, multicastGroup: 16, workers: 33 },
        { switch: 's1', jobId: 3, slotBase: 14, slots: 4, multicastGroup: 5, workers: 1 },
        { switch: 's1', jobId: 1, slotBase: 8, slots: 1, multicastGroup: 17, workers: 1 },
        { switch: 's2', jobId: 1, slotBase: -1, slots: 1, multicastGroup: 17, workers: 1 },
        { switch: 's1', jobId: 4, slotBase: 9, slots: 1, multicastGroup: 18, workers: 1 },
      ],
    } as CapacitySnapshot;
    expect(problemsOf(() => CapacityAllocator.restore(bad, SMALL))).toEqual([
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[1].workers'],
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[1].slotBase'],
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[1].multicastGroup'],
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[2].slotBase'],
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[2].multicastGroup'],
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[3]'],
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[4]'],
      ['CAPACITY_INCONSISTENT_STATE', '$.allocations[5]'],
    ]);
    expect(problemsOf(() => CapacityAllocator.restore({ version: 2 } as unknown as CapacitySnapshot))).toEqual([['CAPACITY_INCONSISTENT_STATE', '$']]);
  });
});
