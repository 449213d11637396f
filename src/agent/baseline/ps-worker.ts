/**
 * A worker of the parameter-server baseline, behind the same AllReduce API
 * as the ring. A call sends BEGIN and the tensor in pieces to the server and,
 * at the same time, takes the server's BEGIN answer (which confirms that all
 * workers passed the same length) and the summed pieces, in order, into the
 * result. Sending and receiving run concurrently: the server answers piece k
 * as soon as every worker's piece k is in, long before a big tensor is sent.
 *
 * The result is Math.fround of the float64 rank-order sum, bit-identical on
 * every worker (they all receive the same frames). After a failed or aborted
 * call the connection is closed and further calls reject with
 * BASELINE_UNUSABLE; connect again.
 */
import type { AllReduce, AllReduceCallOptions, AllReduceResult, AllReduceStats } from '../allreduce.js';
import { REAL_CLOCK, type AgentClock } from '../time.js';
import { asBaselineError, BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { checkCommonOptions, checkTensor, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IO_TIMEOUT_MS, DEFAULT_JOB_ID, DEFAULT_PIECE_ELEMENTS } from './defaults.js';
import { formatEndpoint, parseEndpoint, type Endpoint } from './endpoint.js';
import { readFloatsLE } from './float-bytes.js';
import { DATA_HEADER_BYTES, encodeBegin, encodeData, encodeHello, FRAME_LENGTH_BYTES, maxBodyBytes, PS_STEP, ROLE, type Frame } from './frame.js';
import type { FramedConnection } from './framed-connection.js';
import { deadlineIn, dialAndGreet } from './handshake.js';
import { OpGuard } from './op-guard.js';

export interface ParameterServerStats extends AllReduceStats {
  readonly algorithm: 'parameter-server';
  readonly wireBytesSent: number;
  readonly wireBytesReceived: number;
  readonly pieceElements: number;
}

export interface ParameterServerWorkerOptions {
  readonly rank: number;
  readonly worldSize: number;
  /** The server's `host:port`. */
  readonly server: string | Endpoint;
  readonly jobId?: string;
  readonly pieceElements?: number;
  readonly connectTimeoutMs?: number;
  readonly ioTimeoutMs?: number;
  /** Aborts connecting. */
  readonly signal?: AbortSignal;
  /** The clock each call's elapsedMs is read on; default the process's monotonic clock. */
  readonly clock?: AgentClock;
}

export interface ExchangeCounts {
  framesSent: number;
  framesReceived: number;
  wireBytesSent: number;
  wireBytesReceived: number;
}

export class ParameterServerWorker implements AllReduce<ParameterServerStats> {
  private op = 0;
  private busy = false;
  private broken: BaselineError | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly rank: number,
    readonly worldSize: number,
    private readonly connection: FramedConnection,
    private readonly pieceElements: number,
    private readonly ioTimeoutMs: number,
    private readonly clock: AgentClock,
  ) {}

  /** Connects to the server (retrying until it listens, within connectTimeoutMs) and says hello. */
  static async connect(options: ParameterServerWorkerOptions): Promise<ParameterServerWorker> {
    const { rank, worldSize } = options;
    if (!Number.isInteger(worldSize) || worldSize < 1) throw new RangeError(`world size must be an integer >= 1, got ${worldSize}`);
    if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize) throw new RangeError(`rank must be in 0..${worldSize - 1}, got ${rank}`);
    checkCommonOptions(options);
    const pieceElements = options.pieceElements ?? DEFAULT_PIECE_ELEMENTS;
    const jobId = options.jobId ?? DEFAULT_JOB_ID;
    const endpoint = typeof options.server === 'string' ? parseEndpoint(options.server, 'parameter server address') : options.server;
    const connection = await dialAndGreet({
      endpoint,
      peerName: `the parameter server (${formatEndpoint(endpoint)})`,
      hello: encodeHello({ role: ROLE.psWorker, rank, worldSize, pieceElements, jobId }),
      expected: { role: ROLE.psServer, jobId, worldSize, pieceElements, rank: 0 },
      maxBodyBytes: maxBodyBytes(pieceElements),
      deadline: deadlineIn(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS),
      signal: options.signal,
    });
    return new ParameterServerWorker(rank, worldSize, connection, pieceElements, options.ioTimeoutMs ?? DEFAULT_IO_TIMEOUT_MS, options.clock ?? REAL_CLOCK);
  }

  async allreduce(data: Float32Array, options: AllReduceCallOptions = {}): Promise<AllReduceResult<ParameterServerStats>> {
    checkTensor(data);
    if (this.busy) throw new Error('allreduce is already running on this instance; calls must not overlap');
    if (this.closing) throw new BaselineError(BASELINE_ERROR_CODES.unusable, `parameter-server worker ${this.rank} is closed`);
    if (this.broken) {
      throw new BaselineError(BASELINE_ERROR_CODES.unusable, `parameter-server worker ${this.rank} is broken by an earlier failure (${this.broken.code}); connect again`, { cause: this.broken });
    }
    const started = this.clock.now();
    const op = this.op;
    this.op = (this.op + 1) >>> 0;
    this.busy = true;
    const counts: ExchangeCounts = { framesSent: 0, framesReceived: 0, wireBytesSent: 0, wireBytesReceived: 0 };
    const guard = new OpGuard(`parameter-server allreduce #${op} on worker ${this.rank}`, this.ioTimeoutMs, options.signal);
    try {
      const result = await exchangeWithAggregator(this.connection, this.pieceElements, op, data, options, guard, counts);
      return {
        result,
        stats: {
          algorithm: 'parameter-server',
          bytes: data.length * 4,
          elapsedMs: this.clock.now() - started,
          messagesSent: counts.framesSent,
          messagesReceived: counts.framesReceived,
          retransmissions: 0,
          wireBytesSent: counts.wireBytesSent,
          wireBytesReceived: counts.wireBytesReceived,
          pieceElements: this.pieceElements,
        },
      };
    } catch (err) {
      this.broken = err instanceof BaselineError ? err : new BaselineError(BASELINE_ERROR_CODES.unusable, String(err), { cause: err });
      guard.fail(this.broken);
      throw err;
    } finally {
      guard.dispose();
      this.connection.setHandler(undefined);
      this.connection.onActivity = undefined;
      this.busy = false;
    }
  }

  /** Closes the connection (flushing what was sent) and waits until it is closed. */
  close(): Promise<void> {
    this.closing ??= this.connection.close();
    return this.closing;
  }
}

/**
 * One call as seen by a worker of an aggregating host (the parameter server,
 * a hierarchical rack's leader): BEGIN and the tensor in pieces out, at the
 * same time the host's BEGIN (the lengths agree) and the sums in order in.
 */
export async function exchangeWithAggregator(
  connection: FramedConnection,
  pieceElements: number,
  op: number,
  data: Float32Array,
  options: AllReduceCallOptions,
  guard: OpGuard,
  counts: ExchangeCounts,
): Promise<Float32Array> {
  const length = data.length;
  const result = new Float32Array(length);
  let gotBegin = false;
  let resolvedAll = false;
  let nextOffset = 0;
  let resolveReceived!: () => void;
  const received = new Promise<void>((resolve) => (resolveReceived = resolve));
  const onFrame = (frame: Frame): void => {
    counts.framesReceived++;
    if (!gotBegin) {
      if (frame.type !== 'begin' || frame.op !== op || frame.elementCount !== length) {
        throw new BaselineError(BASELINE_ERROR_CODES.unexpectedFrame, `${connection.peer} sent ${frame.type.toUpperCase()} where BEGIN of call #${op} for ${length} elements was due`);
      }
      gotBegin = true;
      counts.wireBytesReceived += FRAME_LENGTH_BYTES + 12;
    } else {
      const count = Math.min(pieceElements, length - nextOffset);
      if (frame.type !== 'data' || frame.op !== op || frame.step !== PS_STEP.result || frame.chunk !== 0 || frame.offset !== nextOffset || count <= 0 || frame.payload.length !== count * 4) {
        throw new BaselineError(BASELINE_ERROR_CODES.unexpectedFrame, `${connection.peer} sent ${frame.type.toUpperCase()} where the sum at offset ${nextOffset} of call #${op} was due`);
      }
      counts.wireBytesReceived += FRAME_LENGTH_BYTES + DATA_HEADER_BYTES + frame.payload.length;
      result.set(readFloatsLE(frame.payload), nextOffset);
      nextOffset += count;
      options.onProgress?.(nextOffset, length);
    }
    if (nextOffset === length) {
      resolvedAll = true;
      connection.setHandler(undefined);
      resolveReceived();
    }
  };
  guard.onFailure((error) => connection.fail(error, true));
  connection.onActivity = guard.activity;
  connection.setHandler({ onFrame, onFailure: (error) => guard.fail(error) });
  const send = async (frame: Buffer): Promise<void> => {
    counts.framesSent++;
    counts.wireBytesSent += frame.length;
    await connection.send(frame);
    guard.check();
  };
  const sendAll = async (): Promise<void> => {
    await send(encodeBegin(op, length));
    for (let offset = 0; offset < length; offset += pieceElements) {
      await send(encodeData({ op, step: PS_STEP.contribution, chunk: 0, offset }, data.subarray(offset, Math.min(length, offset + pieceElements))));
    }
  };
  // The last sum cannot arrive before the server has every piece of ours, so the call is done when it
  // arrives; a send still pending then (or failing later, as the server hangs up) changes nothing.
  void sendAll().catch((err: unknown) => {
    if (!resolvedAll) guard.fail(asBaselineError(err, BASELINE_ERROR_CODES.peerClosed, `sending to ${connection.peer}`));
  });
  await guard.race(received);
  guard.check();
  return result;
}
