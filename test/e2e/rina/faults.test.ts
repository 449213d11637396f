// Rina through real switches with seeded loss, duplication and reordering on
// every host's wire (an ImpairedRelay, both directions): a mixed ring (two INA
// racks of unequal size, one autonomous worker) stays exact over two calls,
// and the calls end by themselves (the agents' own retry limits bound them).
import { afterEach, describe, expect, test } from 'vitest';
import { expectedRina, rinaTensors, sameBits } from '../../agent/rina/helpers/expected.js';
import { Fabric, VALUES, type FabricSpec } from './support/fabric.js';
import { installRina, rinaJob, runRina } from './support/rina-job.js';

const fabrics: Fabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

const SPEC: FabricSpec = {
  switches: [
    { name: 's1', program: 'rina', role: 'tor' },
    { name: 's2', program: 'forward', role: 'tor' },
    { name: 's3', program: 'rina', role: 'tor' },
    { name: 's9', program: 'forward', role: 'spine' },
  ],
  hosts: [
    { name: 'h11', switch: 's1', port: 1 },
    { name: 'h12', switch: 's1', port: 2 },
    { name: 'h21', switch: 's2', port: 1 },
    { name: 'h31', switch: 's3', port: 1 },
    { name: 'h32', switch: 's3', port: 2 },
    { name: 'h33', switch: 's3', port: 3 },
  ],
  links: [[['s1', 9], ['s9', 1]], [['s2', 9], ['s9', 2]], [['s3', 9], ['s9', 3]]],
};

describe('Rina through real switches under seeded faults', () => {
  test.each([
    ['1% loss', { loss: 0.01 }],
    ['5% loss', { loss: 0.05 }],
    ['10% loss', { loss: 0.1 }],
    ['5% duplication and 10% reordering', { duplicate: 0.05, reorder: 0.1 }],
  ])('%s on every wire: exact on every worker, two calls', async (name, impairments) => {
    const fabric = await Fabric.start(SPEC, { seed: `rina-${name}`, impairments });
    fabrics.push(fabric);
    const installer = await fabric.controller();
    const job = rinaJob(4, SPEC.hosts.map((h) => h.name), 8);
    const plan = installer.planFor(job);
    expect(plan.ring!.map((m) => m.kind)).toEqual(['rack', 'worker', 'rack']);
    await installRina(installer, job, plan);
    const calls = [rinaTensors(6, 700, `${name}-a`), rinaTensors(6, 61, `${name}-b`)];
    const outcome = await runRina(fabric, job, plan, calls);
    outcome.results.forEach((results, call) => {
      const expected = expectedRina(calls[call]!, 3, VALUES);
      for (const r of results) expect(sameBits(r, expected)).toBe(true);
    });
    if ('loss' in impairments) expect(fabric.relays.reduce((n, r) => n + r.counters.lost, 0)).toBeGreaterThan(0);
  }, 180_000);
});
