import { afterEach, describe, expect, it } from 'vitest';
import { compareWithReference, float64Reference, parameterServerErrorBound, sameBits } from '../../../src/agent/baseline/accuracy.js';
import { connectLocalParameterServer, runLocalParameterServer } from '../../../src/agent/baseline/local-parameter-server.js';
import { ParameterServer } from '../../../src/agent/baseline/parameter-server.js';
import { ParameterServerWorker } from '../../../src/agent/baseline/ps-worker.js';
import { openTcpHandles, rejection, seededTensors } from './helpers.js';

afterEach(async () => {
  expect(await openTcpHandles()).toEqual([]);
});

const sizes = [1, 2, 3, 4, 8];

describe('parameter server over TCP', () => {
  describe.each(sizes)('with %i worker(s)', (n) => {
    it.each([0, 1, Math.max(0, n - 1), n + 1, 1000003])('sums %i elements to fround(float64 reference), identically on every worker', async (length) => {
      const tensors = seededTensors(n, length, `ps-${n}-${length}`);
      const { results, stats } = await runLocalParameterServer({ worldSize: n, tensors, pieceElements: 65536 });
      const reference = float64Reference(tensors);
      for (const result of results) expect(sameBits(result, results[0]!)).toBe(true);
      expect(sameBits(results[0]!, Float32Array.from(reference.sum))).toBe(true);
      expect(compareWithReference(results[0]!, reference, (i) => parameterServerErrorBound(reference.sum[i]!)).violations).toBe(0);
      const pieces = Math.ceil(length / 65536);
      for (const s of stats) {
        expect(s).toMatchObject({ algorithm: 'parameter-server', bytes: length * 4, retransmissions: 0, messagesSent: 1 + pieces, messagesReceived: 1 + pieces });
        expect(s.wireBytesSent).toBe(16 + 20 * pieces + 4 * length);
      }
    });
  });

  it("reads a worker's elapsedMs on the clock it is given", async () => {
    const server = await ParameterServer.start({ host: '127.0.0.1', port: 0, worldSize: 1 });
    let now = 0;
    const worker = await ParameterServerWorker.connect({ rank: 0, worldSize: 1, server: server.endpoint, clock: { now: () => (now += 5) } });
    try {
      const { stats } = await worker.allreduce(new Float32Array(10));
      expect(stats.elapsedMs).toBe(5);
    } finally {
      await worker.close();
      await server.close();
    }
  });

  it('serves several rounds on one session and counts them', async () => {
    const local = await connectLocalParameterServer({ worldSize: 3, pieceElements: 10 });
    try {
      for (const [call, length] of [95, 0, 1, 40].entries()) {
        const tensors = seededTensors(3, length, `round-${call}`);
        const outcomes = await Promise.all(local.workers.map((w, r) => w.allreduce(tensors[r]!)));
        const expected = Float32Array.from(float64Reference(tensors).sum);
        for (const outcome of outcomes) expect(sameBits(outcome.result, expected)).toBe(true);
      }
      expect(local.server.rounds).toBe(4);
    } finally {
      await local.close();
    }
  });

  it('takes a new set of workers after the previous set left', async () => {
    const server = await ParameterServer.start({ worldSize: 2 });
    try {
      for (let job = 0; job < 2; job++) {
        const workers = await Promise.all([0, 1].map((rank) => ParameterServerWorker.connect({ rank, worldSize: 2, server: server.address })));
        const tensors = seededTensors(2, 33, `job-${job}`);
        const outcomes = await Promise.all(workers.map((w, r) => w.allreduce(tensors[r]!)));
        expect(sameBits(outcomes[0]!.result, Float32Array.from(float64Reference(tensors).sum))).toBe(true);
        await Promise.all(workers.map((w) => w.close()));
      }
      expect(server.rounds).toBe(2);
      expect(server.failures).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('refuses a worker of another job, or a rank already taken, and keeps serving the right ones', async () => {
    const server = await ParameterServer.start({ worldSize: 2, jobId: 'job-a' });
    try {
      const wrongJob = await rejection(ParameterServerWorker.connect({ rank: 0, worldSize: 2, server: server.address, jobId: 'job-b', connectTimeoutMs: 5000 }));
      expect(wrongJob).toMatchObject({ code: 'BASELINE_HANDSHAKE_MISMATCH' });
      expect(String((wrongJob as Error).message)).toContain('job id');
      const first = await ParameterServerWorker.connect({ rank: 0, worldSize: 2, server: server.address, jobId: 'job-a' });
      const duplicate = await rejection(ParameterServerWorker.connect({ rank: 0, worldSize: 2, server: server.address, jobId: 'job-a', connectTimeoutMs: 5000 }));
      expect(duplicate).toMatchObject({ code: 'BASELINE_HANDSHAKE_MISMATCH' });
      const second = await ParameterServerWorker.connect({ rank: 1, worldSize: 2, server: server.address, jobId: 'job-a' });
      const tensors = seededTensors(2, 10);
      const outcomes = await Promise.all([first, second].map((w, r) => w.allreduce(tensors[r]!)));
      expect(sameBits(outcomes[1]!.result, Float32Array.from(float64Reference(tensors).sum))).toBe(true);
      await Promise.all([first.close(), second.close()]);
    } finally {
      await server.close();
    }
  });
});
