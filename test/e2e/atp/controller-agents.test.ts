// ATP end to end: p4/atp.p4 compiled by p4ina's front end, run by real
// switches in this process on UDP wires, programmed over P4Runtime/gRPC by
// the controller from a job spec (forwarding, then the job: its levels,
// groups, rewrites and settings), and the ATP agents (src/agent/atp) set up
// from the controller's plan (atpAgentConfigs) reducing seeded tensors.
// Every result is checked against the exact fixed-point sum and the float64
// reference (test/agent/atp/helpers/numbers.ts, from docs/atp.md), and is
// bit-identical on every worker; the switches' outcome counters and the PS's
// statistics show where the aggregation happened.
import { afterEach, describe, expect, test } from 'vitest';
import { sameBits } from '../../../src/agent/baseline/accuracy.js';
import { defineJob, type JobSpec } from '../../../src/controller/index.js';
import type { AtpInstalledJob, Installer } from '../../../src/controller/install/index.js';
import { counter, register } from '../../../src/p4runtime/index.js';
import { atpTensors, checkAtp } from '../../agent/atp/helpers/numbers.js';
import { startAtpJob, type AtpRunOutcome } from './support/atp-run.js';
import { Fabric, POOL, VALUES, type FabricSpec } from './support/fabric.js';

const fabrics: Fabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

/** docs/p4-programs.md §4, atp_outcomes: 2 completed (the aggregate went on), 4 collision. */
const COMPLETED = 2;

async function outcomes(installer: Installer, sw: string): Promise<number[]> {
  const cells = await installer.sessions.get(sw)!.readAll(counter('ingress.atp.atp_outcomes'));
  return cells.sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((c) => Number(c.data?.packetCount ?? 0));
}

async function ownedCells(installer: Installer, sw: string): Promise<number> {
  return (await installer.sessions.get(sw)!.readAll(register('ingress.atp.owner'))).filter((c) => Number(c.value) !== 0).length;
}

function job(id: number, workers: readonly string[], ps: string, firstPort = 0xbf01): JobSpec {
  return defineJob({
    id,
    algorithm: 'atp',
    workers: workers.map((host, rank) => ({ rank, host, udpPort: firstPort + rank })),
    parameterServer: { host: ps, udpPort: 0xbf00 },
    poolSize: POOL,
    elementsPerPacket: VALUES,
    atp: { window: 32 },
  });
}

function expectExact(outcome: AtpRunOutcome, tensors: readonly Float32Array[]): void {
  for (const r of outcome.results) expect(sameBits(r, outcome.results[0]!)).toBe(true);
  expect(checkAtp(outcome.results[0]!, tensors, VALUES)).toMatchObject({ inexact: 0, boundViolations: 0 });
}

const LENGTH = 1000 * VALUES + 7;
const PACKETS = Math.ceil(LENGTH / VALUES);

/** r1 = s1 {h1, h2}, r2 = s2 {h3, h4}, r3 = s3 {h5: the PS}; spine s4 on every ToR's port 3. */
const leafSpine = (s2: 'atp' | 'forward', s2Ina: boolean): FabricSpec => ({
  switches: [
    { name: 's1', program: 'atp', ina: true, role: 'tor' },
    { name: 's2', program: s2, ina: s2Ina, role: 'tor' },
    { name: 's3', program: 'forward', ina: false, role: 'tor' },
    { name: 's4', program: 'atp', ina: true, role: 'spine' },
  ],
  hosts: [
    { name: 'h1', switch: 's1', port: 1 },
    { name: 'h2', switch: 's1', port: 2 },
    { name: 'h3', switch: 's2', port: 1 },
    { name: 'h4', switch: 's2', port: 2 },
    { name: 'h5', switch: 's3', port: 1 },
  ],
  links: [
    [['s1', 3], ['s4', 1]],
    [['s2', 3], ['s4', 2]],
    [['s3', 3], ['s4', 3]],
  ],
});

describe('ATP through the controller and real switches', () => {
  test('one switch: level 0 aggregates the four workers, exact; teardown leaves no job and no owned aggregator', async () => {
    const fabric = await Fabric.start({
      switches: [{ name: 's1', program: 'atp', ina: true, role: 'tor' }],
      hosts: ['h1', 'h2', 'h3', 'h4', 'h5'].map((name, i) => ({ name, switch: 's1', port: i + 1 })),
      links: [],
    });
    fabrics.push(fabric);
    const installer = await fabric.controller();
    const spec = job(1, ['h1', 'h2', 'h3', 'h4'], 'h5');
    const installed = (await installer.setupJob(spec)) as AtpInstalledJob;
    expect(installed.switches.map((e) => [e.switch, e.level])).toEqual([['s1', 0]]);
    const tensors = atpTensors(4, LENGTH, 'e2e-one-switch');
    const outcome = await (await startAtpJob(fabric, spec, installed.plan!, tensors)).outcome;
    expectExact(outcome, tensors);
    expect(outcome.ps.completed).toBe(PACKETS);
    // The switch completed aggregates; what it did not (window positions sharing an aggregator collide) the PS summed.
    const s1 = await outcomes(installer, 's1');
    expect(s1[COMPLETED]).toBeGreaterThan(0);
    expect(outcome.ps.completedByOnePiece).toBeGreaterThan(0);
    expect(outcome.ps.completedByOnePiece + outcome.ps.completedInSoftware).toBe(PACKETS);
    await installer.teardownJob(1);
    expect(await ownedCells(installer, 's1')).toBe(0);
  }, 180_000);

  test('leaf-spine: both ToRs at level 0, the spine at level 1, exact; the PS gets level-1 aggregates', async () => {
    const fabric = await Fabric.start(leafSpine('atp', true));
    fabrics.push(fabric);
    const installer = await fabric.controller();
    const spec = job(2, ['h1', 'h2', 'h3', 'h4'], 'h5');
    const installed = (await installer.setupJob(spec)) as AtpInstalledJob;
    expect(installed.switches.map((e) => [e.switch, e.level])).toEqual([
      ['s4', 1],
      ['s1', 0],
      ['s2', 0],
    ]);
    const tensors = atpTensors(4, LENGTH, 'e2e-two-levels');
    const outcome = await (await startAtpJob(fabric, spec, installed.plan!, tensors)).outcome;
    expectExact(outcome, tensors);
    expect(outcome.ps.completed).toBe(PACKETS);
    for (const sw of ['s1', 's2', 's4']) expect((await outcomes(installer, sw))[COMPLETED]).toBeGreaterThan(0);
    expect(outcome.ps.level1Aggregates).toBeGreaterThan(0);
  }, 180_000);

  test('a mixed fabric: a legacy ToR (forward.p4), its workers summed with the other rack at the spine, exact', async () => {
    const fabric = await Fabric.start(leafSpine('forward', false));
    fabrics.push(fabric);
    const installer = await fabric.controller();
    const spec = job(3, ['h1', 'h2', 'h3', 'h4'], 'h5');
    const installed = (await installer.setupJob(spec)) as AtpInstalledJob;
    expect(installed.plan!.atp!.fanIn1).toBe(3);
    const tensors = atpTensors(4, LENGTH, 'e2e-mixed');
    const outcome = await (await startAtpJob(fabric, spec, installed.plan!, tensors)).outcome;
    expectExact(outcome, tensors);
    expect((await outcomes(installer, 's4'))[COMPLETED]).toBeGreaterThan(0);
    expect(outcome.ps.level1Aggregates).toBeGreaterThan(0);
  }, 180_000);

  test('two jobs at once on one switch’s shared pool, each with its own PS: both exact', async () => {
    const fabric = await Fabric.start({
      switches: [{ name: 's1', program: 'atp', ina: true, role: 'tor' }],
      hosts: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8'].map((name, i) => ({ name, switch: 's1', port: i + 1 })),
      links: [],
    });
    fabrics.push(fabric);
    const installer = await fabric.controller();
    const a = job(11, ['h1', 'h2', 'h3'], 'h7');
    const b = job(12, ['h4', 'h5', 'h6'], 'h8');
    const planA = ((await installer.setupJob(a)) as AtpInstalledJob).plan!;
    const planB = ((await installer.setupJob(b)) as AtpInstalledJob).plan!;
    const tensorsA = atpTensors(3, LENGTH, 'e2e-job-a');
    const tensorsB = atpTensors(3, LENGTH - 100, 'e2e-job-b');
    const runA = await startAtpJob(fabric, a, planA, tensorsA);
    const runB = await startAtpJob(fabric, b, planB, tensorsB);
    const [outA, outB] = await Promise.all([runA.outcome, runB.outcome]);
    expectExact(outA, tensorsA);
    expectExact(outB, tensorsB);
    await installer.teardownJob(11);
    await installer.teardownJob(12);
    expect(await ownedCells(installer, 's1')).toBe(0);
  }, 180_000);
});
