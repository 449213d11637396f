// `p4ina agent rina-worker --transport wire` through real switches: a rack of
// two under an INA ToR (rina_tor.p4) and a worker under a legacy ToR, the
// members' flags from the controller's plan, each worker on its host's UDP
// wire; the reports agree on a digest re-derived from docs/rina.md's rule,
// and --check finds no element over the bound.
import { createHash } from 'node:crypto';
import { afterEach, expect, test } from 'vitest';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import { placeInPlan } from '../../../src/agent/rina/ring-config.js';
import { rinaWorkerCommand, type RinaWorkerReport } from '../../../src/agent/rina/worker-main.js';
import { ipv4ToText } from '../../../src/wire/index.js';
import { expectedRina } from '../../agent/rina/helpers/expected.js';
import { Fabric, VALUES, type FabricSpec } from './support/fabric.js';
import { installRina, rinaJob } from './support/rina-job.js';

const fabrics: Fabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

const SPEC: FabricSpec = {
  switches: [{ name: 's1', program: 'rina', role: 'tor' }, { name: 's2', program: 'forward', role: 'tor' }, { name: 's9', program: 'forward', role: 'spine' }],
  hosts: [{ name: 'h11', switch: 's1', port: 1 }, { name: 'h12', switch: 's1', port: 2 }, { name: 'h21', switch: 's2', port: 1 }],
  links: [[['s1', 9], ['s9', 1]], [['s2', 9], ['s9', 2]]],
};

test('three CLI workers on UDP wires, an INA rack and an autonomous worker: exact, the same digest', async () => {
  const fabric = await Fabric.start(SPEC);
  fabrics.push(fabric);
  const installer = await fabric.controller();
  const job = rinaJob(6, SPEC.hosts.map((h) => h.name), 8);
  const plan = installer.planFor(job);
  await installRina(installer, job, plan);
  const address = (rank: number): string => `${ipv4ToText(fabric.topology.hosts.get(plan.workers[rank]!.host)!.ip)}:${job.workers[rank]!.udpPort}`;
  const memberFlags = plan.ring!.flatMap((m) => ['--member', `${m.kind}:${m.ranks.map(address).join(',')}`]);
  expect(memberFlags).toEqual(['--member', `rack:${address(0)},${address(1)}`, '--member', `worker:${address(2)}`]);
  const ios = job.workers.map((): MainIo & { lines: string[]; errors: string[] } => {
    const lines: string[] = [];
    const errors: string[] = [];
    return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l) };
  });
  const codes = await Promise.all(job.workers.map((w) => {
    const place = placeInPlan(plan.ring!, w.rank);
    return rinaWorkerCommand([
      ...memberFlags, '--position', String(place.position), '--worker-id', String(place.workerId), '--rank', String(w.rank),
      ...fabric.wireArgs(plan.workers[w.rank]!.host), '--job', String(job.id), '--pool', String(job.poolSize), '--elements', String(VALUES),
      '--length', '777', '--iterations', '2', '--drain', '300', '--check', '--json',
    ], ios[w.rank]!);
  }));
  expect({ codes, errors: ios.map((io) => io.errors) }).toEqual({ codes: [0, 0, 0], errors: [[], [], []] });
  const reports = ios.map((io) => JSON.parse(io.lines.at(-1)!) as RinaWorkerReport);
  const sum = expectedRina([0, 1, 2].map((r) => seededTensor(777, 1, r)), 2, VALUES);
  const expected = createHash('sha256').update(new Uint8Array(sum.buffer)).digest('hex');
  expect(reports.map((r) => r.resultSha256)).toEqual([expected, expected, expected]);
  expect(reports.map((r) => r.role)).toEqual(['agent', 'rack-member', 'autonomous']);
  for (const r of reports) expect(r.check).toMatchObject({ boundViolations: 0 });
});
