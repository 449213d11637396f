import { afterEach, describe, expect, it } from 'vitest';
import { compareWithReference, float64Reference, ringErrorBound, sameBits } from '../../../src/agent/baseline/accuracy.js';
import { BaselineError } from '../../../src/agent/baseline/baseline-error.js';
import { HierarchicalAllReduce } from '../../../src/agent/baseline/hierarchical-allreduce.js';
import { connectLocalHierarchical, runLocalHierarchical } from '../../../src/agent/baseline/hierarchical-local.js';
import { Listener } from '../../../src/agent/baseline/listener.js';
import { runLocalRing } from '../../../src/agent/baseline/local-ring.js';
import { hierarchicalOrderSum, openTcpHandles, rejection, seededTensors } from './helpers.js';

afterEach(async () => {
  expect(await openTcpHandles()).toEqual([]);
});

const codeOf = (err: unknown): string => (err instanceof BaselineError ? err.code : `not a BaselineError: ${String(err)}`);

/** Rack layouts of n ranks: one rack, racks of one, pairs, unequal contiguous racks (one of a single worker), interleaved racks. */
function layouts(n: number): [string, string[]][] {
  const all: [string, string[]][] = [
    ['one rack', Array.from({ length: n }, () => 'r')],
    ['a rack per worker', Array.from({ length: n }, (_, r) => `r${r}`)],
    ['pairs', Array.from({ length: n }, (_, r) => `p${Math.floor(r / 2)}`)],
    ['unequal', Array.from({ length: n }, (_, r) => (r === 0 ? 'a' : r <= Math.ceil((n - 1) / 2) ? 'b' : 'c'))],
    ['interleaved', Array.from({ length: n }, (_, r) => `i${r % 3}`)],
  ];
  const seen = new Set<string>();
  return all.filter(([, racks]) => {
    const key = JSON.stringify(racks.map((rack) => racks.indexOf(rack)));
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

const PIECE = 16;
const SEGMENT_PIECES = 3;
const SEGMENT = PIECE * SEGMENT_PIECES;

describe('hierarchical AllReduce over TCP', () => {
  describe.each([1, 2, 3, 4, 5, 6, 7, 8])('with %i worker(s)', (n) => {
    it.each(layouts(n))('%s (%j): exact in its summation order, identical everywhere, within the bound', async (_name, racks) => {
      for (const length of [0, 1, n + 1, 1001]) {
        const tensors = seededTensors(n, length, `hier-${n}-${racks.join('')}-${length}`);
        const { results, stats } = await runLocalHierarchical({ racks, tensors, pieceElements: PIECE, segmentPieces: SEGMENT_PIECES, ioTimeoutMs: 20_000, connectTimeoutMs: 20_000 });
        for (const result of results) expect(sameBits(result, results[0]!)).toBe(true);
        expect(sameBits(results[0]!, hierarchicalOrderSum(tensors, racks, SEGMENT))).toBe(true);
        const reference = float64Reference(tensors);
        expect(compareWithReference(results[0]!, reference, (i) => ringErrorBound(n, reference.absSum[i]!)).violations).toBe(0);

        const rackCount = new Set(racks).size;
        const leaders = racks.map((rack, rank) => racks.indexOf(rack) === rank);
        stats.forEach((s, rank) => {
          expect(s).toMatchObject({ algorithm: 'hierarchical', role: leaders[rank] ? 'leader' : 'member', racks: rackCount, rackSize: racks.filter((r) => r === racks[rank]).length, bytes: 4 * length });
          expect(s.ringCalls).toBe(leaders[rank] ? Math.ceil(length / SEGMENT) + 1 : 0);
        });
        const total = (key: 'messagesSent' | 'messagesReceived' | 'wireBytesSent' | 'wireBytesReceived'): number => stats.reduce((sum, s) => sum + s[key], 0);
        expect(total('messagesSent')).toBe(total('messagesReceived'));
        expect(total('wireBytesSent')).toBe(total('wireBytesReceived'));
      }
    });
  });

  it('racks of one worker each give plain ring AllReduce, bit for bit', async () => {
    const tensors = seededTensors(5, 1001, 'singletons');
    const ring = await runLocalRing({ worldSize: 5, tensors });
    const hierarchical = await runLocalHierarchical({ racks: [0, 1, 2, 3, 4], tensors });
    for (const result of hierarchical.results) expect(sameBits(result, ring.results[0]!)).toBe(true);
  });

  it('streams an odd-sized tensor of several default segments through unequal racks', async () => {
    const racks = ['r1', 'r1', 'r1', 'r2', 'r2'];
    const length = 3_000_001;
    const tensors = seededTensors(5, length, 'big');
    const { results, stats } = await runLocalHierarchical({ racks, tensors });
    expect(sameBits(results[0]!, hierarchicalOrderSum(tensors, racks, 4 * 256 * 1024))).toBe(true);
    for (const result of results.slice(1)) expect(sameBits(result, results[0]!)).toBe(true);
    expect(stats[0]!.ringCalls).toBe(3 + 1);
  });

  it('runs several calls in a row on one job, with lengths changing between calls, and reports progress to the end', async () => {
    const racks = ['a', 'b', 'a', 'b', 'b'];
    const instances = await connectLocalHierarchical({ racks, pieceElements: 8, segmentPieces: 2 });
    try {
      for (const [call, length] of [100, 0, 3, 257].entries()) {
        const tensors = seededTensors(5, length, `call-${call}`);
        const progress: number[][] = racks.map(() => []);
        const outcomes = await Promise.all(instances.map((h, r) => h.allreduce(tensors[r]!, { onProgress: (done) => progress[r]!.push(done) })));
        const expected = hierarchicalOrderSum(tensors, racks, 16);
        for (const outcome of outcomes) expect(sameBits(outcome.result, expected)).toBe(true);
        for (const seen of progress) {
          if (length > 0) expect(seen.at(-1)).toBe(length);
          expect([...seen].sort((x, y) => x - y)).toEqual(seen);
        }
      }
    } finally {
      await Promise.all(instances.map((h) => h.close()));
    }
  });
});

describe('hierarchical AllReduce failures', () => {
  async function settleAll(instances: HierarchicalAllReduce[], tensors: Float32Array[], signals: (AbortSignal | undefined)[] = []): Promise<string[]> {
    try {
      const outcomes = await Promise.allSettled(instances.map((h, r) => h.allreduce(tensors[r]!, { signal: signals[r] })));
      return outcomes.map((o) => (o.status === 'fulfilled' ? 'fulfilled' : codeOf(o.reason)));
    } finally {
      await Promise.all(instances.map((h) => h.close()));
    }
  }

  it.each([
    ['two racks, lengths a whole segment apart', ['a', 'a', 'b', 'b'], [8, 8, 12, 12]],
    ['three racks, one of them off', ['a', 'b', 'c', 'a', 'b', 'c'], [8, 12, 8, 8, 12, 8]],
    ['one rack given nothing', ['a', 'b', 'b'], [0, 5, 5]],
  ])('racks given tensors of different lengths all fail with BASELINE_LENGTH_MISMATCH (%s)', async (_name, racks, lengths) => {
    const instances = await connectLocalHierarchical({ racks, pieceElements: 2, segmentPieces: 2, ioTimeoutMs: 20_000 });
    const codes = await settleAll(instances, lengths.map((length, r) => seededTensors(racks.length, length)[r]!));
    expect(codes).toEqual(racks.map(() => 'BASELINE_LENGTH_MISMATCH'));
  });

  it('leaders with different segment sizes fail with BASELINE_HANDSHAKE_MISMATCH before any data moves', async () => {
    const listeners = await Promise.all([0, 1].map(() => Listener.bind({ host: '127.0.0.1', port: 0 })));
    const peers = listeners.map((l) => l.endpoint);
    const instances = await Promise.all(
      [0, 1].map((rank) => HierarchicalAllReduce.connect({ rank, worldSize: 2, peers, racks: [0, 1], listener: listeners[rank], pieceElements: 4, segmentPieces: 1 + rank })),
    );
    const codes = await settleAll(instances, seededTensors(2, 100));
    expect(codes).toEqual(['BASELINE_HANDSHAKE_MISMATCH', 'BASELINE_HANDSHAKE_MISMATCH']);
  });

  it('a member with a different length fails its rack with BASELINE_LENGTH_MISMATCH, and the other rack with it', async () => {
    const instances = await connectLocalHierarchical({ racks: [0, 0, 1, 1], pieceElements: 4, ioTimeoutMs: 20_000 });
    const codes = await settleAll(instances, [40, 41, 40, 40].map((length, r) => seededTensors(4, length)[r]!));
    expect(codes.slice(0, 2)).toEqual(['BASELINE_LENGTH_MISMATCH', 'BASELINE_LENGTH_MISMATCH']);
    expect(codes.slice(2)).not.toContain('fulfilled');
  });

  it('a member aborting mid-call fails every rank, and nothing is left open', async () => {
    const instances = await connectLocalHierarchical({ racks: [0, 0, 1, 1, 1], pieceElements: 64, segmentPieces: 1, ioTimeoutMs: 20_000 });
    const controller = new AbortController();
    const tensors = seededTensors(5, 64 * 50);
    const outcomes = await Promise.allSettled(instances.map((h, r) => h.allreduce(tensors[r]!, r === 4 ? { signal: controller.signal, onProgress: () => controller.abort(new Error('test abort')) } : {})));
    await Promise.all(instances.map((h) => h.close()));
    expect(outcomes.map((o) => (o.status === 'rejected' ? codeOf(o.reason).startsWith('BASELINE_') : 'fulfilled'))).toEqual([true, true, true, true, true]);
    expect(codeOf((outcomes[4] as PromiseRejectedResult).reason)).toBe('BASELINE_ABORTED');
    expect(codeOf(await rejection(instances[4]!.allreduce(tensors[4]!)))).toBe('BASELINE_UNUSABLE');
  });

  it('ranks given different rack lists fail set-up fast with BASELINE_HANDSHAKE_MISMATCH', async () => {
    const listeners = await Promise.all([0, 1].map(() => Listener.bind({ host: '127.0.0.1', port: 0 })));
    const peers = listeners.map((l) => l.endpoint);
    // Rank 0 thinks it leads rank 1; rank 1 thinks it leads a rack of its own.
    const errors = await Promise.all(
      [['x', 'x'], ['x', 'y']].map((racks, rank) => rejection(HierarchicalAllReduce.connect({ rank, worldSize: 2, peers, racks, listener: listeners[rank], connectTimeoutMs: 20_000 }))),
    );
    expect(errors.map(codeOf)).toEqual(['BASELINE_HANDSHAKE_MISMATCH', 'BASELINE_HANDSHAKE_MISMATCH']);
  });

  it('bad options throw at once and release the listener', async () => {
    const listener = await Listener.bind({ host: '127.0.0.1', port: 0 });
    await expect(HierarchicalAllReduce.connect({ rank: 0, worldSize: 2, peers: [listener.endpoint, listener.endpoint], racks: ['a'], listener })).rejects.toThrow(RangeError);
    await expect(HierarchicalAllReduce.connect({ rank: 0, worldSize: 1, peers: ['127.0.0.1:0'], racks: [''] })).rejects.toThrow(/empty rack name/);
  });
});
