/**
 * Ring AllReduce over TCP, the first baseline: the classic reduce-scatter
 * then all-gather (see RingSchedule), with each step streamed in pieces.
 *
 * Numbers: the ring sums in float32, each chunk in the fixed order of the
 * ring (rank c, c+1, …, c+n-1 for chunk c), and the all-gather copies the
 * owner's bits, so every rank gets bit-identical results, and each element
 * is within (n-1)·2^-24·Σ|x_i| of the exact sum (recursive summation; see
 * accuracy.ts).
 *
 * After a failed or aborted call the ring is broken (the neighbours see their
 * connections close) and further calls reject with BASELINE_UNUSABLE; close
 * it and form a new one.
 */
import type { AllReduce, AllReduceCallOptions, AllReduceResult, AllReduceStats } from '../allreduce.js';
import { moduleLogger } from '../../log/logger.js';
import { REAL_CLOCK, type AgentClock } from '../time.js';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { parseEndpoint, type Endpoint } from './endpoint.js';
import { checkCommonOptions, checkTensor, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IO_TIMEOUT_MS, DEFAULT_JOB_ID, DEFAULT_PIECE_ELEMENTS } from './defaults.js';
import { Listener } from './listener.js';
import { RingOperation, type RingLinks } from './ring-operation.js';
import { RingSchedule } from './ring-schedule.js';
import { deadlineIn } from './handshake.js';
import { formRing } from './ring-setup.js';

/** The largest ring: its 2(n-1) steps must fit the frame's u16 step field. */
export const MAX_RING_SIZE = 32_768;

export interface RingStats extends AllReduceStats {
  readonly algorithm: 'ring';
  /** Bytes this rank wrote to its successor, frame headers included. */
  readonly wireBytesSent: number;
  /** Bytes of frames this rank took from its predecessor for this call. */
  readonly wireBytesReceived: number;
  /** 2(n-1). */
  readonly steps: number;
  readonly pieceElements: number;
}

export interface RingOptions {
  readonly rank: number;
  readonly worldSize: number;
  /** Every rank's `host:port`, by rank; this rank listens on its own entry unless `listener` is given. */
  readonly peers: readonly (string | Endpoint)[];
  /** Must be the same on every rank (1..64 bytes); default "default". */
  readonly jobId?: string;
  /** Values per DATA frame; must be the same on every rank. */
  readonly pieceElements?: number;
  /** How long forming the ring may take. */
  readonly connectTimeoutMs?: number;
  /** A call fails when nothing moves for this long (it also bounds how long ranks may wait for each other). */
  readonly ioTimeoutMs?: number;
  /** An already bound listener to accept the predecessor on (for port 0); the ring takes it over. */
  readonly listener?: Listener;
  /** Aborts forming the ring. */
  readonly signal?: AbortSignal;
  /** The clock each call's elapsedMs is read on; default the process's monotonic clock. */
  readonly clock?: AgentClock;
}

const log = moduleLogger('agent.baseline.ring');

export class RingAllReduce implements AllReduce<RingStats> {
  private op = 0;
  private busy = false;
  private broken: BaselineError | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly rank: number,
    readonly worldSize: number,
    private readonly links: RingLinks | undefined,
    private readonly listener: Listener | undefined,
    private readonly pieceElements: number,
    private readonly ioTimeoutMs: number,
    private readonly clock: AgentClock,
  ) {}

  /** Binds (unless given a listener) and forms the ring; resolves once both neighbours are connected. */
  static async connect(options: RingOptions): Promise<RingAllReduce> {
    const { rank, worldSize } = options;
    try {
      checkOptions(options);
    } catch (err) {
      await options.listener?.close();
      throw err;
    }
    const pieceElements = options.pieceElements ?? DEFAULT_PIECE_ELEMENTS;
    const ioTimeoutMs = options.ioTimeoutMs ?? DEFAULT_IO_TIMEOUT_MS;
    const clock = options.clock ?? REAL_CLOCK;
    const peers = options.peers.map((peer, i) => (typeof peer === 'string' ? parseEndpoint(peer, `peer ${i}`) : peer));
    if (worldSize === 1) {
      // Alone: nothing to connect to; the sum is the input.
      await options.listener?.close();
      return new RingAllReduce(rank, worldSize, undefined, undefined, pieceElements, ioTimeoutMs, clock);
    }
    const listener = options.listener ?? (await Listener.bind({ host: peers[rank]!.host, port: peers[rank]!.port }));
    try {
      const links = await formRing(listener, {
        rank,
        worldSize,
        peers,
        jobId: options.jobId ?? DEFAULT_JOB_ID,
        pieceElements,
        deadline: deadlineIn(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS),
        signal: options.signal,
      });
      log.debug({ rank, worldSize }, 'ring formed');
      return new RingAllReduce(rank, worldSize, links, listener, pieceElements, ioTimeoutMs, clock);
    } catch (err) {
      await listener.close();
      throw err;
    }
  }

  async allreduce(data: Float32Array, options: AllReduceCallOptions = {}): Promise<AllReduceResult<RingStats>> {
    checkTensor(data);
    if (this.busy) throw new Error('allreduce is already running on this instance; calls must not overlap');
    if (this.closing) throw new BaselineError(BASELINE_ERROR_CODES.unusable, `ring rank ${this.rank} is closed`);
    if (this.broken) throw new BaselineError(BASELINE_ERROR_CODES.unusable, `ring rank ${this.rank} is broken by an earlier failure (${this.broken.code}); close it and form a new ring`, { cause: this.broken });
    const started = this.clock.now();
    const op = this.op;
    this.op = (this.op + 1) >>> 0;
    const schedule = new RingSchedule(data.length, this.worldSize, this.rank, this.pieceElements);
    const stats = (counts: { framesSent: number; framesReceived: number; wireBytesSent: number; wireBytesReceived: number }): RingStats => ({
      algorithm: 'ring',
      bytes: data.length * 4,
      elapsedMs: this.clock.now() - started,
      messagesSent: counts.framesSent,
      messagesReceived: counts.framesReceived,
      retransmissions: 0,
      wireBytesSent: counts.wireBytesSent,
      wireBytesReceived: counts.wireBytesReceived,
      steps: schedule.steps,
      pieceElements: this.pieceElements,
    });
    if (!this.links) {
      if (options.signal?.aborted) throw new BaselineError(BASELINE_ERROR_CODES.aborted, 'ring allreduce was aborted', { cause: options.signal.reason });
      options.onProgress?.(data.length, data.length);
      return { result: data.slice(), stats: stats({ framesSent: 0, framesReceived: 0, wireBytesSent: 0, wireBytesReceived: 0 }) };
    }
    this.busy = true;
    const operation = new RingOperation(this.links, schedule, op, data, this.ioTimeoutMs, options);
    try {
      const result = await operation.run();
      return { result, stats: stats(operation.counts) };
    } catch (err) {
      this.broken = err instanceof BaselineError ? err : new BaselineError(BASELINE_ERROR_CODES.unusable, String(err), { cause: err });
      log.debug({ rank: this.rank, op, code: this.broken.code }, 'ring allreduce failed');
      throw err;
    } finally {
      this.busy = false;
    }
  }

  /** Closes both connections (flushing what was sent) and the listener; waits until they are closed. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.links) await Promise.all([this.links.toSuccessor.close(), this.links.fromPredecessor.close()]);
      await this.listener?.close();
    })();
    return this.closing;
  }
}

/** Throws RangeError/TypeError for options no caller should pass (the command line checks its input first). */
function checkOptions(options: RingOptions): void {
  const { rank, worldSize, peers } = options;
  if (!Number.isInteger(worldSize) || worldSize < 1 || worldSize > MAX_RING_SIZE) throw new RangeError(`world size must be an integer in 1..${MAX_RING_SIZE}, got ${worldSize}`);
  if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize) throw new RangeError(`rank must be in 0..${worldSize - 1}, got ${rank}`);
  if (peers.length !== worldSize) throw new RangeError(`need one peer address per rank: ${worldSize} ranks but ${peers.length} addresses`);
  checkCommonOptions(options);
}
