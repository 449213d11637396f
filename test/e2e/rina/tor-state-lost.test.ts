// An INA ToR loses its slot state in the middle of a call (its cells cleared
// over P4Runtime, as a restart clears them, while its entries stay): the call
// either completes with the exact result on every worker or fails with
// RINA_TIMEOUT — never a wrong result, never a hang (the agents' retry
// limits bound it).
import { afterEach, expect, test } from 'vitest';
import { modify } from '../../../src/p4runtime/index.js';
import { rinaCellResets } from '../../../src/controller/install/rina-entries.js';
import { expectedRina, rinaTensors, sameBits } from '../../agent/rina/helpers/expected.js';
import { Fabric, VALUES, type FabricSpec } from './support/fabric.js';
import { counterCells, installRina, rinaJob, runRina } from './support/rina-job.js';

const fabrics: Fabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

const SPEC: FabricSpec = {
  switches: [{ name: 's1', program: 'rina', role: 'tor' }, { name: 's2', program: 'rina', role: 'tor' }, { name: 's9', program: 'forward', role: 'spine' }],
  hosts: [{ name: 'h11', switch: 's1', port: 1 }, { name: 'h12', switch: 's1', port: 2 }, { name: 'h21', switch: 's2', port: 1 }, { name: 'h22', switch: 's2', port: 2 }],
  links: [[['s1', 9], ['s9', 1]], [['s2', 9], ['s9', 2]]],
};

test('cells cleared mid-call: exact or RINA_TIMEOUT, nothing else', async () => {
  const fabric = await Fabric.start(SPEC);
  fabrics.push(fabric);
  const installer = await fabric.controller();
  const job = rinaJob(8, SPEC.hosts.map((h) => h.name), 8);
  const plan = installer.planFor(job);
  await installRina(installer, job, plan);
  const tensors = rinaTensors(4, 20_000, 'lost');
  const run = runRina(fabric, job, plan, [tensors], { worker: { maxRetries: 6, backoff: { maxTimeoutMs: 200 } } }).then(
    (o) => ({ ok: true as const, results: o.results[0]! }),
    (err: { code?: string }) => ({ ok: false as const, code: err.code }),
  );
  // Once the ToR has emitted some rounds, its state goes.
  for (let i = 0; i < 500 && ((await counterCells(installer, 's1', 'ingress.rina.rina_outcomes'))[2] ?? 0) < 20; i++) await new Promise((r) => setTimeout(r, 10));
  await installer.sessions.get('s1')!.write(rinaCellResets({ slotBase: 0, slots: job.poolSize }).map(modify));
  const outcome = await run;
  if (outcome.ok) {
    const expected = expectedRina(tensors, plan.ring!.length, VALUES);
    for (const r of outcome.results) expect(sameBits(r, expected)).toBe(true);
  } else {
    expect(outcome.code).toBe('RINA_TIMEOUT');
  }
}, 120_000);
