// Two SwitchML jobs at once on one real switch: disjoint slot ranges,
// different worker sets on different ports, different multicast groups. Both
// are exact while they run side by side, and no frame of one job reaches a
// host of the other. A job that does not fit is refused with the
// controller's typed CapacityError while they run, and leaves the switch as
// it was (read back over P4Runtime).
import { afterEach, describe, expect, test } from 'vitest';
import { CapacityError } from '../../../src/controller/index.js';
import { decodeSwitchMl, parseUdpFrame } from '../../../src/wire/index.js';
import { expectExact, seededTensors } from './support/exact-results.js';
import { programCache, type E2eHost } from './support/network.js';
import { SwitchMlRig } from './support/rig.js';
import { readState, readSwitchMlCounters } from './support/switch-readback.js';

const programs = programCache();
const rigs: SwitchMlRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

/** The switch's slots as compiled (SWITCHML_SLOTS). */
const SLOTS = 4096;

describe('two SwitchML jobs on one real switch', () => {
  test('both exact at the same time, neither disturbs the other; a job that does not fit is refused and installs nothing', async () => {
    // Per host: the job ids of the SwitchML frames seen on its wire.
    const seen = new Map<string, Set<number>>();
    const watch = (host: E2eHost, frame: Buffer): boolean => {
      const udp = parseUdpFrame(frame, 0, frame.length, { verifyChecksums: false });
      if (udp.ok) {
        const p = decodeSwitchMl(frame, udp.payloadOffset, udp.payloadOffset + udp.payloadLength);
        if (p.ok) seen.set(host.name, (seen.get(host.name) ?? new Set()).add(p.jobId));
      }
      return true;
    };
    const { rig, installer } = await SwitchMlRig.start(5, programs, { intercept: watch });
    rigs.push(rig);
    const [h1, h2, h3, h4, h5] = rig.hosts as [E2eHost, E2eHost, E2eHost, E2eHost, E2eHost];
    const jobA = rig.job(11, [h1, h2, h3], 16);
    const jobB = rig.job(12, [h4, h5], 8);
    const a = await installer.setupJob(jobA);
    const b = await installer.setupJob(jobB);
    const [allocA] = a.allocation.switches;
    const [allocB] = b.allocation.switches;
    expect(allocA!.slotBase + allocA!.slots <= allocB!.slotBase || allocB!.slotBase + allocB!.slots <= allocA!.slotBase).toBe(true);
    expect(allocA!.multicastGroup).not.toBe(allocB!.multicastGroup);

    const fleetA = await rig.fleet(jobA, [h1, h2, h3]);
    const fleetB = await rig.fleet(jobB, [h4, h5]);
    const tensorsA = seededTensors(3, 400 * 64 + 5, 'job-a');
    const tensorsB = seededTensors(2, 700 * 64 + 33, 'job-b');
    const session = installer.sessions.get('s1')!;
    const runningA = fleetA.allreduce(tensorsA);
    const runningB = fleetB.allreduce(tensorsB);

    // While both run: a job that needs more slots than are left is refused before anything is written.
    const before = await readState(session);
    const writes = installer.counters().writes;
    const tooBig = rig.job(13, [h1, h5], SLOTS - allocA!.slots - allocB!.slots + 1);
    const refusal = await installer.setupJob(tooBig).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(CapacityError);
    expect((refusal as CapacityError).code).toBe('CAPACITY_EXHAUSTED');
    expect((refusal as CapacityError).shortfalls).toMatchObject([{ switch: 's1', resource: 'slots', needed: tooBig.poolSize }]);
    expect(installer.counters().writes).toBe(writes);
    expect(await readState(session)).toEqual(before);
    expect(installer.jobs().map((j) => j.allocation.jobId)).toEqual([11, 12]);

    const [outA, outB] = await Promise.all([runningA, runningB]);
    expectExact(outA.results, tensorsA);
    expectExact(outB.results, tensorsB);
    // Again at once, B twice while A runs once more.
    const againA = seededTensors(3, 400 * 64 + 5, 'job-a-2');
    const againB = [seededTensors(2, 100 * 64 + 1, 'job-b-2'), seededTensors(2, 100 * 64 + 1, 'job-b-3')];
    const runningA2 = fleetA.allreduce(againA);
    for (const t of againB) expectExact((await fleetB.allreduce(t)).results, t);
    expectExact((await runningA2).results, againA);

    expect(Object.fromEntries([...seen].map(([host, jobs]) => [host, [...jobs]]))).toEqual({ h1: [11], h2: [11], h3: [11], h4: [12], h5: [12] });
    // Nothing was dropped for a job, slot or worker the switch did not know.
    expect(await readSwitchMlCounters(session)).toMatchObject({ unknownJob: 0, slotOutOfRange: 0, slotBeyondRegisters: 0, unknownWorker: 0, wrongSource: 0, stale: 0 });
    // After the refusal the job still fits once it is small enough.
    await installer.setupJob(rig.job(13, [h1, h5], SLOTS - allocA!.slots - allocB!.slots));
  }, 180_000);

  test('a job that reuses a finished job’s slots starts clean (the controller clears them) and is exact', async () => {
    const { rig, installer } = await SwitchMlRig.start(5, programs);
    rigs.push(rig);
    const [h1, h2, h3, h4, h5] = rig.hosts as [E2eHost, E2eHost, E2eHost, E2eHost, E2eHost];
    const first = rig.job(15, [h1, h2, h3], 8);
    await installer.setupJob(first);
    const fleet = await rig.fleet(first, [h1, h2, h3]);
    // 3 chunks in a pool of 8: the window is 3, so slots 0..2 are left complete with tsi 3..5, epoch 0.
    const tensors = seededTensors(3, 2 * 64 + 7, 'reuse-1');
    expectExact((await fleet.allreduce(tensors)).results, tensors);
    await fleet.close();
    await installer.teardownJob(15);

    // Another job on the same slots, whose workers start again at epoch 0 and tsi 0: without the
    // reset, its packets 3..5 would find complete rounds with the same (tsi, epoch) and get the old sums back.
    const second = rig.job(16, [h4, h5, h1], 8);
    const installed = await installer.setupJob(second);
    expect(installed.allocation.switches[0]).toMatchObject({ slotBase: 0, slots: 8 });
    // The whole reused range is reset: seen and remaining × two copies × 8 slots.
    expect(installed.cellsCleared).toBe(2 * 2 * 8);
    const fleet2 = await rig.fleet(second, [h4, h5, h1]);
    const again = seededTensors(3, 2 * 64 + 7, 'reuse-2');
    expectExact((await fleet2.allreduce(again)).results, again);
  }, 120_000);
});
