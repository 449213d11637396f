/**
 * Hierarchical AllReduce over TCP, the baseline Rina's paper compares with:
 * inside each rack the workers' tensors are reduced to the rack's leader (its
 * lowest rank), the leaders run ring AllReduce among themselves, and each
 * leader sends the ring's result back to its rack (hierarchical-leader.ts).
 * Racks come as a rank → rack assignment, e.g. from the controller's plan.
 *
 * Numbers: every element is a float32 sum of the n inputs in one fixed order
 * — inside rack j in rank order, then the racks' partial sums in the ring's
 * order for that element's chunk — and every worker gets the ring's bits, so
 * results are bit-identical everywhere and within (n−1)·2^-24·Σ|x_i| of the
 * exact sum, the bound of float32 summation in any fixed order (accuracy.ts).
 * One rack is a reduce and a broadcast with no ring; racks of one worker
 * each are plain ring AllReduce, bit for bit.
 *
 * After a failed or aborted call the instance is broken: its connections are
 * closed so that its rack and the ring learn of it, and further calls reject
 * with BASELINE_UNUSABLE; close it and connect again.
 */
import type { AllReduce, AllReduceCallOptions, AllReduceResult, AllReduceStats } from '../allreduce.js';
import { REAL_CLOCK, type AgentClock } from '../time.js';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { checkCommonOptions, checkTensor, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IO_TIMEOUT_MS, DEFAULT_JOB_ID, DEFAULT_PIECE_ELEMENTS } from './defaults.js';
import { parseEndpoint, type Endpoint } from './endpoint.js';
import type { FramedConnection } from './framed-connection.js';
import { HierarchicalLayout } from './hierarchical-layout.js';
import { RackLeader, type LeaderCounts } from './hierarchical-leader.js';
import { connectHierarchical } from './hierarchical-setup.js';
import type { Listener } from './listener.js';
import { OpGuard } from './op-guard.js';
import { exchangeWithAggregator } from './ps-worker.js';
import { MAX_RING_SIZE } from './ring-allreduce.js';

/** Pieces per ring segment by default: 1 Mi values (4 MiB) with the default piece size. */
export const DEFAULT_SEGMENT_PIECES = 4;
export const MAX_SEGMENT_PIECES = 65_536;

export interface HierarchicalStats extends AllReduceStats {
  readonly algorithm: 'hierarchical';
  readonly role: 'leader' | 'member';
  /** Racks, which is the leaders' ring size. */
  readonly racks: number;
  /** Workers in this rank's rack. */
  readonly rackSize: number;
  /** Bytes this rank wrote (to its rack and, for a leader, round the ring), frame headers included. */
  readonly wireBytesSent: number;
  readonly wireBytesReceived: number;
  /** Ring calls a leader made: one to agree on the call with the other leaders, then one per segment; 0 for a member. */
  readonly ringCalls: number;
  readonly pieceElements: number;
}

export interface HierarchicalOptions {
  readonly rank: number;
  readonly worldSize: number;
  /** Every rank's `host:port`, by rank; this rank listens on its own entry unless `listener` is given. */
  readonly peers: readonly (string | Endpoint)[];
  /** Every rank's rack, by rank: ranks with the same name share a rack. The same on every rank. */
  readonly racks: readonly (string | number)[];
  /** Must be the same on every rank (1..64 bytes); default "default". */
  readonly jobId?: string;
  /** Values per DATA frame; must be the same on every rank. */
  readonly pieceElements?: number;
  /** Pieces per segment the leaders put through the ring at a time; must be the same on every leader. */
  readonly segmentPieces?: number;
  readonly connectTimeoutMs?: number;
  /**
   * A call fails when nothing moves for this long. A member also waits this
   * long at most while its leader is in the ring with one segment.
   */
  readonly ioTimeoutMs?: number;
  /** An already bound listener on this rank's address (for port 0); taken over. */
  readonly listener?: Listener;
  /** Aborts set-up. */
  readonly signal?: AbortSignal;
  /** The clock each call's elapsedMs is read on; default the process's monotonic clock. */
  readonly clock?: AgentClock;
}

type Part = { readonly role: 'leader'; readonly leader: RackLeader } | { readonly role: 'member'; readonly connection: FramedConnection; readonly listener: Listener };

export class HierarchicalAllReduce implements AllReduce<HierarchicalStats> {
  private op = 0;
  private busy = false;
  private broken: BaselineError | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly rank: number,
    readonly worldSize: number,
    private readonly layout: HierarchicalLayout,
    private readonly part: Part,
    private readonly pieceElements: number,
    private readonly ioTimeoutMs: number,
    private readonly clock: AgentClock,
  ) {}

  /** Binds (unless given a listener) and connects: a leader to the ring and its members, a member to its leader. */
  static async connect(options: HierarchicalOptions): Promise<HierarchicalAllReduce> {
    let layout: HierarchicalLayout;
    try {
      checkOptions(options);
      layout = new HierarchicalLayout(options.racks);
    } catch (err) {
      await options.listener?.close();
      throw err;
    }
    const { rank, worldSize } = options;
    const pieceElements = options.pieceElements ?? DEFAULT_PIECE_ELEMENTS;
    const ioTimeoutMs = options.ioTimeoutMs ?? DEFAULT_IO_TIMEOUT_MS;
    const links = await connectHierarchical({
      rank,
      layout,
      peers: options.peers.map((peer, i) => (typeof peer === 'string' ? parseEndpoint(peer, `peer ${i}`) : peer)),
      jobId: options.jobId ?? DEFAULT_JOB_ID,
      pieceElements,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      ioTimeoutMs,
      listener: options.listener,
      signal: options.signal,
    });
    const segmentElements = (options.segmentPieces ?? DEFAULT_SEGMENT_PIECES) * pieceElements;
    const part: Part =
      links.role === 'leader'
        ? { role: 'leader', leader: new RackLeader(rank, links.ring, links.members, pieceElements, segmentElements) }
        : { role: 'member', connection: links.leader, listener: links.listener };
    return new HierarchicalAllReduce(rank, worldSize, layout, part, pieceElements, ioTimeoutMs, options.clock ?? REAL_CLOCK);
  }

  async allreduce(data: Float32Array, options: AllReduceCallOptions = {}): Promise<AllReduceResult<HierarchicalStats>> {
    checkTensor(data);
    if (this.busy) throw new Error('allreduce is already running on this instance; calls must not overlap');
    if (this.closing) throw new BaselineError(BASELINE_ERROR_CODES.unusable, `hierarchical rank ${this.rank} is closed`);
    if (this.broken) {
      throw new BaselineError(BASELINE_ERROR_CODES.unusable, `hierarchical rank ${this.rank} is broken by an earlier failure (${this.broken.code}); close it and connect again`, { cause: this.broken });
    }
    const started = this.clock.now();
    const op = this.op;
    this.op = (this.op + 1) >>> 0;
    this.busy = true;
    const counts: LeaderCounts = { framesSent: 0, framesReceived: 0, wireBytesSent: 0, wireBytesReceived: 0, ringCalls: 0 };
    const guard = new OpGuard(`hierarchical allreduce #${op} on rank ${this.rank}`, this.ioTimeoutMs, options.signal);
    const part = this.part;
    try {
      const result =
        part.role === 'leader'
          ? await part.leader.allreduce(op, data, options, guard, counts)
          : await exchangeWithAggregator(part.connection, this.pieceElements, op, data, options, guard, counts);
      return {
        result,
        stats: {
          algorithm: 'hierarchical',
          role: part.role,
          racks: this.layout.racks.length,
          rackSize: this.layout.rackOf(this.rank).ranks.length,
          bytes: data.length * 4,
          elapsedMs: this.clock.now() - started,
          messagesSent: counts.framesSent,
          messagesReceived: counts.framesReceived,
          retransmissions: 0,
          wireBytesSent: counts.wireBytesSent,
          wireBytesReceived: counts.wireBytesReceived,
          ringCalls: counts.ringCalls,
          pieceElements: this.pieceElements,
        },
      };
    } catch (err) {
      this.broken = err instanceof BaselineError ? err : new BaselineError(BASELINE_ERROR_CODES.unusable, String(err), { cause: err });
      guard.fail(this.broken);
      throw err;
    } finally {
      guard.dispose();
      if (part.role === 'member') {
        part.connection.setHandler(undefined);
        part.connection.onActivity = undefined;
      }
      this.busy = false;
    }
  }

  /** Closes every connection (flushing what was sent) and the listener; waits until they are closed. */
  close(): Promise<void> {
    const part = this.part;
    this.closing ??= part.role === 'leader' ? part.leader.close() : part.connection.close().then(() => part.listener.close());
    return this.closing;
  }
}

/** Throws RangeError/TypeError for options no caller should pass (the command line checks its input first). */
function checkOptions(options: HierarchicalOptions): void {
  const { rank, worldSize, peers, racks } = options;
  if (!Number.isInteger(worldSize) || worldSize < 1 || worldSize > MAX_RING_SIZE) throw new RangeError(`world size must be an integer in 1..${MAX_RING_SIZE}, got ${worldSize}`);
  if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize) throw new RangeError(`rank must be in 0..${worldSize - 1}, got ${rank}`);
  if (peers.length !== worldSize) throw new RangeError(`need one peer address per rank: ${worldSize} ranks but ${peers.length} addresses`);
  if (racks.length !== worldSize) throw new RangeError(`need one rack per rank: ${worldSize} ranks but ${racks.length} racks`);
  const segmentPieces = options.segmentPieces ?? DEFAULT_SEGMENT_PIECES;
  if (!Number.isInteger(segmentPieces) || segmentPieces < 1 || segmentPieces > MAX_SEGMENT_PIECES) throw new RangeError(`segmentPieces must be an integer in 1..${MAX_SEGMENT_PIECES}, got ${segmentPieces}`);
  checkCommonOptions(options);
}
