/**
 * One job's workers on the parameter server, and the rounds it runs for
 * them. A round: every worker sends BEGIN (same call number, same length),
 * the server answers each with BEGIN, then for each piece of the tensor it
 * takes that piece from worker 0, 1, …, n-1 in turn, adds them in float64 in
 * rank order, rounds the sum once to float32 and sends the same frame to
 * every worker. Adding in a fixed order makes the result the same from run
 * to run; sending one frame to all makes it the same on every worker.
 *
 * Reading the workers in lock step keeps the server's memory to a few pieces
 * per worker (FrameInbox pauses a worker that runs ahead). Any failure (a
 * worker gone, a malformed or out-of-order frame, lengths that differ) ends
 * the session: every worker is told why and disconnected. Except that a
 * worker leaving while the round's last result is being sent has all it
 * needs (it leaves when its last call is done): the others get theirs first.
 */
import { moduleLogger } from '../../log/logger.js';
import { BASELINE_ERROR_CODES, BaselineError, asBaselineError } from './baseline-error.js';
import { readFloatsLE } from './float-bytes.js';
import { FrameInbox } from './frame-inbox.js';
import { encodeBegin, encodeData, PS_STEP, type Frame } from './frame.js';
import type { FramedConnection } from './framed-connection.js';

/** Frames a worker may have waiting on the server before it is paused. */
const INBOX_LIMIT = 4;

const log = moduleLogger('agent.baseline.ps');

export class ParameterServerSession {
  /** Rounds completed. */
  rounds = 0;
  private readonly workers: (FramedConnection | undefined)[];
  private readonly inboxes: FrameInbox[] = [];
  private failure: BaselineError | undefined;
  private roundActive = false;
  /** True while the last result of a round is being sent. */
  private finishing = false;
  /** Why the first worker that left while `finishing` left: the session ends with it once the round is done. */
  private leftWhileFinishing: BaselineError | undefined;
  private op = 0;

  constructor(
    readonly worldSize: number,
    private readonly pieceElements: number,
    /** Called once when the session ends, with why (a failure, or the workers leaving between rounds). */
    private readonly onEnd: (session: ParameterServerSession, failure: BaselineError, duringRound: boolean) => void,
    /** Called after each completed round. */
    private readonly onRound: () => void = () => {},
  ) {
    this.workers = new Array<FramedConnection | undefined>(worldSize).fill(undefined);
  }

  get ended(): boolean {
    return this.failure !== undefined;
  }

  hasRank(rank: number): boolean {
    return this.workers[rank] !== undefined;
  }

  /** Adds a worker that passed the handshake; the rounds start when all are here. */
  join(rank: number, connection: FramedConnection): void {
    this.workers[rank] = connection;
    // Until everyone is here nobody reads: early frames wait in the connection, which pauses its socket.
    // A worker that leaves, now or later, ends the session.
    connection.onFail((error) => this.left(error));
    if (this.workers.every((worker) => worker !== undefined)) {
      const all = this.workers as FramedConnection[];
      for (const worker of all) this.inboxes.push(new FrameInbox(worker, INBOX_LIMIT, (error) => this.left(error)));
      void this.serve(all);
    }
  }

  /** Ends the session: every worker is told `error` and disconnected. */
  end(error: BaselineError): void {
    if (this.failure) return;
    this.failure = error;
    for (const worker of this.workers) worker?.fail(error, true);
    this.onEnd(this, error, this.roundActive);
  }

  /** A worker's connection failed (or it left): the session ends, after the round's last result has gone to everyone still there. */
  private left(error: BaselineError): void {
    if (this.finishing) this.leftWhileFinishing ??= error;
    else this.end(error);
  }

  /** Closes every worker connection and waits until they are closed. */
  async close(): Promise<void> {
    this.end(new BaselineError(BASELINE_ERROR_CODES.peerClosed, 'the parameter server is shutting down'));
    await Promise.all(this.workers.map((worker) => worker?.closed));
  }

  private async serve(workers: FramedConnection[]): Promise<void> {
    try {
      // Bounded by the workers: each turn is one round they asked for, and the session ends when they leave.
      while (!this.failure) await this.round(workers);
    } catch (err) {
      this.end(asBaselineError(err, BASELINE_ERROR_CODES.unexpectedFrame, 'parameter server round'));
    }
  }

  private async round(workers: FramedConnection[]): Promise<void> {
    const n = this.worldSize;
    const first = await this.inboxes[0]!.next();
    this.roundActive = true;
    const begins = [expectBegin(first, workers[0]!.peer, this.op)];
    for (let rank = 1; rank < n; rank++) begins.push(expectBegin(await this.inboxes[rank]!.next(), workers[rank]!.peer, this.op));
    const length = begins[0]!.elementCount;
    const other = begins.findIndex((begin) => begin.elementCount !== length);
    if (other >= 0) {
      throw new BaselineError(
        BASELINE_ERROR_CODES.lengthMismatch,
        `rank 0 passed ${length} elements but rank ${other} passed ${begins[other]!.elementCount}; every rank must pass a tensor of the same length`,
      );
    }
    const ack = encodeBegin(this.op, length);
    await Promise.all(workers.map((worker) => worker.send(ack)));
    const sum = new Float64Array(Math.min(this.pieceElements, length));
    for (let offset = 0; offset < length; offset += this.pieceElements) {
      const count = Math.min(this.pieceElements, length - offset);
      const piece = sum.subarray(0, count);
      piece.fill(0);
      for (let rank = 0; rank < n; rank++) {
        const frame = await this.inboxes[rank]!.next();
        const values = readFloatsLE(expectPiece(frame, workers[rank]!.peer, this.op, offset, count));
        for (let i = 0; i < count; i++) piece[i] += values[i];
      }
      // One frame for everyone: encodeData rounds each float64 sum to float32 once.
      const result = encodeData({ op: this.op, step: PS_STEP.result, chunk: 0, offset }, Float32Array.from(piece));
      if (offset + count < length) {
        await Promise.all(workers.map((worker) => worker.send(result)));
        continue;
      }
      // The last result: a worker may leave as soon as it has it, so a failed send here means only
      // that its worker left (and so ends the session, below); the others' sends still complete.
      this.finishing = true;
      await Promise.allSettled(workers.map((worker) => worker.send(result)));
      this.finishing = false;
    }
    this.op = (this.op + 1) >>> 0;
    this.rounds++;
    this.roundActive = false;
    this.onRound();
    log.debug({ round: this.rounds, length }, 'parameter server round done');
    if (this.leftWhileFinishing) this.end(this.leftWhileFinishing);
  }
}

/** The BEGIN of call `op`, or BASELINE_UNEXPECTED_FRAME. */
export function expectBegin(frame: Frame, peer: string, op: number): Extract<Frame, { type: 'begin' }> {
  if (frame.type !== 'begin' || frame.op !== op) {
    throw new BaselineError(BASELINE_ERROR_CODES.unexpectedFrame, `${peer} sent ${frame.type.toUpperCase()} where BEGIN of call #${op} was due`);
  }
  return frame;
}

/** The payload of the contribution at `offset` of `count` values in call `op`, or BASELINE_UNEXPECTED_FRAME. */
export function expectPiece(frame: Frame, peer: string, op: number, offset: number, count: number): Buffer {
  if (frame.type !== 'data' || frame.op !== op || frame.step !== PS_STEP.contribution || frame.chunk !== 0 || frame.offset !== offset || frame.payload.length !== count * 4) {
    throw new BaselineError(
      BASELINE_ERROR_CODES.unexpectedFrame,
      `${peer} sent ${frame.type.toUpperCase()} where DATA op ${op} offset ${offset} of ${count} values was due`,
    );
  }
  return frame.payload;
}
