/**
 * The parameter server of the second baseline: a separate role (its own
 * process in a real run) that workers connect to. It takes HELLOs from up to
 * `worldSize` workers of one job, each rank once, and when all are there runs
 * rounds for them (see ParameterServerSession). When the session ends,
 * because the workers left or something failed, it accepts a new set.
 *
 * Sums are float64, added in rank order, rounded once to float32: the result
 * is Math.fround of the float64 reference, the same on every worker.
 */
import type { Socket } from 'node:net';
import { moduleLogger } from '../../log/logger.js';
import { asBaselineError, BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { encodeHello, maxBodyBytes, ROLE } from './frame.js';
import { FramedConnection } from './framed-connection.js';
import { checkHello, deadlineIn, receiveHello } from './handshake.js';
import { Listener } from './listener.js';
import { ParameterServerSession } from './ps-session.js';
import { checkCommonOptions, DEFAULT_JOB_ID, DEFAULT_PIECE_ELEMENTS } from './defaults.js';

export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
/** The most workers one server takes. */
export const MAX_PS_WORKERS = 4096;

export interface ParameterServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (any free port; read `endpoint`). */
  readonly port?: number;
  /** An already bound listener to use instead of host/port. */
  readonly listener?: Listener;
  readonly worldSize: number;
  readonly jobId?: string;
  /** Values per DATA frame; the workers must use the same. */
  readonly pieceElements?: number;
  /** How long a new connection has to send its HELLO. */
  readonly handshakeTimeoutMs?: number;
  /** Called after every completed round with the total so far (e.g. to stop after K rounds). */
  readonly onRound?: (rounds: number) => void;
}

const log = moduleLogger('agent.baseline.ps-server');

export class ParameterServer {
  /** Sessions that ended in a failure during a round (workers leaving between rounds is not one). */
  failures = 0;
  /** The last such failure, for diagnostics. */
  lastFailure: BaselineError | undefined;
  private roundsOfEndedSessions = 0;
  private session: ParameterServerSession;
  private readonly pending = new Set<FramedConnection>();
  private closing: Promise<void> | undefined;
  private readonly hello: Buffer;

  private constructor(
    private readonly listener: Listener,
    readonly worldSize: number,
    readonly jobId: string,
    private readonly pieceElements: number,
    private readonly handshakeTimeoutMs: number,
    private readonly onRound: ((rounds: number) => void) | undefined,
  ) {
    this.hello = encodeHello({ role: ROLE.psServer, rank: 0, worldSize, pieceElements, jobId });
    this.session = this.newSession();
    listener.onConnection((socket) => this.accept(socket));
  }

  static async start(options: ParameterServerOptions): Promise<ParameterServer> {
    const worldSize = options.worldSize;
    const pieceElements = options.pieceElements ?? DEFAULT_PIECE_ELEMENTS;
    const jobId = options.jobId ?? DEFAULT_JOB_ID;
    if (!Number.isInteger(worldSize) || worldSize < 1 || worldSize > MAX_PS_WORKERS) throw new RangeError(`world size must be in 1..${MAX_PS_WORKERS}, got ${worldSize}`);
    checkCommonOptions(options);
    const listener = options.listener ?? (await Listener.bind({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 }));
    return new ParameterServer(listener, worldSize, jobId, pieceElements, options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS, options.onRound);
  }

  get endpoint(): Listener['endpoint'] {
    return this.listener.endpoint;
  }

  /** `host:port` for the workers' --server option. */
  get address(): string {
    return this.listener.address;
  }

  /** Rounds completed over the server's life. */
  get rounds(): number {
    return this.roundsOfEndedSessions + this.session.rounds;
  }

  /** Stops accepting, disconnects every worker and waits until all sockets are closed. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const listenerClosed = this.listener.close();
      for (const connection of this.pending) connection.fail(new BaselineError(BASELINE_ERROR_CODES.peerClosed, 'the parameter server is shutting down'), true);
      await Promise.all([...this.pending].map((connection) => connection.closed));
      await this.session.close();
      await listenerClosed;
    })();
    return this.closing;
  }

  private newSession(): ParameterServerSession {
    return new ParameterServerSession(this.worldSize, this.pieceElements, (session, failure, duringRound) => {
      if (duringRound) {
        this.failures++;
        this.lastFailure = failure;
        log.warn({ code: failure.code }, `parameter server session failed: ${failure.message}`);
      } else {
        log.debug({ code: failure.code }, 'parameter server session ended');
      }
      if (session === this.session && !this.closing) {
        this.roundsOfEndedSessions += session.rounds;
        this.session = this.newSession();
      }
    }, () => this.onRound?.(this.rounds));
  }

  private accept(socket: Socket): void {
    const connection = new FramedConnection(socket, `the connection from ${socket.remoteAddress}:${socket.remotePort}`, maxBodyBytes(this.pieceElements));
    this.pending.add(connection);
    receiveHello(connection, deadlineIn(this.handshakeTimeoutMs), undefined)
      .then(async (hello) => {
        const session = this.session;
        checkHello(hello, { role: ROLE.psWorker, jobId: this.jobId, worldSize: this.worldSize, pieceElements: this.pieceElements, rank: (rank) => rank < this.worldSize && !session.hasRank(rank) }, connection.peer);
        connection.peer = `worker ${hello.rank} (${socket.remoteAddress}:${socket.remotePort})`;
        await connection.send(this.hello);
        this.pending.delete(connection);
        if (session.ended || this.closing) throw new BaselineError(BASELINE_ERROR_CODES.peerClosed, 'the session this worker joined has ended; connect again');
        session.join(hello.rank, connection);
      })
      .catch((err: unknown) => {
        this.pending.delete(connection);
        const error = asBaselineError(err, BASELINE_ERROR_CODES.malformedFrame, `handshake with ${connection.peer}`);
        log.debug({ code: error.code }, `refused a worker: ${error.message}`);
        connection.fail(error, true);
      });
  }
}
