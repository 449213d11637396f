// Rina end to end: p4/rina_tor.p4 compiled by p4ina's front end, run by real
// switches in this process on UDP wires, forwarding installed by the
// controller over P4Runtime/gRPC, the job's ToR entries built from the
// controller's plan (rinaSwitchEntries), and the Rina agents configured from
// the same plan, on their hosts' wires. Every result must be the exact
// integers of docs/rina.md §5 (computed independently in
// test/agent/rina/helpers/expected.ts), the same bits on every worker; the
// ToRs' counters show that they did the rack's aggregation.
import { afterEach, describe, expect, test } from 'vitest';
import { expectedRina, boundViolations, rinaTensors, sameBits } from '../../agent/rina/helpers/expected.js';
import { Fabric, VALUES, type FabricSpec } from './support/fabric.js';
import { counterCells, installRina, rinaJob, runRina } from './support/rina-job.js';

const fabrics: Fabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

/** docs/rina.md, rina_outcomes. */
const EMITTED = 2;

/** Three racks under ToRs s1..s3, each ToR's port 9 to the spine s4. */
function leafSpine(programs: readonly ('rina' | 'forward')[], rackSizes: readonly number[]): FabricSpec {
  const tors = programs.map((program, i) => ({ name: `s${i + 1}`, program, role: 'tor' as const }));
  const hosts = rackSizes.flatMap((size, r) => Array.from({ length: size }, (_, i) => ({ name: `h${r + 1}${i + 1}`, switch: `s${r + 1}`, port: i + 1 })));
  return {
    switches: [...tors, { name: 's9', program: 'forward', role: 'spine' }],
    hosts,
    links: tors.map((t, i) => [[t.name, 9], ['s9', i + 1]] as const),
  };
}

async function run(spec: FabricSpec, lengths: readonly number[], poolSize = 8) {
  const fabric = await Fabric.start(spec);
  fabrics.push(fabric);
  const installer = await fabric.controller();
  const job = rinaJob(3, spec.hosts.map((h) => h.name), poolSize);
  const plan = installer.planFor(job);
  await installRina(installer, job, plan);
  const n = spec.hosts.length;
  const calls = lengths.map((length) => rinaTensors(n, length, `e2e-${n}-${length}`));
  const outcome = await runRina(fabric, job, plan, calls);
  const R = plan.ring!.length;
  outcome.results.forEach((results, call) => {
    const expected = expectedRina(calls[call]!, R, VALUES);
    for (const r of results) expect(sameBits(r, expected), `call ${call}`).toBe(true);
    expect(boundViolations(results[0]!, calls[call]!, R, VALUES)).toBe(0);
  });
  return { installer, plan, outcome };
}

describe('Rina through real switches', () => {
  test('every rack INA, racks of unequal size: a ring of three racks, exact, every ToR emitting its rack\'s rounds', async () => {
    const { installer, plan } = await run(leafSpine(['rina', 'rina', 'rina'], [2, 3, 1]), [997, 64]);
    expect(plan.ring!.map((m) => [m.kind, m.ranks.length])).toEqual([['rack', 2], ['rack', 3], ['rack', 1]]);
    for (const sw of ['s1', 's2', 's3']) expect((await counterCells(installer, sw, 'ingress.rina.rina_outcomes'))[EMITTED]).toBeGreaterThan(0);
  });

  test('some racks INA: a mixed ring of two racks and two autonomous workers, exact', async () => {
    const { installer, plan } = await run(leafSpine(['rina', 'forward', 'rina'], [2, 2, 1]), [501, 3]);
    expect(plan.ring!.map((m) => m.kind)).toEqual(['rack', 'worker', 'worker', 'rack']);
    for (const sw of ['s1', 's3']) expect((await counterCells(installer, sw, 'ingress.rina.rina_outcomes'))[EMITTED]).toBeGreaterThan(0);
  });

  test('one INA rack alone: a ring of one member, the ToR sums the rack', async () => {
    const spec: FabricSpec = { switches: [{ name: 's1', program: 'rina', role: 'tor' }], hosts: Array.from({ length: 4 }, (_, i) => ({ name: `h${i + 1}`, switch: 's1', port: i + 1 })), links: [] };
    const { plan } = await run(spec, [333]);
    expect(plan.ring!.length).toBe(1);
  });

  test('no INA rack: every worker autonomous, through legacy switches only', async () => {
    const { plan } = await run(leafSpine(['forward', 'forward'], [2, 1]), [250]);
    expect(plan.ring!.map((m) => m.kind)).toEqual(['worker', 'worker', 'worker']);
  });
});
