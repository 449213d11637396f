// Seeded loss on the UDP wires between the workers and the real switch (an
// ImpairedRelay in the middle of every wire, both directions): 1%, 5% and
// 10%. The results stay exact (bit-identical on every worker, the exact
// quantised sum, within the float64 bound) over two calls, each round is
// summed once, and the calls end by themselves: the workers' own retry limit
// bounds them (support/fault-run.ts).
import { afterEach, describe, test } from 'vitest';
import { runFaultScenario, type FaultScenario } from './support/fault-run.js';
import { programCache } from './support/network.js';
import type { SwitchMlRig } from './support/rig.js';

const programs = programCache();
const rigs: SwitchMlRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

const scenarios: FaultScenario[] = [0.01, 0.05, 0.1].map((loss) => ({ name: `${loss * 100}% loss`, workers: 3, impairments: { loss }, expectSome: ['lost'] }));

describe('SwitchML through the real switch under seeded loss', () => {
  test.each(scenarios)('$name on every wire, both ways ($workers workers)', (scenario) => runFaultScenario(scenario, programs, rigs), 180_000);
});
