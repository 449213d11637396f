import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BaselineError } from '../../../src/agent/baseline/baseline-error.js';
import { encodeBegin, encodeData } from '../../../src/agent/baseline/frame.js';
import { Listener } from '../../../src/agent/baseline/listener.js';
import { connectLocalParameterServer } from '../../../src/agent/baseline/local-parameter-server.js';
import { connectLocalRing } from '../../../src/agent/baseline/local-ring.js';
import { ParameterServerWorker } from '../../../src/agent/baseline/ps-worker.js';
import { RingAllReduce } from '../../../src/agent/baseline/ring-allreduce.js';
import { FakeRankZero, FrameSocket } from './fake-peer.js';
import { openTcpHandles, rejection, seededTensors } from './helpers.js';

afterEach(async () => {
  expect(await openTcpHandles()).toEqual([]);
});

const codeOf = (err: unknown): string => (err instanceof BaselineError ? err.code : `not a BaselineError: ${String(err)}`);
const ECHOES = ['BASELINE_PEER_CLOSED', 'BASELINE_PEER_FAILED'];

/** Rank 1 of a two-rank ring whose rank 0 is the test's fake. */
async function realRankOneWithFake(options: { jobId?: string; pieceElements?: number } = {}): Promise<{ fake: FakeRankZero; real: RingAllReduce }> {
  const fake = await FakeRankZero.listen();
  const listener = await Listener.bind({ host: '127.0.0.1', port: 0 });
  const connecting = RingAllReduce.connect({ rank: 1, worldSize: 2, peers: [fake.endpoint, listener.endpoint], listener, pieceElements: 4, ioTimeoutMs: 10_000, connectTimeoutMs: 10_000 });
  await fake.handshake(listener.endpoint, options);
  return { fake, real: await connecting };
}

describe('ring handshake', () => {
  it('a job id mismatch is BASELINE_HANDSHAKE_MISMATCH on both ranks', async () => {
    const listeners = await Promise.all([0, 1].map(() => Listener.bind({ host: '127.0.0.1', port: 0 })));
    const peers = listeners.map((l) => l.endpoint);
    const errors = await Promise.all(
      [0, 1].map((rank) => rejection(RingAllReduce.connect({ rank, worldSize: 2, peers, listener: listeners[rank], jobId: `job-${rank}`, connectTimeoutMs: 10_000 }))),
    );
    expect(errors.map(codeOf)).toEqual(['BASELINE_HANDSHAKE_MISMATCH', 'BASELINE_HANDSHAKE_MISMATCH']);
    expect((errors[0] as Error).message).toContain('job id');
  });

  it('a piece-size mismatch is BASELINE_HANDSHAKE_MISMATCH', async () => {
    const listeners = await Promise.all([0, 1].map(() => Listener.bind({ host: '127.0.0.1', port: 0 })));
    const peers = listeners.map((l) => l.endpoint);
    const errors = await Promise.all(
      [0, 1].map((rank) => rejection(RingAllReduce.connect({ rank, worldSize: 2, peers, listener: listeners[rank], pieceElements: 100 + rank, connectTimeoutMs: 10_000 }))),
    );
    expect(errors.map(codeOf)).toEqual(['BASELINE_HANDSHAKE_MISMATCH', 'BASELINE_HANDSHAKE_MISMATCH']);
    expect((errors[1] as Error).message).toContain('piece size');
  });

  it('garbage instead of a HELLO fails set-up with BASELINE_MALFORMED_FRAME and the sender is told so', async () => {
    const listeners = await Promise.all([0, 1].map(() => Listener.bind({ host: '127.0.0.1', port: 0 })));
    // Rank 1 never starts; its listener hangs up on rank 0, which keeps retrying meanwhile.
    const setup = rejection(RingAllReduce.connect({ rank: 0, worldSize: 2, peers: listeners.map((l) => l.endpoint), listener: listeners[0], connectTimeoutMs: 10_000 }));
    const raw = connect({ host: '127.0.0.1', port: listeners[0]!.endpoint.port });
    const intruder = new FrameSocket(raw);
    raw.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(codeOf(await setup)).toBe('BASELINE_MALFORMED_FRAME');
    await intruder.closed;
    expect(intruder.frames).toEqual([expect.objectContaining({ type: 'error', code: 'BASELINE_MALFORMED_FRAME' })]);
    await listeners[1]!.close();
  });

  it('no successor within the deadline is BASELINE_CONNECT_TIMEOUT', async () => {
    const listeners = await Promise.all([0, 1].map(() => Listener.bind({ host: '127.0.0.1', port: 0 })));
    const err = await rejection(RingAllReduce.connect({ rank: 0, worldSize: 2, peers: listeners.map((l) => l.endpoint), listener: listeners[0], connectTimeoutMs: 300 }));
    expect(codeOf(err)).toBe('BASELINE_CONNECT_TIMEOUT');
    await listeners[1]!.close();
  });

  it('an address already in use is BASELINE_LISTEN_FAILED', async () => {
    const taken = await Listener.bind({ host: '127.0.0.1', port: 0 });
    try {
      const err = await rejection(RingAllReduce.connect({ rank: 0, worldSize: 2, peers: [taken.endpoint, taken.endpoint] }));
      expect(codeOf(err)).toBe('BASELINE_LISTEN_FAILED');
      expect((err as Error).message).toContain(taken.address);
    } finally {
      await taken.close();
    }
  });

  it('aborting set-up is BASELINE_ABORTED', async () => {
    const listeners = await Promise.all([0, 1].map(() => Listener.bind({ host: '127.0.0.1', port: 0 })));
    const controller = new AbortController();
    const setup = rejection(RingAllReduce.connect({ rank: 0, worldSize: 2, peers: listeners.map((l) => l.endpoint), listener: listeners[0], signal: controller.signal }));
    controller.abort();
    expect(codeOf(await setup)).toBe('BASELINE_ABORTED');
    await listeners[1]!.close();
  });
});

describe('ring frames that break the protocol', () => {
  it('a malformed frame mid-call is BASELINE_MALFORMED_FRAME, and the sender gets an ERROR frame and a close', async () => {
    const { fake, real } = await realRankOneWithFake();
    try {
      const call = rejection(real.allreduce(new Float32Array(10)));
      fake.toRealRank.write(encodeBegin(0, 10));
      // A DATA frame whose body is one byte short of a whole float.
      fake.toRealRank.write(Buffer.from('00000013' + '03000000' + '00000000' + '00000000' + '00000000' + '000000', 'hex'));
      expect(codeOf(await call)).toBe('BASELINE_MALFORMED_FRAME');
      await fake.toRealRank.closed;
      expect(fake.toRealRank.frames.at(-1)).toMatchObject({ type: 'error', code: 'BASELINE_MALFORMED_FRAME' });
      expect(codeOf(await rejection(real.allreduce(new Float32Array(10))))).toBe('BASELINE_UNUSABLE');
    } finally {
      await real.close();
      await fake.close();
    }
  });

  it('a well-formed frame out of order is BASELINE_UNEXPECTED_FRAME', async () => {
    const { fake, real } = await realRankOneWithFake();
    try {
      const call = rejection(real.allreduce(new Float32Array(10)));
      fake.toRealRank.write(encodeBegin(0, 10));
      // Step 1 before step 0.
      fake.toRealRank.write(encodeData({ op: 0, step: 1, chunk: 0, offset: 0 }, new Float32Array(4)));
      const err = await call;
      expect(codeOf(err)).toBe('BASELINE_UNEXPECTED_FRAME');
      expect((err as Error).message).toContain('step 0');
    } finally {
      await real.close();
      await fake.close();
    }
  });

  it('a tensor of another length is BASELINE_LENGTH_MISMATCH', async () => {
    const { fake, real } = await realRankOneWithFake();
    try {
      const call = rejection(real.allreduce(new Float32Array(10)));
      fake.toRealRank.write(encodeBegin(0, 11));
      expect(codeOf(await call)).toBe('BASELINE_LENGTH_MISMATCH');
    } finally {
      await real.close();
      await fake.close();
    }
  });

  it('a neighbour that hangs up mid-call is BASELINE_PEER_CLOSED', async () => {
    const { fake, real } = await realRankOneWithFake();
    try {
      const call = rejection(real.allreduce(new Float32Array(10)));
      fake.toRealRank.write(encodeBegin(0, 10));
      fake.toRealRank.socket.destroy();
      expect(codeOf(await call)).toBe('BASELINE_PEER_CLOSED');
    } finally {
      await real.close();
      await fake.close();
    }
  });

  it('ranks passing different lengths all fail, none hangs', async () => {
    const rings = await connectLocalRing({ worldSize: 3, ioTimeoutMs: 10_000 });
    try {
      const errors = await Promise.all(rings.map((ring, r) => rejection(ring.allreduce(new Float32Array(r === 2 ? 11 : 10)))));
      const codes = errors.map(codeOf);
      expect(codes).toContain('BASELINE_LENGTH_MISMATCH');
      for (const code of codes) expect(['BASELINE_LENGTH_MISMATCH', ...ECHOES]).toContain(code);
    } finally {
      await Promise.all(rings.map((ring) => ring.close()));
    }
  });
});

describe('ring abort and timeouts', () => {
  it('aborting one rank mid-call fails it with BASELINE_ABORTED, the others with peer errors, and closes every socket', async () => {
    const rings = await connectLocalRing({ worldSize: 3, pieceElements: 1000 });
    const controller = new AbortController();
    let progressAtAbort = -1;
    try {
      const tensors = seededTensors(3, 300_000);
      const errors = await Promise.all(
        rings.map((ring, r) =>
          rejection(
            ring.allreduce(tensors[r]!, {
              signal: r === 1 ? controller.signal : undefined,
              onProgress: (done, total) => {
                // Reduce-scatter is over, all-gather is not: abort here.
                if (r === 1 && !controller.signal.aborted && done < total) {
                  progressAtAbort = done / total;
                  controller.abort(new Error('test abort'));
                }
              },
            }),
          ),
        ),
      );
      expect(progressAtAbort).toBeGreaterThan(0);
      expect(progressAtAbort).toBeLessThan(1);
      expect(codeOf(errors[1])).toBe('BASELINE_ABORTED');
      expect(ECHOES).toContain(codeOf(errors[0]));
      expect(ECHOES).toContain(codeOf(errors[2]));
      expect(codeOf(await rejection(rings[1]!.allreduce(new Float32Array(1))))).toBe('BASELINE_UNUSABLE');
    } finally {
      await Promise.all(rings.map((ring) => ring.close()));
    }
  });

  it('an already aborted signal fails the call at once', async () => {
    const rings = await connectLocalRing({ worldSize: 2 });
    try {
      const errors = await Promise.all(rings.map((ring) => rejection(ring.allreduce(new Float32Array(5), { signal: AbortSignal.abort() }))));
      expect(errors.map(codeOf)).toEqual(['BASELINE_ABORTED', 'BASELINE_ABORTED']);
    } finally {
      await Promise.all(rings.map((ring) => ring.close()));
    }
  });

  it('a rank that never calls allreduce makes the others time out with BASELINE_TIMEOUT', async () => {
    const rings = await connectLocalRing({ worldSize: 2, ioTimeoutMs: 300 });
    try {
      expect(codeOf(await rejection(rings[0]!.allreduce(new Float32Array(5))))).toBe('BASELINE_TIMEOUT');
    } finally {
      await Promise.all(rings.map((ring) => ring.close()));
    }
  });

  it('close is idempotent and later calls are BASELINE_UNUSABLE', async () => {
    const rings = await connectLocalRing({ worldSize: 2 });
    await Promise.all(rings.map((ring) => ring.close()));
    await Promise.all(rings.map((ring) => ring.close()));
    expect(codeOf(await rejection(rings[0]!.allreduce(new Float32Array(1))))).toBe('BASELINE_UNUSABLE');
  });
});

describe('parameter server faults', () => {
  it('workers passing different lengths all get BASELINE_LENGTH_MISMATCH', async () => {
    const local = await connectLocalParameterServer({ worldSize: 3 });
    try {
      const errors = await Promise.all(local.workers.map((w, r) => rejection(w.allreduce(new Float32Array(r === 1 ? 7 : 8)))));
      expect(errors.map(codeOf)).toEqual(['BASELINE_LENGTH_MISMATCH', 'BASELINE_LENGTH_MISMATCH', 'BASELINE_LENGTH_MISMATCH']);
      expect(local.server.failures).toBe(1);
    } finally {
      await local.close();
    }
  });

  it('aborting one worker mid-call fails every worker, and the server serves a new set afterwards', async () => {
    // 16 MiB per worker: more than the socket buffers hold, so the aborted worker cannot have sent it all already.
    const local = await connectLocalParameterServer({ worldSize: 3, pieceElements: 65536 });
    const controller = new AbortController();
    try {
      const tensors = seededTensors(3, 4 * 1024 * 1024);
      const errors = await Promise.all(
        local.workers.map((w, r) =>
          rejection(
            w.allreduce(tensors[r]!, {
              signal: r === 2 ? controller.signal : undefined,
              onProgress: (done, total) => {
                if (r === 2 && done < total) controller.abort();
              },
            }),
          ),
        ),
      );
      expect(errors.map(codeOf)).toEqual(['BASELINE_PEER_FAILED', 'BASELINE_PEER_FAILED', 'BASELINE_ABORTED']);
      await Promise.all(local.workers.map((w) => w.close()));
      const again = await Promise.all([0, 1, 2].map((rank) => ParameterServerWorker.connect({ rank, worldSize: 3, server: local.server.address, pieceElements: 65536 })));
      const small = seededTensors(3, 5);
      const outcomes = await Promise.all(again.map((w, r) => w.allreduce(small[r]!)));
      // The new set's sum, on every worker: fround of the float64 sum (as the parameter server adds in float64).
      const expected = Float32Array.from({ length: 5 }, (_, i) => small[0]![i]! + small[1]![i]! + small[2]![i]!);
      expect(outcomes.map((o) => [...o.result])).toEqual([[...expected], [...expected], [...expected]]);
      await Promise.all(again.map((w) => w.close()));
    } finally {
      await local.close();
    }
  });

  it('no server within the deadline is BASELINE_CONNECT_TIMEOUT', async () => {
    const listener = await Listener.bind({ host: '127.0.0.1', port: 0 });
    const port = listener.endpoint.port;
    await listener.close();
    const err = await rejection(ParameterServerWorker.connect({ rank: 0, worldSize: 1, server: `127.0.0.1:${port}`, connectTimeoutMs: 300 }));
    expect(codeOf(err)).toBe('BASELINE_CONNECT_TIMEOUT');
  });
});
