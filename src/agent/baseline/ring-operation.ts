/**
 * One ring AllReduce call on an established ring: BEGIN both ways round the
 * ring (checking that every rank passes a tensor of the same length), then
 * the schedule of RingSchedule piece by piece.
 *
 * Two loops run at once. Receiving is driven by frames from the predecessor,
 * processed as they arrive (added in reduce-scatter, copied in all-gather),
 * each checked against exactly the step, chunk, offset and size expected
 * next: TCP keeps order, so anything else is a protocol error. Sending walks
 * the schedule and waits, before piece k of step s, until piece k of step s-1
 * has been received; each piece is copied into its frame, so later writes to
 * the working array cannot change bytes still queued in the socket. Sending
 * ends only once the last frame has left this process (see sendAll).
 */
import type { AllReduceCallOptions } from '../allreduce.js';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { readFloatsLE } from './float-bytes.js';
import { DATA_HEADER_BYTES, encodeBegin, encodeData, FRAME_LENGTH_BYTES, type Frame } from './frame.js';
import type { FramedConnection } from './framed-connection.js';
import { OpGuard } from './op-guard.js';
import type { RingSchedule } from './ring-schedule.js';

export interface RingLinks {
  readonly toSuccessor: FramedConnection;
  readonly fromPredecessor: FramedConnection;
}

export interface RingOperationCounts {
  framesSent: number;
  framesReceived: number;
  wireBytesSent: number;
  wireBytesReceived: number;
}

interface PieceWaiter {
  readonly step: number;
  readonly piece: number;
  readonly resolve: () => void;
}

export class RingOperation {
  readonly counts: RingOperationCounts = { framesSent: 0, framesReceived: 0, wireBytesSent: 0, wireBytesReceived: 0 };
  private readonly acc: Float32Array;
  private readonly guard: OpGuard;
  private readonly receivedInStep: Uint32Array;
  private gotBegin = false;
  private recvStep = 0;
  private recvPiece = 0;
  private doneElements = 0;
  private ownedCounted = false;
  private waiter: PieceWaiter | undefined;
  private resolveReceived!: () => void;
  private readonly received: Promise<void>;

  constructor(
    private readonly links: RingLinks,
    private readonly schedule: RingSchedule,
    private readonly op: number,
    input: Float32Array,
    ioTimeoutMs: number,
    private readonly options: AllReduceCallOptions,
  ) {
    this.acc = input.slice();
    this.receivedInStep = new Uint32Array(Math.max(1, schedule.steps));
    this.guard = new OpGuard(`ring allreduce #${op} on rank ${schedule.rank}`, ioTimeoutMs, options.signal);
    this.received = new Promise((resolve) => {
      this.resolveReceived = resolve;
    });
  }

  /** Runs the call to the end; rejects with a BaselineError, after failing both links. */
  async run(): Promise<Float32Array> {
    const { toSuccessor, fromPredecessor } = this.links;
    this.guard.onFailure((error) => {
      toSuccessor.fail(error, true);
      fromPredecessor.fail(error, true);
    });
    toSuccessor.onActivity = this.guard.activity;
    fromPredecessor.onActivity = this.guard.activity;
    toSuccessor.setHandler({
      onFrame: (frame) => {
        throw new BaselineError(BASELINE_ERROR_CODES.unexpectedFrame, `${toSuccessor.peer} sent ${frame.type.toUpperCase()}, but a successor only receives`);
      },
      onFailure: (error) => this.guard.fail(error),
    });
    fromPredecessor.setHandler({ onFrame: (frame) => this.onFrame(frame), onFailure: (error) => this.guard.fail(error) });
    // Once every frame is written, the successor may close whenever it has read them (it may finish
    // before this rank does): from then on its connection is none of this call's business.
    const sending = this.sendAll().then(() => toSuccessor.setHandler(undefined));
    try {
      await this.guard.race(Promise.all([sending, this.received]));
      this.guard.check();
      return this.acc;
    } catch (err) {
      // Whatever went wrong, the ring is out of step now: close both links so the neighbours learn of it.
      this.guard.fail(err instanceof BaselineError ? err : new BaselineError(BASELINE_ERROR_CODES.unusable, `ring allreduce failed: ${String(err)}`, { cause: err }));
      throw err;
    } finally {
      this.guard.dispose();
      this.waiter = undefined;
      toSuccessor.setHandler(undefined);
      fromPredecessor.setHandler(undefined);
      toSuccessor.onActivity = undefined;
      fromPredecessor.onActivity = undefined;
    }
  }

  private async send(frame: Buffer): Promise<void> {
    this.counts.framesSent++;
    this.counts.wireBytesSent += frame.length;
    await this.links.toSuccessor.send(frame);
    this.guard.check();
  }

  private async sendAll(): Promise<void> {
    const s = this.schedule;
    await this.send(encodeBegin(this.op, s.length));
    for (let step = 0; step < s.steps; step++) {
      const chunk = s.sendChunk(step);
      const pieces = s.pieceCount(chunk);
      for (let piece = 0; piece < pieces; piece++) {
        if (step > 0) await this.pieceReceived(step - 1, piece);
        const start = s.chunkStart(chunk) + piece * s.pieceElements;
        const values = this.acc.subarray(start, start + s.pieceLength(chunk, piece));
        await this.send(encodeData({ op: this.op, step, chunk, offset: piece * s.pieceElements }, values));
      }
    }
    // Until the last frame has left this process, the successor's call depends on this one's event
    // loop. The caller may keep that loop busy right after the call (checking the result, computing
    // the next gradients): a worker's 8 × 64 MiB --check held its successor for over 30 s that way.
    await this.guard.race(this.links.toSuccessor.flush());
  }

  /** Resolves once piece `piece` of step `step` has been received and applied. */
  private pieceReceived(step: number, piece: number): Promise<void> {
    if (this.receivedInStep[step] > piece) return Promise.resolve();
    return this.guard.race(new Promise<void>((resolve) => (this.waiter = { step, piece, resolve })));
  }

  private onFrame(frame: Frame): void {
    const s = this.schedule;
    const from = this.links.fromPredecessor.peer;
    this.counts.framesReceived++;
    if (!this.gotBegin) {
      if (frame.type !== 'begin' || frame.op !== this.op) {
        throw new BaselineError(BASELINE_ERROR_CODES.unexpectedFrame, `${from} sent ${describe(frame)} where BEGIN of call #${this.op} was due`);
      }
      if (frame.elementCount !== s.length) {
        throw new BaselineError(
          BASELINE_ERROR_CODES.lengthMismatch,
          `rank ${s.rank} was given ${s.length} elements but ${from} has ${frame.elementCount}; every rank must pass a tensor of the same length`,
        );
      }
      this.counts.wireBytesReceived += FRAME_LENGTH_BYTES + 12;
      this.gotBegin = true;
      this.skipEmptySteps();
      return;
    }
    if (this.recvStep >= s.steps || frame.type !== 'data') {
      throw new BaselineError(BASELINE_ERROR_CODES.unexpectedFrame, `${from} sent ${describe(frame)} after the last expected frame`);
    }
    this.applyData(frame, from);
  }

  private applyData(frame: Extract<Frame, { type: 'data' }>, from: string): void {
    const s = this.schedule;
    const step = this.recvStep;
    const chunk = s.recvChunk(step);
    const length = s.pieceLength(chunk, this.recvPiece);
    const offset = this.recvPiece * s.pieceElements;
    const count = frame.payload.length / 4;
    if (frame.op !== this.op || frame.step !== step || frame.chunk !== chunk || frame.offset !== offset || count !== length) {
      throw new BaselineError(
        BASELINE_ERROR_CODES.unexpectedFrame,
        `${from} sent ${describe(frame)} where DATA op ${this.op} step ${step} chunk ${chunk} offset ${offset} of ${length} values was due`,
      );
    }
    this.counts.wireBytesReceived += FRAME_LENGTH_BYTES + DATA_HEADER_BYTES + frame.payload.length;
    const values = readFloatsLE(frame.payload);
    const base = s.chunkStart(chunk) + offset;
    if (s.isReduceStep(step)) {
      // The Float32Array store rounds the double sum to float32, which equals a float32 add.
      const acc = this.acc;
      for (let i = 0; i < count; i++) acc[base + i] += values[i];
    } else {
      this.acc.set(values, base);
      this.doneElements += count;
      this.options.onProgress?.(this.doneElements, s.length);
    }
    this.receivedInStep[step]++;
    this.recvPiece++;
    if (this.recvPiece === s.pieceCount(chunk)) {
      this.recvStep++;
      this.recvPiece = 0;
      this.skipEmptySteps();
    }
    const waiter = this.waiter;
    if (waiter && this.receivedInStep[waiter.step] > waiter.piece) {
      this.waiter = undefined;
      waiter.resolve();
    }
  }

  /** Moves past steps whose chunk is empty; finishes receiving after the last step. */
  private skipEmptySteps(): void {
    const s = this.schedule;
    while (this.recvStep < s.steps && s.pieceCount(s.recvChunk(this.recvStep)) === 0) this.recvStep++;
    if (!this.ownedCounted && this.recvStep >= s.worldSize - 1) {
      // Reduce-scatter is over: this rank's own chunk is final.
      this.ownedCounted = true;
      this.doneElements += s.chunkLength(s.ownedChunk());
      this.options.onProgress?.(this.doneElements, s.length);
    }
    if (this.recvStep >= s.steps) {
      this.links.fromPredecessor.setHandler(undefined);
      this.resolveReceived();
    }
  }
}

function describe(frame: Frame): string {
  switch (frame.type) {
    case 'data':
      return `DATA op ${frame.op} step ${frame.step} chunk ${frame.chunk} offset ${frame.offset} of ${frame.payload.length / 4} values`;
    case 'begin':
      return `BEGIN op ${frame.op} of ${frame.elementCount} elements`;
    default:
      return frame.type.toUpperCase();
  }
}
