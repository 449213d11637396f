/**
 * One fault scenario through the real switch: n workers, an ImpairedRelay on
 * every wire with the same impairments both ways (seeded by the scenario's
 * name), two calls. Checks that each call is exact, that the switch summed
 * each round exactly once from one update per worker (its counters: one
 * result per packet, n − 1 additions to each; duplicates and late copies were
 * dropped or answered, never added), and that the faults did happen.
 */
import { expect } from 'vitest';
import type { RelayImpairments } from '../../../../src/demo/impaired-relay.js';
import type { ProgramCache } from '../../../../src/controller/install/index.js';
import { expectExact, seededTensors } from './exact-results.js';
import { SwitchMlRig } from './rig.js';
import { readSwitchMlCounters } from './switch-readback.js';

export type FaultKind = 'lost' | 'duplicated' | 'reordered' | 'delayed';

export interface FaultScenario {
  readonly name: string;
  readonly workers: number;
  readonly impairments: RelayImpairments;
  /** Faults the relays must report at least once. */
  readonly expectSome: readonly FaultKind[];
}

const LENGTH = 200 * 64 + 17;
const POOL = 32;

/** Runs the scenario; the rig goes to `rigs` at once, for the caller's afterEach to close. */
export async function runFaultScenario(s: FaultScenario, programs: ProgramCache, rigs: SwitchMlRig[]): Promise<void> {
  const { rig, installer } = await SwitchMlRig.start(s.workers, programs, { seed: `faults-${s.name}`, up: s.impairments, down: s.impairments });
  rigs.push(rig);
  const spec = rig.job(3, rig.hosts, POOL);
  await installer.setupJob(spec);
  const fleet = await rig.fleet(spec, rig.hosts);
  let rounds = 0;
  for (const call of [1, 2]) {
    const tensors = seededTensors(s.workers, LENGTH, `faults-${s.name}-${call}`);
    const outcome = await fleet.allreduce(tensors);
    expectExact(outcome.results, tensors);
    rounds += outcome.stats[0]!.packets;
    if (s.impairments.loss) expect(outcome.stats.reduce((sum, st) => sum + st.retransmissions, 0)).toBeGreaterThan(0);
  }
  const counters = await readSwitchMlCounters(installer.sessions.get('s1')!);
  expect(counters).toMatchObject({ results: rounds, aggregated: rounds * (s.workers - 1), unknownJob: 0, slotOutOfRange: 0, unknownWorker: 0 });
  if (s.impairments.duplicate) expect(counters.incompleteRetransmission + counters.retransmittedResults + counters.stale).toBeGreaterThan(0);
  const totals: Record<FaultKind, number> = { lost: 0, duplicated: 0, reordered: 0, delayed: 0 };
  for (const relay of rig.wires.relays) {
    const c = relay!.counters;
    for (const kind of Object.keys(totals) as FaultKind[]) totals[kind] += c[kind];
  }
  // The seeds make the faults happen, the same way every run.
  for (const kind of s.expectSome) expect(totals[kind], kind).toBeGreaterThan(0);
}
