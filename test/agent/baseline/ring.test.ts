import { afterEach, describe, expect, it } from 'vitest';
import { compareWithReference, float64Reference, ringErrorBound, sameBits } from '../../../src/agent/baseline/accuracy.js';
import { connectLocalRing, runLocalRing } from '../../../src/agent/baseline/local-ring.js';
import { RingAllReduce } from '../../../src/agent/baseline/ring-allreduce.js';
import { RingSchedule } from '../../../src/agent/baseline/ring-schedule.js';
import { openTcpHandles, ringOrderSum, seededTensors } from './helpers.js';

afterEach(async () => {
  expect(await openTcpHandles()).toEqual([]);
});

const sizes = [1, 2, 3, 4, 8];

describe('ring AllReduce over TCP', () => {
  describe.each(sizes)('with %i rank(s)', (n) => {
    it.each([0, 1, Math.max(0, n - 1), n + 1, 1000003])('sums %i elements exactly as the ring order says, identically on every rank', async (length) => {
      const tensors = seededTensors(n, length, `ring-${n}-${length}`);
      const { results, stats } = await runLocalRing({ worldSize: n, tensors, ioTimeoutMs: 20_000, connectTimeoutMs: 20_000 });
      expect(results).toHaveLength(n);
      for (const result of results) {
        expect(result).toHaveLength(length);
        expect(sameBits(result, results[0]!)).toBe(true);
      }
      expect(sameBits(results[0]!, ringOrderSum(tensors))).toBe(true);
      const reference = float64Reference(tensors);
      const comparison = compareWithReference(results[0]!, reference, (i) => ringErrorBound(n, reference.absSum[i]!));
      expect(comparison.violations).toBe(0);
      for (const s of stats) expect(s).toMatchObject({ algorithm: 'ring', bytes: length * 4, retransmissions: 0, steps: 2 * (n - 1) });
      // Every frame sent is received once (a rank may send more than it receives when chunks differ in size).
      const total = (key: 'messagesSent' | 'messagesReceived' | 'wireBytesSent' | 'wireBytesReceived'): number => stats.reduce((sum, s) => sum + s[key], 0);
      expect(total('messagesSent')).toBe(total('messagesReceived'));
      expect(total('wireBytesSent')).toBe(total('wireBytesReceived'));
      if (n === 1) expect(total('messagesSent')).toBe(0);
    });
  });

  it('streams a tensor in many small pieces and leaves the inputs untouched', async () => {
    const tensors = seededTensors(3, 10_007, 'pieces');
    const copies = tensors.map((t) => t.slice());
    const { results, stats } = await runLocalRing({ worldSize: 3, tensors, pieceElements: 64 });
    expect(sameBits(results[0]!, ringOrderSum(copies))).toBe(true);
    tensors.forEach((t, r) => expect(sameBits(t, copies[r]!)).toBe(true));
    const schedule = new RingSchedule(10_007, 3, 0, 64);
    let frames = 0;
    let payloadBytes = 0;
    for (let step = 0; step < schedule.steps; step++) {
      frames += schedule.pieceCount(schedule.sendChunk(step));
      payloadBytes += 4 * schedule.chunkLength(schedule.sendChunk(step));
    }
    expect(frames).toBe(4 * 53); // chunks of 3335 or 3336 values: 53 pieces of at most 64
    expect(stats[0]!.messagesSent).toBe(1 + frames);
    expect(stats[0]!.wireBytesSent).toBe(16 + 20 * frames + payloadBytes);
  });

  it('runs several calls in a row on one ring, with lengths changing between calls', async () => {
    const rings = await connectLocalRing({ worldSize: 4, pieceElements: 100 });
    try {
      for (const [call, length] of [5000, 0, 3, 2500].entries()) {
        const tensors = seededTensors(4, length, `call-${call}`);
        const outcomes = await Promise.all(rings.map((ring, r) => ring.allreduce(tensors[r]!)));
        const expected = ringOrderSum(tensors);
        for (const outcome of outcomes) expect(sameBits(outcome.result, expected)).toBe(true);
      }
    } finally {
      await Promise.all(rings.map((ring) => ring.close()));
    }
  });

  it('reports progress up to the whole tensor', async () => {
    const rings = await connectLocalRing({ worldSize: 3, pieceElements: 50 });
    const seen: number[] = [];
    try {
      const tensors = seededTensors(3, 1000);
      await Promise.all(rings.map((ring, r) => ring.allreduce(tensors[r]!, r === 1 ? { onProgress: (done, total) => seen.push(done / total) } : {})));
    } finally {
      await Promise.all(rings.map((ring) => ring.close()));
    }
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[seen.length - 1]).toBe(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('reads elapsedMs on the clock it is given', async () => {
    let now = 1000;
    const ring = await RingAllReduce.connect({ rank: 0, worldSize: 1, peers: ['127.0.0.1:1'], clock: { now: () => (now += 7) } });
    const { stats } = await ring.allreduce(new Float32Array(3));
    await ring.close();
    expect(stats.elapsedMs).toBe(7);
  });

  it('streams 64 MiB per rank between two ranks', async () => {
    const length = 16 * 1024 * 1024;
    const tensors = seededTensors(2, length, 'big');
    const { results, stats } = await runLocalRing({ worldSize: 2, tensors });
    expect(sameBits(results[0]!, results[1]!)).toBe(true);
    expect(sameBits(results[0]!, ringOrderSum(tensors))).toBe(true);
    // Each step streams half the tensor in 1 MiB pieces: 32 MiB / 1 MiB = 32 frames per step.
    expect(stats[0]!.messagesSent).toBe(1 + 2 * 32);
  });
});
