/**
 * The HELLO exchange that opens every baseline connection. The connecting
 * side speaks first; the accepting side checks the HELLO and answers with its
 * own, or with an ERROR frame saying what did not match. Both sides then
 * check the other: same protocol version, job id, world size and piece size,
 * the expected role, and the rank the topology says should be there. Any
 * difference is BASELINE_HANDSHAKE_MISMATCH naming the field and both values.
 */
import type { Socket } from 'node:net';
import { REAL_TIMERS, type AgentClock, type AgentTimers } from '../time.js';
import { asBaselineError, BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { abortedError, dialUntil, pause } from './dial.js';
import type { Endpoint } from './endpoint.js';
import { PROTOCOL_VERSION, ROLE, type HelloFrame, type Role } from './frame.js';
import { FramedConnection } from './framed-connection.js';
import type { Listener } from './listener.js';

/**
 * The clock deadlines are read on and the timers that enforce them. The
 * baselines' deadlines are wall-clock milliseconds (their callers compute
 * them with deadlineIn), so that is the default clock; tests may pass their own.
 */
export interface HandshakeTime {
  readonly clock: AgentClock;
  readonly timers: AgentTimers;
}

export const WALL_TIME: HandshakeTime = { clock: { now: () => Date.now() }, timers: REAL_TIMERS };

/** The deadline `ms` from now on `time`'s clock (the wall clock by default), as set-up and handshakes take it. */
export function deadlineIn(ms: number, time: HandshakeTime = WALL_TIME): number {
  return time.clock.now() + ms;
}

/** Pause before dialling again after a listener hung up on us (it was not taking connections yet). */
const RETRY_PAUSE_MS = 50;

/** What this side expects of its peer's HELLO. */
export interface HelloExpectation {
  readonly role: Role;
  readonly jobId: string;
  readonly worldSize: number;
  readonly pieceElements: number;
  /** The one rank allowed, or a check of the rank (true when acceptable). */
  readonly rank: number | ((rank: number) => boolean);
}

const ROLE_NAMES: Record<Role, string> = {
  [ROLE.ring]: 'ring worker',
  [ROLE.psWorker]: 'parameter-server worker',
  [ROLE.psServer]: 'parameter server',
  [ROLE.rackLeader]: 'hierarchical rack leader',
  [ROLE.rackMember]: 'hierarchical rack member',
};

function mismatch(peer: string, field: string, got: string | number, expected: string | number): BaselineError {
  return new BaselineError(
    BASELINE_ERROR_CODES.handshakeMismatch,
    `handshake with ${peer}: its ${field} is ${JSON.stringify(got)} but this side expects ${JSON.stringify(expected)}; ` +
      'check that every worker was started with the same job id, world size and peer list',
  );
}

/** Throws BASELINE_HANDSHAKE_MISMATCH unless `hello` is what `expected` describes. */
export function checkHello(hello: HelloFrame, expected: HelloExpectation, peer: string): void {
  if (hello.version !== PROTOCOL_VERSION) throw mismatch(peer, 'protocol version', hello.version, PROTOCOL_VERSION);
  if (hello.role !== expected.role) throw mismatch(peer, 'role', ROLE_NAMES[hello.role], ROLE_NAMES[expected.role]);
  if (hello.jobId !== expected.jobId) throw mismatch(peer, 'job id', hello.jobId, expected.jobId);
  if (hello.worldSize !== expected.worldSize) throw mismatch(peer, 'world size', hello.worldSize, expected.worldSize);
  if (hello.pieceElements !== expected.pieceElements) throw mismatch(peer, 'piece size', hello.pieceElements, expected.pieceElements);
  const rankOk = typeof expected.rank === 'number' ? hello.rank === expected.rank : expected.rank(hello.rank);
  if (!rankOk) {
    throw mismatch(peer, 'rank', hello.rank, typeof expected.rank === 'number' ? expected.rank : `a free rank below ${expected.worldSize}`);
  }
}

/**
 * Waits for the peer's HELLO until `deadline` (a value of `time.clock`).
 * Rejects with the connection's failure, BASELINE_UNEXPECTED_FRAME if
 * something else comes first, BASELINE_CONNECT_TIMEOUT, or BASELINE_ABORTED.
 */
export function receiveHello(connection: FramedConnection, deadline: number, signal: AbortSignal | undefined, time: HandshakeTime = WALL_TIME): Promise<HelloFrame> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (): void => {
      settled = true;
      cancelTimer();
      signal?.removeEventListener('abort', onAbort);
      connection.setHandler(undefined);
    };
    const onAbort = (): void => {
      const error = abortedError(signal!, `the handshake with ${connection.peer}`);
      connection.fail(error, false);
    };
    const cancelTimer = time.timers.schedule(deadline - time.clock.now(), () => {
      connection.fail(new BaselineError(BASELINE_ERROR_CODES.connectTimeout, `${connection.peer} did not complete the handshake in time`), false);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    connection.setHandler({
      onFrame(frame) {
        if (settled) return;
        if (frame.type !== 'hello') {
          throw new BaselineError(BASELINE_ERROR_CODES.unexpectedFrame, `${connection.peer} sent ${frame.type.toUpperCase()} before HELLO`);
        }
        settle();
        resolve(frame);
      },
      onFailure(error) {
        if (settled) return;
        settle();
        reject(error);
      },
    });
    if (signal?.aborted) onAbort();
  });
}

export interface DialAndGreetOptions {
  readonly endpoint: Endpoint;
  /** Names the peer in messages. */
  readonly peerName: string;
  /** This side's encoded HELLO. */
  readonly hello: Buffer;
  readonly expected: HelloExpectation;
  readonly maxBodyBytes: number;
  /** A value of the handshake's clock (by default Date.now()). */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  /** Every connection made is added here, so the caller can close them if set-up fails elsewhere. */
  readonly opened?: FramedConnection[];
  /** Default WALL_TIME. */
  readonly time?: HandshakeTime;
}

/**
 * Connects, sends our HELLO and checks the answer. Retries while the peer is
 * not listening or hangs up without a word (its listener is bound but not yet
 * taking connections); a mismatch or an ERROR frame fails at once.
 */
export async function dialAndGreet(options: DialAndGreetOptions): Promise<FramedConnection> {
  const { peerName, deadline, signal } = options;
  const time = options.time ?? WALL_TIME;
  // Bounded: each turn dials (which gives up at the deadline), returns, throws, or pauses.
  while (true) {
    const socket = await dialUntil(options.endpoint, deadline, signal, peerName);
    const connection = new FramedConnection(socket, peerName, options.maxBodyBytes);
    options.opened?.push(connection);
    try {
      await connection.send(options.hello);
      const hello = await receiveHello(connection, deadline, signal, time);
      checkHello(hello, options.expected, peerName);
      return connection;
    } catch (err) {
      const error = asBaselineError(err, BASELINE_ERROR_CODES.malformedFrame, `handshake with ${peerName}`);
      connection.fail(error, true);
      if (error.code !== BASELINE_ERROR_CODES.peerClosed) throw error;
      if (time.clock.now() + RETRY_PAUSE_MS >= deadline) {
        throw new BaselineError(BASELINE_ERROR_CODES.connectTimeout, `${peerName} kept closing the connection without a handshake until the deadline; is it running this job?`, { cause: error });
      }
    }
    await pause(RETRY_PAUSE_MS, signal, `connecting to ${peerName}`);
  }
}

export interface AcceptAndGreetOptions {
  /** Names this side in messages, e.g. "rank 2". */
  readonly self: string;
  /** Names the one peer expected, e.g. "rank 1". */
  readonly peerName: string;
  /** This side's encoded HELLO, the answer to the peer's. */
  readonly hello: Buffer;
  readonly expected: HelloExpectation;
  readonly maxBodyBytes: number;
  /** A value of the handshake's clock (by default Date.now()). */
  readonly deadline: number;
  readonly signal: AbortSignal;
  /** Every connection accepted is added here, so the caller can close them if set-up fails elsewhere. */
  readonly opened: FramedConnection[];
  /** Default WALL_TIME. */
  readonly time?: HandshakeTime;
}

/**
 * Waits on `listener` for the one peer `expected` describes, checks its HELLO
 * and answers it. A connection with a wrong or malformed HELLO fails set-up at
 * once (the peer is told why) rather than waiting for one that will never be
 * right; so does a second connection claiming the same rank.
 */
export function acceptAndGreet(listener: Listener, options: AcceptAndGreetOptions): Promise<FramedConnection> {
  const { peerName, signal } = options;
  return new Promise<FramedConnection>((resolve, reject) => {
    let accepted = false;
    const finish = (error: BaselineError | undefined, connection?: FramedConnection): void => {
      cancelTimer();
      signal.removeEventListener('abort', onAbort);
      listener.onConnection(undefined);
      if (error) reject(error);
      else resolve(connection!);
    };
    const onAbort = (): void => finish(abortedError(signal, `waiting for ${peerName}`));
    const time = options.time ?? WALL_TIME;
    const cancelTimer = time.timers.schedule(options.deadline - time.clock.now(), () => {
      finish(new BaselineError(BASELINE_ERROR_CODES.connectTimeout, `${options.self} heard nothing from ${peerName} on ${listener.address} before the deadline; is it running, with this address in its peer list?`));
    });
    signal.addEventListener('abort', onAbort, { once: true });
    listener.onConnection((socket: Socket) => {
      const connection = new FramedConnection(socket, `the connection from ${socket.remoteAddress}:${socket.remotePort}`, options.maxBodyBytes);
      options.opened.push(connection);
      receiveHello(connection, options.deadline, signal, time)
        .then(async (hello) => {
          if (accepted) throw new BaselineError(BASELINE_ERROR_CODES.handshakeMismatch, `${connection.peer} claims to be ${peerName}, which is already connected`);
          checkHello(hello, options.expected, connection.peer);
          accepted = true;
          connection.peer = `${peerName} (${socket.remoteAddress}:${socket.remotePort})`;
          await connection.send(options.hello);
          finish(undefined, connection);
        })
        .catch((err: unknown) => {
          const error = asBaselineError(err, BASELINE_ERROR_CODES.malformedFrame, `handshake with ${connection.peer}`);
          connection.fail(error, true);
          finish(error);
        });
    });
  });
}
