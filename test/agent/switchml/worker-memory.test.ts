import { afterEach, describe, expect, test } from 'vitest';
import { SwitchMlMessageType } from '../../../src/wire/index.js';
import { MemorySwitchMlNetwork, peek, type MemoryNetworkOptions } from './helpers/memory-network.js';
import { checkAgainstFloat64, expectedSwitchMlResult, sameBits, seededTensors } from './helpers/numbers.js';
import { runJob, type JobOutcome } from './helpers/run-job.js';

const networks: MemorySwitchMlNetwork[] = [];
afterEach(async () => {
  await Promise.all(networks.splice(0).map((n) => n.close()));
});

function network(options: MemoryNetworkOptions = {}): MemorySwitchMlNetwork {
  const net = new MemorySwitchMlNetwork(options);
  networks.push(net);
  return net;
}

const ids = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
/** Without impairments nothing is lost: a long timeout floor keeps a busy machine from causing retransmissions. */
const CALM = { timeoutMs: 5000, backoff: { minTimeoutMs: 5000, maxTimeoutMs: 5000 } };

/** Every worker got the exact SwitchML result (so all are bit-identical) and it is within the bound. */
function expectExact(outcome: JobOutcome, tensors: readonly Float32Array[], perPacket = 64): void {
  const expected = expectedSwitchMlResult(tensors, perPacket);
  for (const result of outcome.results) expect(sameBits(result, expected)).toBe(true);
  expect(checkAgainstFloat64(outcome.results[0]!, tensors, perPacket).violations).toBe(0);
}

describe('SwitchML worker over the reference switch, no impairments', () => {
  test.each([1, 2, 3, 4, 8])('n = %i workers, 1000 elements (a short last chunk): exact on every worker', async (n) => {
    const net = network();
    const transports = net.addJob({ jobId: 7, slotBase: 0, poolSize: 8, workerIds: ids(n) });
    const tensors = seededTensors(n, 1000, `clean-${n}`);
    const [outcome] = await runJob(transports, 7, ids(n), [tensors], { ...CALM, poolSize: 8 });
    expectExact(outcome!, tensors);
    const stats = outcome!.stats[0]!;
    expect(stats).toMatchObject({ algorithm: 'switchml', chunks: 16, window: 8, packets: 24, bytes: 4000 });
    expect(stats.messagesSent).toBe(24 + stats.retransmissions);
    // The timeout estimator's state is in the stats; CALM pins the RTO (floor = ceiling).
    expect(stats.rtoMs).toBe(5000);
    expect(stats.spuriousRetransmissions).toBeLessThanOrEqual(stats.retransmissions);
    expect(net.model.counters.results).toBe(24);
    expect(net.model.counters.aggregated).toBe(24 * (n - 1));
  });

  test('tensor lengths around the chunk and the window: 0, 1, 63, 64, 65, 511, 513 elements', async () => {
    const net = network();
    const transports = net.addJob({ jobId: 1, slotBase: 0, poolSize: 8, workerIds: ids(3) });
    const lengths = [0, 1, 63, 64, 65, 511, 513];
    const calls = lengths.map((length) => seededTensors(3, length, `len-${length}`));
    const outcomes = await runJob(transports, 1, ids(3), calls, { poolSize: 8 });
    outcomes.forEach((outcome, i) => {
      expectExact(outcome, calls[i]!);
      const chunks = Math.ceil(lengths[i]! / 64);
      expect(outcome.stats[0]).toMatchObject({ chunks, window: Math.min(8, chunks), epoch: i });
    });
  });

  test('a custom element count per packet (16)', async () => {
    const net = network({ elementsPerPacket: 16 });
    const transports = net.addJob({ jobId: 2, slotBase: 4, poolSize: 5, workerIds: ids(4) });
    const tensors = seededTensors(4, 333, 'e16');
    const [outcome] = await runJob(transports, 2, ids(4), [tensors], { poolSize: 5, elementsPerPacket: 16 });
    expectExact(outcome!, tensors, 16);
  });

  test('huge and tiny magnitudes, zeros and negative values: no overflow, exact, within the bound', async () => {
    const net = network();
    const transports = net.addJob({ jobId: 3, slotBase: 0, poolSize: 4, workerIds: ids(4) });
    // One rank per element holds a huge value (some at or above 2^127, where the exponent saturates),
    // the others tiny ones, so that no sum leaves float32's range.
    const huge = [3.4028234663852886e38, -3.4e38, 2 ** 127, -1.9e38, 1e38];
    const tiny = [1e-45, -1e-45, 1.1754943508222875e-38, 0, -0, 1e-30, -7.5, 1e30, 2 ** -126];
    const tensors = ids(4).map((rank) => {
      const t = new Float32Array(64 * 6 + 5);
      for (let i = 0; i < t.length; i++) t[i] = (i + rank) % 4 === 0 ? huge[i % huge.length]! : tiny[(i * 7 + rank * 3) % tiny.length]!;
      // Chunk 2 all zeros; chunk 3 all tiny; chunk 4 one huge value among tiny ones.
      t.fill(0, 128, 192);
      for (let i = 192; i < 256; i++) t[i] = (i % 2 ? 1 : -1) * 1e-40 * (rank + 1);
      for (let i = 256; i < 320; i++) t[i] = 1e-20;
      t[300] = rank === 2 ? -3e38 : 2e38;
      return t;
    });
    const [outcome] = await runJob(transports, 3, ids(4), [tensors], { poolSize: 4 });
    expectExact(outcome!, tensors);
    for (const v of outcome!.results[0]!.subarray(128, 192)) expect(v).toBe(0);
  });

  test('several calls in a row keep the slot sets in step (sets and epochs carried over)', async () => {
    const net = network();
    const transports = net.addJob({ jobId: 4, slotBase: 0, poolSize: 3, workerIds: ids(2) });
    // 5 chunks with window 3: slots 0 and 1 get 3 packets, slot 2 gets 2, so the sets diverge per slot.
    const calls = [300, 100, 640, 1, 300].map((length, i) => seededTensors(2, length, `seq-${i}`));
    const outcomes = await runJob(transports, 4, ids(2), calls, { ...CALM, poolSize: 3, epoch: 254 });
    outcomes.forEach((outcome, i) => expectExact(outcome, calls[i]!));
    expect(outcomes.map((o) => o.stats[0]!.epoch)).toEqual([254, 255, 0, 1, 2]);
    // Every update the switch saw was new: a set out of step would show as a retransmission.
    const retransmitted = outcomes.flatMap((o) => o.stats).reduce((sum, st) => sum + st.retransmissions, 0);
    expect(net.model.counters.incompleteRetransmission + net.model.counters.retransmittedResults).toBe(retransmitted);
  });

  test('NaN and Infinity are refused with a typed error before anything is sent', async () => {
    const net = network();
    const transports = net.addJob({ jobId: 5, slotBase: 0, poolSize: 4, workerIds: ids(2) });
    const { SwitchMlWorker } = await import('../../../src/agent/switchml/switchml-worker.js');
    const worker = new SwitchMlWorker({ transport: transports[0]!, jobId: 5, workerId: 0, numWorkers: 2, poolSize: 4 });
    for (const bad of [NaN, Infinity, -Infinity]) {
      const t = new Float32Array(100);
      t[70] = bad;
      await expect(worker.allreduce(t)).rejects.toMatchObject({ code: 'SWITCHML_NON_FINITE_INPUT' });
    }
    expect(transports[0]!.counters.datagramsOut).toBe(0);
    await worker.close();
  });
});

describe('SwitchML worker under loss, duplication and reordering', () => {
  const cases: [string, MemoryNetworkOptions][] = [
    ['1% loss', { up: { loss: 0.01 }, down: { loss: 0.01 } }],
    ['5% loss', { up: { loss: 0.05 }, down: { loss: 0.05 } }],
    ['10% loss', { up: { loss: 0.1 }, down: { loss: 0.1 } }],
    ['duplication', { up: { duplicate: 0.1 }, down: { duplicate: 0.1 } }],
    ['reordering', { up: { reorder: 0.2 }, down: { reorder: 0.2 } }],
    ['all at once, 10%', { up: { loss: 0.1, duplicate: 0.1, reorder: 0.1 }, down: { loss: 0.1, duplicate: 0.1, reorder: 0.1 } }],
  ];
  for (const [name, impairments] of cases) {
    for (const n of [2, 3, 8]) {
      test(`${name}, n = ${n}: exact and bit-identical on every worker`, async () => {
        const net = network({ seed: `${name}-${n}`, ...impairments });
        const transports = net.addJob({ jobId: 9, slotBase: 16, poolSize: 6, workerIds: ids(n) });
        const calls = [seededTensors(n, 1500, `${name}-${n}-a`), seededTensors(n, 700, `${name}-${n}-b`)];
        const outcomes = await runJob(transports, 9, ids(n), calls, { poolSize: 6 });
        outcomes.forEach((outcome, i) => expectExact(outcome, calls[i]!));
        const totals = net.impairmentTotals();
        if (impairments.up?.loss) {
          expect(totals.lost).toBeGreaterThan(0);
          expect(outcomes.flatMap((o) => o.stats).reduce((s, st) => s + st.retransmissions, 0)).toBeGreaterThan(0);
        }
        if (impairments.up?.duplicate) expect(totals.duplicated).toBeGreaterThan(0);
        if (impairments.up?.reorder) expect(totals.reordered).toBeGreaterThan(0);
      });
    }
  }

  test('a RESULT lost on the way down is recovered by a RETRANSMITTED_RESULT', async () => {
    let dropped = 0;
    const net = network({
      downFilter: (_job, workerId, packet) => {
        const p = peek(packet);
        if (workerId === 1 && p?.messageType === SwitchMlMessageType.RESULT && p.tsi === 5 && dropped === 0) {
          dropped++;
          return false;
        }
        return true;
      },
    });
    const transports = net.addJob({ jobId: 11, slotBase: 0, poolSize: 4, workerIds: ids(3) });
    const tensors = seededTensors(3, 640, 'lost-result');
    const [outcome] = await runJob(transports, 11, ids(3), [tensors], { poolSize: 4, timeoutMs: 50, backoff: { maxTimeoutMs: 50 } });
    expectExact(outcome!, tensors);
    expect(dropped).toBe(1);
    // Worker 1 timed out on packet 5, retransmitted it, and the switch answered from the complete slot.
    expect(outcome!.stats[1]!.retransmissions).toBeGreaterThanOrEqual(1);
    expect(outcome!.stats[1]!.retransmittedResults).toBeGreaterThanOrEqual(1);
    const unicasts = net.verdicts.filter((v) => v.action === 'unicast');
    expect(unicasts.length).toBe(net.model.counters.retransmittedResults);
    expect(unicasts).toContainEqual(expect.objectContaining({ jobId: 11, workerId: 1 }));
    const toWorker1 = unicasts.filter((v) => v.action === 'unicast' && v.workerId === 1).map((v) => (v.action === 'unicast' ? peek(v.packet) : undefined));
    expect(toWorker1).toContainEqual({ messageType: SwitchMlMessageType.RETRANSMITTED_RESULT, tsi: 5, slot: 1 });
  });

  test('two jobs at once with disjoint slot ranges and different workers: both exact', async () => {
    const net = network({ seed: 'two-jobs', up: { loss: 0.05, reorder: 0.1 }, down: { loss: 0.05, duplicate: 0.05 } });
    const a = net.addJob({ jobId: 100, slotBase: 0, poolSize: 8, workerIds: [0, 1, 2] });
    const b = net.addJob({ jobId: 200, slotBase: 8, poolSize: 5, workerIds: [0, 1, 2, 3, 4] });
    const tensorsA = seededTensors(3, 2000, 'job-a');
    const tensorsB = seededTensors(5, 999, 'job-b');
    const [[outA], [outB]] = await Promise.all([
      runJob(a, 100, [0, 1, 2], [tensorsA], { poolSize: 8 }),
      runJob(b, 200, [0, 1, 2, 3, 4], [tensorsB], { poolSize: 5 }),
    ]);
    expectExact(outA!, tensorsA);
    expectExact(outB!, tensorsB);
    expect(net.model.counters.unknownJob + net.model.counters.slotOutOfRange + net.model.counters.unknownWorker).toBe(0);
  });
});
