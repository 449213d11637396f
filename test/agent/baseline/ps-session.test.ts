// A parameter-server session whose workers end their last call at different times: a worker that
// has its last result and leaves must not cost the others theirs. Seen on a Mininet testbed with
// shaped links under load: worker 1 closed after its last piece while the server still waited for
// worker 0's socket to drain before writing that piece to it, and worker 0 got an ERROR instead.
import { describe, expect, it } from 'vitest';
import type { BaselineError } from '../../../src/agent/baseline/baseline-error.js';
import { readFloatsLE } from '../../../src/agent/baseline/float-bytes.js';
import { FrameInbox } from '../../../src/agent/baseline/frame-inbox.js';
import { encodeBegin, encodeData, maxBodyBytes, PS_STEP, type Frame } from '../../../src/agent/baseline/frame.js';
import type { FramedConnection } from '../../../src/agent/baseline/framed-connection.js';
import { ParameterServerSession } from '../../../src/agent/baseline/ps-session.js';
import { memoryConnection, MemorySocket } from './memory-socket.js';

/** Big enough that one held frame fills the socket's buffer (16 KiB): the next send waits for 'drain'. */
const PIECE = 8192;
const PIECES = 3;

/** A worker speaking the protocol by hand, so the test decides when it leaves. */
class HandWorker {
  readonly inbox: FrameInbox;
  constructor(readonly connection: FramedConnection) {
    this.inbox = new FrameInbox(connection, 1_000, () => {});
  }

  async begin(): Promise<void> {
    await this.connection.send(encodeBegin(0, PIECE * PIECES));
    expect((await this.inbox.next()).type).toBe('begin');
  }

  async contribute(piece: number, value: number): Promise<void> {
    await this.connection.send(encodeData({ op: 0, step: PS_STEP.contribution, chunk: 0, offset: piece * PIECE }, new Float32Array(PIECE).fill(value)));
  }

  async result(piece: number): Promise<Float32Array> {
    const frame: Frame = await this.inbox.next();
    if (frame.type !== 'data') throw new Error(`expected the result of piece ${piece}, got ${frame.type}`);
    expect(frame.offset).toBe(piece * PIECE);
    return readFloatsLE(frame.payload);
  }
}

describe('parameter server session', () => {
  it('a worker that leaves with its last result does not cost a slower worker its own', async () => {
    const [server0, worker0] = MemorySocket.pair();
    const [server1, worker1] = MemorySocket.pair();
    // From the result of the last piece but one (write 0 is BEGIN), the server's writes to worker 0
    // complete only when the test says: its socket backs up, and the last piece waits for 'drain'.
    server0.holdWrite = (index) => index >= PIECES - 1;
    const max = maxBodyBytes(PIECE);
    const ends: { failure: BaselineError; duringRound: boolean }[] = [];
    const session = new ParameterServerSession(2, PIECE, (_s, failure, duringRound) => ends.push({ failure, duringRound }));
    session.join(0, memoryConnection(server0, 'worker 0', max));
    session.join(1, memoryConnection(server1, 'worker 1', max));
    const w0 = new HandWorker(memoryConnection(worker0, 'the server', max));
    const w1 = new HandWorker(memoryConnection(worker1, 'the server', max));

    await Promise.all([w0.begin(), w1.begin()]);
    const results0: Float32Array[] = [];
    for (let piece = 0; piece < PIECES; piece++) {
      await Promise.all([w0.contribute(piece, 1), w1.contribute(piece, 2)]);
      expect((await w1.result(piece))[0]).toBe(3);
      // Worker 0 has every result but the last while its socket is backed up.
      if (piece < PIECES - 1) results0.push(await w0.result(piece));
    }
    // Worker 1 has all it needs and leaves; the server's last piece for worker 0 still waits for 'drain'.
    expect(server0.heldWrites).toBeGreaterThan(0);
    await w1.connection.close();
    server0.release();
    results0.push(await w0.result(PIECES - 1));
    expect(results0.map((r) => [r.length, r[0], r[PIECE - 1]])).toEqual(Array.from({ length: PIECES }, () => [PIECE, 3, 3]));
    // The session then ends as when workers leave between rounds: not a failed round.
    await w0.connection.close();
    expect(session.rounds).toBe(1);
    expect(ends.map((e) => e.duringRound)).toEqual([false]);
  }, 10_000);
});
