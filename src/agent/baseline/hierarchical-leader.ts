/**
 * A rack leader's part of hierarchical AllReduce. To its rack's members it
 * looks like the parameter server (the same frames: BEGIN, contributions and
 * sums with PS_STEP), but what it sends back is the leaders' ring result.
 *
 * A call, segment by segment (each `segmentElements` values, a whole number
 * of pieces): take the segment's pieces from the members in rank order and
 * add them to the leader's own values in float32 (x_leader + x_m1 + x_m2 + …,
 * the rack's ranks ascending); run ring AllReduce among the leaders on that
 * partial sum (RingAllReduce, unchanged); send the ring's result to every
 * member. Every worker of every rack thus gets the same bits, the ring's.
 *
 * Segments bound how long members wait while their leader is in the ring,
 * and how much the leader holds. Before any data the leaders agree on the
 * call: one small ring call carries the bits of each leader's tensor length
 * and segment size, and a bit that some leaders set and others do not means
 * they differ. Without it, leaders given different lengths could line up one
 * leader's segment with another's next call (a ring call only checks its own
 * length); with it, every leader fails alike before any data moves.
 */
import type { AllReduceCallOptions } from '../allreduce.js';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { readFloatsLE } from './float-bytes.js';
import { FrameInbox } from './frame-inbox.js';
import { DATA_HEADER_BYTES, encodeBegin, encodeData, FRAME_LENGTH_BYTES, PS_STEP } from './frame.js';
import type { FramedConnection } from './framed-connection.js';
import type { OpGuard } from './op-guard.js';
import { expectBegin, expectPiece } from './ps-session.js';
import type { ExchangeCounts } from './ps-worker.js';
import type { RingAllReduce } from './ring-allreduce.js';

/** Frames a member may have waiting on its leader before it is paused. */
const INBOX_LIMIT = 4;
const BEGIN_FRAME_BYTES = FRAME_LENGTH_BYTES + 12;
/** Bits of each value the leaders agree on: lengths are below 2^32, segment sizes below 2^39 (65536 pieces of 4 Mi values). */
const AGREED_BITS = 39;

export interface LeaderCounts extends ExchangeCounts {
  /** Ring calls made, the leaders' agreement included. */
  ringCalls: number;
}

export class RackLeader {
  private readonly inboxes: FrameInbox[];
  /** Where a member's failure goes: the running call's guard. */
  private onMemberFailure: ((error: BaselineError) => void) | undefined;

  constructor(
    readonly rank: number,
    private readonly ring: RingAllReduce,
    /** The rack's other workers, by rank. */
    private readonly members: readonly FramedConnection[],
    private readonly pieceElements: number,
    private readonly segmentElements: number,
  ) {
    this.inboxes = members.map((member) => new FrameInbox(member, INBOX_LIMIT, (error) => this.onMemberFailure?.(error)));
  }

  /** One call; rejects with the first failure (the caller fails `guard` with it, which tells the members and closes the ring). */
  async allreduce(op: number, data: Float32Array, options: AllReduceCallOptions, guard: OpGuard, counts: LeaderCounts): Promise<Float32Array> {
    const stopRing = new AbortController();
    guard.onFailure((error) => {
      for (const member of this.members) member.fail(error, true);
      // A ring call in progress tells the neighbours why; between calls, closing the ring tells them at once.
      stopRing.abort(error);
      void this.ring.close();
    });
    this.onMemberFailure = (error) => guard.fail(error);
    for (const member of this.members) member.onActivity = guard.activity;
    try {
      const length = data.length;
      await this.membersBegin(op, length, guard, counts);
      await this.agree(length, stopRing.signal, guard, counts);
      await this.toMembers(encodeBegin(op, length), guard, counts);
      const result = new Float32Array(length);
      for (let start = 0; start < length; start += this.segmentElements) {
        const partial = data.slice(start, Math.min(length, start + this.segmentElements));
        await this.addMembers(op, partial, start, guard, counts);
        const summed = await this.ringCall(partial, stopRing.signal, guard, counts);
        result.set(summed, start);
        await this.broadcast(op, summed, start, guard, counts);
        options.onProgress?.(start + summed.length, length);
      }
      // As at the end of a ring call (RingOperation.sendAll): once this returns, the caller may keep the
      // event loop busy, and the members must not be waiting for sums still queued in this process.
      await guard.race(Promise.all(this.members.map((member) => member.flush())));
      return result;
    } finally {
      this.onMemberFailure = undefined;
      for (const member of this.members) member.onActivity = undefined;
    }
  }

  /** Closes the members' connections and the ring. */
  async close(): Promise<void> {
    await Promise.all([...this.members.map((member) => member.close()), this.ring.close()]);
  }

  /** Takes every member's BEGIN; their lengths must be the leader's. */
  private async membersBegin(op: number, length: number, guard: OpGuard, counts: LeaderCounts): Promise<void> {
    for (const [i, inbox] of this.inboxes.entries()) {
      const member = this.members[i]!;
      const begin = expectBegin(await guard.race(inbox.next()), member.peer, op);
      counts.framesReceived++;
      counts.wireBytesReceived += BEGIN_FRAME_BYTES;
      if (begin.elementCount !== length) {
        throw new BaselineError(
          BASELINE_ERROR_CODES.lengthMismatch,
          `rack leader rank ${this.rank} was given ${length} elements but ${member.peer} has ${begin.elementCount}; every rank must pass a tensor of the same length`,
        );
      }
    }
  }

  /** Throws unless every leader has this tensor length and segment size (see the top of this file). */
  private async agree(length: number, signal: AbortSignal, guard: OpGuard, counts: LeaderCounts): Promise<void> {
    const bits = new Float32Array(2 * AGREED_BITS);
    for (let b = 0; b < AGREED_BITS; b++) {
      bits[b] = Math.floor(length / 2 ** b) % 2;
      bits[AGREED_BITS + b] = Math.floor(this.segmentElements / 2 ** b) % 2;
    }
    // Each sum is a whole number of leaders, exact in float32.
    const leaders = await this.ringCall(bits, signal, guard, counts);
    const differs = (first: number): boolean => leaders.subarray(first, first + AGREED_BITS).some((count) => count !== 0 && count !== this.ring.worldSize);
    if (differs(0)) {
      throw new BaselineError(
        BASELINE_ERROR_CODES.lengthMismatch,
        `the rack leaders were given tensors of different lengths (rank ${this.rank}: ${length} elements); every rank must pass a tensor of the same length`,
      );
    }
    if (differs(AGREED_BITS)) {
      throw new BaselineError(
        BASELINE_ERROR_CODES.handshakeMismatch,
        `the rack leaders put different segment sizes through the ring (rank ${this.rank}: ${this.segmentElements} values); give every worker the same segment pieces and piece size`,
      );
    }
  }

  /** Adds the members' pieces of the segment starting at `start` into `partial`, member by member in rank order. */
  private async addMembers(op: number, partial: Float32Array, start: number, guard: OpGuard, counts: LeaderCounts): Promise<void> {
    for (let at = 0; at < partial.length; at += this.pieceElements) {
      const count = Math.min(this.pieceElements, partial.length - at);
      for (const [i, inbox] of this.inboxes.entries()) {
        const payload = expectPiece(await guard.race(inbox.next()), this.members[i]!.peer, op, start + at, count);
        counts.framesReceived++;
        counts.wireBytesReceived += FRAME_LENGTH_BYTES + DATA_HEADER_BYTES + payload.length;
        const values = readFloatsLE(payload);
        // The Float32Array store rounds the double sum to float32, which equals a float32 add.
        for (let k = 0; k < count; k++) partial[at + k] += values[k]!;
      }
    }
  }

  /** The ring's own inactivity timeout watches it, so this call's does not while it runs. */
  private async ringCall(partial: Float32Array, signal: AbortSignal, guard: OpGuard, counts: LeaderCounts): Promise<Float32Array> {
    const { result, stats } = await guard.unwatched(this.ring.allreduce(partial, { signal }));
    counts.ringCalls++;
    counts.framesSent += stats.messagesSent;
    counts.framesReceived += stats.messagesReceived;
    counts.wireBytesSent += stats.wireBytesSent;
    counts.wireBytesReceived += stats.wireBytesReceived;
    return result;
  }

  private async broadcast(op: number, values: Float32Array, start: number, guard: OpGuard, counts: LeaderCounts): Promise<void> {
    if (this.members.length === 0) return;
    for (let at = 0; at < values.length; at += this.pieceElements) {
      await this.toMembers(encodeData({ op, step: PS_STEP.result, chunk: 0, offset: start + at }, values.subarray(at, at + this.pieceElements)), guard, counts);
    }
  }

  /** One frame to every member (encoded once), each write waiting for its socket's buffer to drain. */
  private async toMembers(frame: Buffer, guard: OpGuard, counts: LeaderCounts): Promise<void> {
    counts.framesSent += this.members.length;
    counts.wireBytesSent += frame.length * this.members.length;
    await guard.race(Promise.all(this.members.map((member) => member.send(frame))));
    guard.check();
  }
}
