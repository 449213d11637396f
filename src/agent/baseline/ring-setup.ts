/**
 * Forming the ring: each rank accepts one connection, from its predecessor,
 * and makes one, to its successor (so with two ranks there are two
 * connections, one each way). Both happen at once and must finish before
 * one deadline. A refused connect is retried (the successor may not be
 * listening yet); anything else that goes wrong (a HELLO that does not match,
 * garbage instead of a HELLO, the deadline) fails set-up at once on this rank
 * and, through an ERROR frame, on the peer, rather than waiting for a peer
 * that will never be right.
 */
import { BASELINE_ERROR_CODES, BaselineError, asBaselineError } from './baseline-error.js';
import { abortedError } from './dial.js';
import { formatEndpoint, type Endpoint } from './endpoint.js';
import { encodeHello, maxBodyBytes, ROLE } from './frame.js';
import type { FramedConnection } from './framed-connection.js';
import { acceptAndGreet, dialAndGreet, type HelloExpectation } from './handshake.js';
import type { Listener } from './listener.js';
import type { RingLinks } from './ring-operation.js';

export interface RingSetupOptions {
  readonly rank: number;
  readonly worldSize: number;
  readonly peers: readonly Endpoint[];
  readonly jobId: string;
  readonly pieceElements: number;
  /** A wall-clock deadline (deadlineIn). */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

/** Connects this rank into the ring; `listener` is where its predecessor will connect. */
export async function formRing(listener: Listener, options: RingSetupOptions): Promise<RingLinks> {
  const { rank, worldSize } = options;
  const predecessor = (rank + worldSize - 1) % worldSize;
  const successor = (rank + 1) % worldSize;
  const expect = (peerRank: number): HelloExpectation => ({ role: ROLE.ring, jobId: options.jobId, worldSize, pieceElements: options.pieceElements, rank: peerRank });

  // One controller stops both halves when either fails or the caller aborts.
  const stop = new AbortController();
  const onCallerAbort = (): void => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (options.signal?.aborted) onCallerAbort();
  const opened: FramedConnection[] = [];
  let firstError: BaselineError | undefined;
  const failFast = (err: unknown): never => {
    const error = options.signal?.aborted ? abortedError(options.signal, `joining the ring as rank ${rank}`) : asBaselineError(err, BASELINE_ERROR_CODES.connectTimeout, `rank ${rank} joining the ring`);
    firstError ??= error;
    stop.abort(error);
    throw error;
  };

  try {
    const [fromPredecessor, toSuccessor] = await Promise.all([
      acceptPredecessor(listener, expect(predecessor), options, stop.signal, opened).catch(failFast),
      connectSuccessor(options.peers[successor]!, expect(successor), options, stop.signal, opened).catch(failFast),
    ]);
    return { fromPredecessor, toSuccessor };
  } catch (err) {
    for (const connection of opened) connection.fail(firstError ?? asBaselineError(err, BASELINE_ERROR_CODES.connectTimeout, 'ring set-up'), true);
    throw firstError ?? err;
  } finally {
    options.signal?.removeEventListener('abort', onCallerAbort);
    // The ring has its two connections (or has failed): nobody else may connect, and a straggler
    // still in its handshake is cut off now rather than at the deadline.
    stop.abort(new Error('ring set-up is over'));
    void listener.close();
  }
}

function helloFrom(options: RingSetupOptions): Buffer {
  return encodeHello({ role: ROLE.ring, rank: options.rank, worldSize: options.worldSize, pieceElements: options.pieceElements, jobId: options.jobId });
}

/** Waits for the predecessor's connection and HELLO, and answers it. */
function acceptPredecessor(
  listener: Listener,
  expected: HelloExpectation,
  options: RingSetupOptions,
  signal: AbortSignal,
  opened: FramedConnection[],
): Promise<FramedConnection> {
  return acceptAndGreet(listener, {
    self: `rank ${options.rank}`,
    peerName: `rank ${expected.rank as number}`,
    hello: helloFrom(options),
    expected,
    maxBodyBytes: maxBodyBytes(options.pieceElements),
    deadline: options.deadline,
    signal,
    opened,
  });
}

/** Connects to the successor and exchanges HELLOs. */
function connectSuccessor(
  endpoint: Endpoint,
  expected: HelloExpectation,
  options: RingSetupOptions,
  signal: AbortSignal,
  opened: FramedConnection[],
): Promise<FramedConnection> {
  return dialAndGreet({
    endpoint,
    peerName: `rank ${expected.rank as number} (${formatEndpoint(endpoint)})`,
    hello: helloFrom(options),
    expected,
    maxBodyBytes: maxBodyBytes(options.pieceElements),
    deadline: options.deadline,
    signal,
    opened,
  });
}
