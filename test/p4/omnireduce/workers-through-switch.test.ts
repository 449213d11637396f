// Real, unmodified OmniReduce workers (src/agent/omnireduce/omnireduce-worker.ts)
// AllReduce block-sparse tensors (src/agent/baseline/sparse-tensor.ts)
// through omnireduce.p4 on the emulator, as their only aggregator, in
// virtual time on an in-memory network with seeded loss, duplication and
// reordering. Every result must be the exact integers of the SwitchML
// scaling, the same bits on every worker, within the float64 sum's bound;
// and for every frame the switch received, the host aggregator given the
// same frame must have sent the same bytes to the same workers.
import { afterEach, describe, expect, it } from 'vitest';
import { OMNIREDUCE_ERROR_CODES } from '../../../src/agent/omnireduce/omnireduce-error.js';
import type { SparsityPattern } from '../../../src/agent/baseline/sparse-tensor.js';
import { VirtualTime } from '../../agent/atp/helpers/virtual-time.js';
import { driveVirtual } from '../../agent/helpers/drive-virtual.js';
import { HostReference } from './support/host-reference.js';
import { jobOf, OmniReduceRig } from './support/omnireduce-rig.js';
import { allreduceAll, BLOCK, hostsOf, inexact, sparseTensors, switchWorkers } from './support/switch-job.js';
import { SwitchNetwork, type Impairment } from './support/switch-network.js';

const rigs: OmniReduceRig[] = [];
afterEach(async () => {
  await Promise.allSettled(rigs.splice(0).map((r) => r.close()));
});

interface Run {
  readonly workers: number;
  readonly slots: number;
  /** Per call, every rank's tensor. */
  readonly calls: readonly (readonly Float32Array[])[];
  readonly impair?: Impairment;
  readonly seed?: string;
}

async function run(spec: Run) {
  const rig = await OmniReduceRig.start([]);
  rigs.push(rig);
  const job = jobOf(3, spec.workers, { slotCount: spec.slots });
  await rig.addJob(job);
  const net = new SwitchNetwork(rig, hostsOf(spec.workers), new HostReference(job.workers, spec.slots, BLOCK), spec.impair, spec.seed);
  const time = new VirtualTime();
  const workers = switchWorkers(job, net, (rank) => rank, time);
  const outcomes = [];
  for (const tensors of spec.calls) {
    const results = await allreduceAll(net, time, workers, tensors);
    expect(inexact(results, tensors)).toBeUndefined();
    outcomes.push(results);
  }
  expect(net.mismatches).toEqual([]);
  return { rig, net, outcomes };
}

describe('exact through the switch', () => {
  for (const sparsity of [1, 0.99, 0.9, 0.5, 0]) {
    for (const pattern of ['random', 'clustered'] as SparsityPattern[]) {
      it(`density ${Math.round((1 - sparsity) * 100)}% (${pattern}), 4 workers, a tensor not a multiple of the block`, async () => {
        const tensors = sparseTensors(4, BLOCK * 120 + 17, sparsity, pattern, `d-${sparsity}-${pattern}`);
        const { outcomes, net } = await run({ workers: 4, slots: 8, calls: [tensors] });
        expect(net.framesIn).toBeGreaterThan(0);
        if (sparsity === 1) expect(Array.from(outcomes[0]![0]!.result).every((x) => x === 0)).toBe(true);
      });
    }
  }

  for (const workers of [1, 2, 3, 5, 8]) {
    it(`${workers} worker(s), each its own run of blocks (per-worker pattern)`, async () => {
      const tensors = sparseTensors(workers, BLOCK * 64 + 5, 0.7, 'per-worker', `w-${workers}`);
      await run({ workers, slots: 6, calls: [tensors] });
    });
  }

  it('one worker dense and the others sparse; only the sparse ones send fewer bytes', async () => {
    const tensors = sparseTensors(4, BLOCK * 80, 0.9, 'random', 'one-dense');
    tensors[0] = sparseTensors(1, BLOCK * 80, 0, 'random', 'dense')[0]!;
    const { outcomes } = await run({ workers: 4, slots: 8, calls: [tensors] });
    const bytes = outcomes[0]!.map((r) => r.stats.bytesSent);
    for (const b of bytes.slice(1)) expect(b).toBeLessThan(bytes[0]! / 2);
  });

  it('three calls in a row on the same workers, of different lengths (some slots idle in a call)', async () => {
    const calls = [BLOCK * 50, BLOCK * 3 + 1, BLOCK * 41].map((length, i) => sparseTensors(3, length, 0.6, 'random', `call-${i}`));
    await run({ workers: 3, slots: 8, calls });
  });

  it('more slots than blocks', async () => {
    await run({ workers: 3, slots: 16, calls: [sparseTensors(3, BLOCK * 5 - 3, 0.2, 'random', 'few-blocks')] });
  });
});

describe('under seeded loss, duplication and reordering', () => {
  for (const loss of [0.01, 0.05, 0.1]) {
    it(`${loss * 100}% loss, 2% duplicates, 10% reordered: exact, and the switch answers every frame as the host aggregator does`, async () => {
      const calls = [0, 1].map((c) => sparseTensors(4, BLOCK * 96 + 9, 0.8, 'clustered', `loss-${loss}-${c}`));
      const { net, outcomes } = await run({ workers: 4, slots: 8, calls, impair: { loss, duplicate: 0.02, reorder: 0.1 }, seed: `loss-${loss}` });
      expect(net.lost).toBeGreaterThan(0);
      expect(outcomes.flat().reduce((n, r) => n + r.stats.retransmissions, 0)).toBeGreaterThan(0);
    });
  }
});

describe('jobs and failures', () => {
  it('two jobs at once on one switch, each in its own slot range and group, both using wire slots 0..7', async () => {
    const rig = await OmniReduceRig.start([]);
    rigs.push(rig);
    const a = jobOf(1, 4, { slotCount: 8, multicastGroup: 1 });
    const b = { ...jobOf(2, 8, { slotBase: 8, slotCount: 8, multicastGroup: 2 }) };
    const jobB = { ...b, workers: b.workers.slice(4).map((w, rank) => ({ ...w, rank })) };
    await rig.addJob(a);
    await rig.addJob(jobB);
    const net = new SwitchNetwork(rig, hostsOf(8), undefined);
    const time = new VirtualTime();
    const workersA = switchWorkers(a, net, (rank) => rank, time);
    const workersB = switchWorkers(jobB, net, (rank) => rank + 4, time);
    const tensorsA = sparseTensors(4, BLOCK * 60, 0.5, 'random', 'job-a');
    const tensorsB = sparseTensors(4, BLOCK * 33 + 2, 0.5, 'clustered', 'job-b');
    const [resultsA, resultsB] = await driveVirtual(net, time, Promise.all([
      Promise.all(workersA.map((w, r) => w.allreduce(tensorsA[r]!))),
      Promise.all(workersB.map((w, r) => w.allreduce(tensorsB[r]!))),
    ])).then((r) => r.value);
    expect(inexact(resultsA, tensorsA)).toBeUndefined();
    expect(inexact(resultsB, tensorsB)).toBeUndefined();
  });

  it('a worker that never sends: the others fail with OMNIREDUCE_TIMEOUT in bounded time, the switch still waiting for it', async () => {
    const rig = await OmniReduceRig.start([]);
    rigs.push(rig);
    const job = jobOf(5, 3, { slotCount: 4 });
    await rig.addJob(job);
    const net = new SwitchNetwork(rig, hostsOf(3), undefined);
    const time = new VirtualTime();
    const workers = switchWorkers(job, net, (rank) => rank, time);
    const tensors = sparseTensors(3, BLOCK * 10, 0.5, 'random', 'silent');
    const calls = workers.slice(0, 2).map((w, r) => w.allreduce(tensors[r]!).then(() => 'finished', (e: { code?: string }) => e.code));
    const { value } = await driveVirtual(net, time, Promise.all(calls));
    expect(value).toEqual([OMNIREDUCE_ERROR_CODES.timeout, OMNIREDUCE_ERROR_CODES.timeout]);
    expect(await rig.cell('remaining', 0)).toBe(1);
  });
});
