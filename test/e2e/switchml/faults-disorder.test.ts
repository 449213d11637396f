// Seeded duplication and reordering on the UDP wires between the workers and
// the real switch (an ImpairedRelay in the middle of every wire, both
// directions), and loss, duplication and reordering all at once, with 3 and
// with 8 workers. Reordering is both within a batch and by a bounded delay
// (up to 8 ms), so late updates of old rounds reach the switch. The results
// stay exact over two calls, each round is summed once, and the calls end by
// themselves (support/fault-run.ts).
import { afterEach, describe, test } from 'vitest';
import type { RelayImpairments } from '../../../src/demo/impaired-relay.js';
import { runFaultScenario, type FaultScenario } from './support/fault-run.js';
import { programCache } from './support/network.js';
import type { SwitchMlRig } from './support/rig.js';

const programs = programCache();
const rigs: SwitchMlRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

const reorder: RelayImpairments = { reorder: 0.1, maxDisplacement: 4, delay: 0.05, maxDelayMs: 8 };
const all: RelayImpairments = { loss: 0.05, duplicate: 0.05, ...reorder };
const scenarios: FaultScenario[] = [
  { name: '10% duplication', workers: 3, impairments: { duplicate: 0.1 }, expectSome: ['duplicated'] },
  { name: 'reordering', workers: 3, impairments: reorder, expectSome: ['reordered', 'delayed'] },
  { name: 'all three (5% loss, 5% dup.)', workers: 3, impairments: all, expectSome: ['lost', 'duplicated', 'reordered', 'delayed'] },
  { name: 'all three (5% loss, 5% dup.)', workers: 8, impairments: all, expectSome: ['lost', 'duplicated', 'reordered', 'delayed'] },
];

describe('SwitchML through the real switch under seeded duplication and reordering', () => {
  test.each(scenarios)('$name on every wire, both ways ($workers workers)', (scenario) => runFaultScenario(scenario, programs, rigs), 180_000);
});
