/**
 * Forming a hierarchical job's connections. Every rank listens on its own
 * address. A leader joins the ring of leaders (RingAllReduce.connect, whose
 * predecessor connects to that address) and at the same time connects to
 * each member of its rack; a member accepts one connection, from its leader.
 * So nobody's listener takes two kinds of peer. Everything must be done
 * before one deadline; when anything fails, everything opened is closed and
 * the first failure, not the echoes it caused, is reported.
 */
import { asBaselineError, BASELINE_ERROR_CODES, type BaselineError } from './baseline-error.js';
import { formatEndpoint, type Endpoint } from './endpoint.js';
import { encodeHello, maxBodyBytes, ROLE } from './frame.js';
import type { FramedConnection } from './framed-connection.js';
import { acceptAndGreet, deadlineIn, dialAndGreet, type HelloExpectation } from './handshake.js';
import type { HierarchicalLayout } from './hierarchical-layout.js';
import { Listener } from './listener.js';
import { RingAllReduce } from './ring-allreduce.js';

export interface HierarchicalSetupOptions {
  readonly rank: number;
  readonly layout: HierarchicalLayout;
  /** Every rank's address, by rank. */
  readonly peers: readonly Endpoint[];
  readonly jobId: string;
  readonly pieceElements: number;
  readonly connectTimeoutMs: number;
  readonly ioTimeoutMs: number;
  /** An already bound listener on this rank's address; taken over. */
  readonly listener: Listener | undefined;
  readonly signal: AbortSignal | undefined;
}

export type HierarchicalLinks =
  | { readonly role: 'leader'; readonly ring: RingAllReduce; readonly members: readonly FramedConnection[] }
  | { readonly role: 'member'; readonly leader: FramedConnection; readonly listener: Listener };

export function connectHierarchical(options: HierarchicalSetupOptions): Promise<HierarchicalLinks> {
  return options.layout.isLeader(options.rank) ? connectLeader(options) : connectMember(options);
}

function hello(options: HierarchicalSetupOptions, role: typeof ROLE.rackLeader | typeof ROLE.rackMember): Buffer {
  return encodeHello({ role, rank: options.rank, worldSize: options.layout.worldSize, pieceElements: options.pieceElements, jobId: options.jobId });
}

function expectation(options: HierarchicalSetupOptions, role: typeof ROLE.rackLeader | typeof ROLE.rackMember, rank: number): HelloExpectation {
  return { role, rank, worldSize: options.layout.worldSize, pieceElements: options.pieceElements, jobId: options.jobId };
}

/** One controller that stops every part of set-up when the caller aborts or any part fails. */
function linkedStop(signal: AbortSignal | undefined): { stop: AbortController; release: () => void } {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return { stop, release: () => signal?.removeEventListener('abort', onAbort) };
}

async function connectLeader(options: HierarchicalSetupOptions): Promise<HierarchicalLinks> {
  const { rank, layout } = options;
  const { stop, release } = linkedStop(options.signal);
  const opened: FramedConnection[] = [];
  let firstError: unknown;
  const failFast = (err: unknown): never => {
    firstError ??= err;
    stop.abort(err);
    throw err;
  };
  const deadline = deadlineIn(options.connectTimeoutMs);
  const joining = RingAllReduce.connect({
    rank: layout.ringPosition(rank),
    worldSize: layout.racks.length,
    peers: layout.leaders.map((leader) => options.peers[leader]!),
    listener: options.listener,
    jobId: options.jobId,
    pieceElements: options.pieceElements,
    connectTimeoutMs: options.connectTimeoutMs,
    ioTimeoutMs: options.ioTimeoutMs,
    signal: stop.signal,
  }).catch(failFast);
  const dialling = Promise.all(
    layout.rackOf(rank).ranks.slice(1).map((member) =>
      dialAndGreet({
        endpoint: options.peers[member]!,
        peerName: `rank ${member} (${formatEndpoint(options.peers[member]!)}), a member of rank ${rank}'s rack`,
        hello: hello(options, ROLE.rackLeader),
        expected: expectation(options, ROLE.rackMember, member),
        maxBodyBytes: maxBodyBytes(options.pieceElements),
        deadline,
        signal: stop.signal,
        opened,
      }),
    ),
  ).catch(failFast);
  const [ring, members] = await Promise.allSettled([joining, dialling]);
  release();
  if (ring.status === 'fulfilled' && members.status === 'fulfilled') return { role: 'leader', ring: ring.value, members: members.value };
  const error = asBaselineError(firstError, BASELINE_ERROR_CODES.connectTimeout, `rank ${rank} setting up its rack`);
  for (const connection of opened) connection.fail(error, true);
  if (ring.status === 'fulfilled') await ring.value.close();
  throw firstError;
}

async function connectMember(options: HierarchicalSetupOptions): Promise<HierarchicalLinks> {
  const { rank, layout } = options;
  const leader = layout.leaderOf(rank);
  const listener = options.listener ?? (await Listener.bind(options.peers[rank]!));
  const { stop, release } = linkedStop(options.signal);
  const opened: FramedConnection[] = [];
  try {
    const connection = await acceptAndGreet(listener, {
      self: `rank ${rank}`,
      peerName: `rank ${leader}, the leader of rank ${rank}'s rack`,
      hello: hello(options, ROLE.rackMember),
      expected: expectation(options, ROLE.rackLeader, leader),
      maxBodyBytes: maxBodyBytes(options.pieceElements),
      deadline: deadlineIn(options.connectTimeoutMs),
      signal: stop.signal,
      opened,
    });
    return { role: 'member', leader: connection, listener };
  } catch (err) {
    const error: BaselineError = asBaselineError(err, BASELINE_ERROR_CODES.connectTimeout, `rank ${rank} waiting for its leader`);
    for (const connection of opened) connection.fail(error, true);
    throw error;
  } finally {
    release();
    // The leader is connected (or set-up failed): a straggler still in its handshake is cut off now.
    stop.abort(new Error('set-up is over'));
    void listener.close();
  }
}
