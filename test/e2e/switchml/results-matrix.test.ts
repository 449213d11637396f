// Results through the real switch: p4/switchml.p4 on the emulated switch with
// UDP-wire ports, programmed over gRPC by the controller's Installer, and n
// SwitchML workers on their wires. For n = 1, 2, 3, 4, 8 and tensors whose
// length is not a multiple of the 64-value chunk, every worker gets the same
// bits, equal to the exact quantised sum and within the float64 bound; two
// calls in a row reuse the slots (the second with the next epoch), and the
// switch's counters show one round per packet, each with n contributions.
import { afterEach, describe, expect, test } from 'vitest';
import { programCache } from './support/network.js';
import { expectExact, seededTensors } from './support/exact-results.js';
import { SwitchMlRig } from './support/rig.js';
import { readSwitchMlCounters } from './support/switch-readback.js';

const programs = programCache();
const rigs: SwitchMlRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

const cases: [workers: number, length: number, pool: number][] = [
  [1, 1000 * 64 + 17, 32],
  [2, 1000 * 64 + 17, 32],
  [3, 1000 * 64 + 17, 16],
  [4, 1000 * 64 + 17, 16],
  [8, 1000 * 64 + 17, 8],
];

describe('SwitchML through the real switch: exact results', () => {
  test.each(cases)('%i worker(s), %i elements, pool %i', async (n, length, pool) => {
    const { rig, installer } = await SwitchMlRig.start(n, programs);
    rigs.push(rig);
    const spec = rig.job(1, rig.hosts, pool);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, rig.hosts);
    const tensors = seededTensors(n, length, `matrix-${n}`);
    const first = await fleet.allreduce(tensors);
    expectExact(first.results, tensors);
    // Again with other values: the slots' other sets and the next epoch.
    const again = seededTensors(n, length, `matrix-${n}-again`);
    const second = await fleet.allreduce(again);
    expectExact(second.results, again);
    // The switch did the sums: one round per packet of each call, n − 1 additions to each.
    const rounds = first.stats[0]!.packets + second.stats[0]!.packets;
    expect(await readSwitchMlCounters(installer.sessions.get('s1')!)).toMatchObject({ results: rounds, aggregated: rounds * (n - 1), stale: 0, unknownJob: 0, unknownWorker: 0 });
  }, 180_000);

  test('a tensor shorter than one chunk, and one shorter than the pool', async () => {
    const { rig, installer } = await SwitchMlRig.start(3, programs);
    rigs.push(rig);
    const spec = rig.job(1, rig.hosts, 16);
    await installer.setupJob(spec);
    const fleet = await rig.fleet(spec, rig.hosts);
    // Chunks of 64 values, window w = min(pool 16, chunks), and chunks + w
    // packets per call (the w priming packets first; docs/wire.md):
    //   1 value       -> 1 chunk,  w = 1, 2 packets
    //   63 values     -> 1 chunk,  w = 1, 2 packets
    //   5 * 64 + 1    -> 6 chunks, w = 6, 12 packets
    const expected: [length: number, chunks: number, window: number, packets: number][] = [
      [1, 1, 1, 2],
      [63, 1, 1, 2],
      [5 * 64 + 1, 6, 6, 12],
    ];
    let rounds = 0;
    for (const [length, chunks, window, packets] of expected) {
      const tensors = seededTensors(3, length, `short-${length}`);
      const outcome = await fleet.allreduce(tensors);
      expectExact(outcome.results, tensors);
      expect(outcome.stats).toHaveLength(3);
      for (const s of outcome.stats) expect(s, `length ${length}`).toMatchObject({ chunks, window, packets });
      rounds += packets;
    }
    // The switch answered each round once, from one update of each of the 3 workers.
    expect(await readSwitchMlCounters(installer.sessions.get('s1')!)).toMatchObject({ results: rounds, aggregated: rounds * 2, stale: 0, unknownJob: 0, unknownWorker: 0 });
  }, 120_000);
});
