/**
 * The parameter server's work for one job (docs/atp.md, "The parameter
 * server"): pieces per sequence, completion by an exact disjoint cover, the
 * ACK, and the bounded memory of recent sequences.
 *
 * - **Pieces.** An `edgeSwitchIdentifier = 1` piece covers every worker of each
 *   `bitmap1` contributor; an edge-0 piece covers the `bitmap0` workers of its
 *   one `bitmap1` contributor, which must be an aggregating rack. Anything
 *   else (bits outside the job, an ACK, another value count) is stray. A piece
 *   covering the same workers as one kept is a duplicate. At most `maxPieces`
 *   distinct pieces are kept; a singleton (one worker's own contribution)
 *   evicts the oldest larger piece rather than be dropped, so the cover made
 *   of singletons, which every resend eventually provides, is always possible.
 * - **Sum.** Integer pieces are added exactly (as float64 integers: every
 *   partial sum of the job's integers fits 32 bits), float pieces in float64.
 *   The ACK carries the integer sum when no piece was float and it fits an
 *   int32, which the workers scale back; otherwise the float32 of
 *   sum/f + floats, with `overflow` set.
 * - **Window.** Every worker has sent the newest completed sequence N, so none
 *   waits for a sequence at or below N − W, and none has sent one past N + W
 *   (docs/atp.md, "Workers"). The PS takes pieces within that span (16-bit
 *   serial arithmetic around N), keeps the ACKs of (N − W, N] for late resends,
 *   and forgets the rest: memory is bounded by 2W sequences.
 * - **Aggregators.** The ACK frees the aggregator the sequence used (its first
 *   piece's) and names the next one for the window position: the same, or
 *   after a collision a fresh one from `random`. A collision at an aggregator
 *   that one of the job's own completed sequences used last sends that
 *   sequence's ACK again (a sweep), which frees it if a packet that arrived
 *   after the ACK took it. Such leaks need a packet delayed past its own ACK,
 *   and most collisions are other jobs' live aggregates, so sweeps are
 *   rationed: at most one per W completed sequences (1% more ACKs at W = 100).
 */
import { ATP_HEADER_LENGTH, encodeAtpHeader, type AtpPacket } from '../../wire/index.js';
import type { AddressedTransport, SocketAddress } from '../transport/index.js';
import { AtpScale, INT32_MAX } from './atp-scale.js';
import { coveredCount, findExactCover, sameCoverage } from './exact-cover.js';
import type { ResolvedAtpPsJob } from './ps-options.js';
import { AtpPsCounters } from './ps-stats.js';

interface Piece {
  readonly masks: Uint32Array;
  readonly workers: number;
  readonly ints: Int32Array | undefined;
  readonly floats: Float32Array | undefined;
}

interface PendingSequence {
  /** Not wrapped: the PS's count of sequences. */
  readonly sequence: number;
  /** The aggregator its first piece named. */
  readonly usedIndex: number;
  readonly pieces: Piece[];
  singletons: number;
  collision: boolean;
  ecn: boolean;
}

interface CompletedSequence {
  readonly sequence: number;
  /** The ACK as sent (the same bytes to every destination). */
  readonly ack: Buffer;
}

/** (a − b) as a signed 16-bit difference. */
function serialDistance(a: number, b: number): number {
  return (((a - b) & 0xffff) << 16) >> 16;
}

export class AtpPsJobState {
  readonly counters = new AtpPsCounters();
  readonly scale: AtpScale;
  /** Per contributor, the mask of all its workers. */
  private readonly full: Uint32Array;
  private readonly allContributors: number;
  private readonly targets: readonly SocketAddress[];
  private readonly ackLength: number;
  private readonly pending = new Map<number, PendingSequence>();
  private readonly completed = new Map<number, CompletedSequence>();
  /** Per aggregator, the job's last completed sequence that used it (not wrapped), or NaN. */
  private readonly lastUse: Float64Array;
  /** The newest completed sequence, not wrapped. */
  private newest: number;
  /** No sweep before the newest completed sequence reaches this: at most one per W sequences. */
  private nextSweepAt = -Infinity;
  private readonly intSum: Float64Array;
  private readonly floatSum: Float64Array;

  constructor(
    readonly job: ResolvedAtpPsJob,
    private readonly transport: AddressedTransport,
    private readonly coverSearchBudget: number,
  ) {
    this.scale = new AtpScale(job.worldSize, job.valueRange);
    this.full = Uint32Array.from(job.contributors, (c) => (c.aggregating ? 2 ** c.workers.length - 1 : 1));
    this.allContributors = 2 ** job.contributors.length - 1;
    this.targets = job.contributors.map((c) => c.workers[0]!);
    this.ackLength = ATP_HEADER_LENGTH + 4 * job.elementsPerPacket;
    this.lastUse = new Float64Array(job.poolBase + job.poolSize).fill(NaN);
    this.newest = job.firstSequence - 1;
    this.intSum = new Float64Array(job.elementsPerPacket);
    this.floatSum = new Float64Array(job.elementsPerPacket);
  }

  /** Sequences with pieces but no result yet. */
  get pendingSequences(): number {
    return this.pending.size;
  }

  /** A packet of this job (the caller matched the job id). */
  receive(p: AtpPacket): void {
    const c = this.counters;
    c.datagrams++;
    const masks = p.isAck || p.elementCount !== this.job.elementsPerPacket ? undefined : this.coverageOf(p);
    if (masks === undefined) {
      c.strayDrops++;
      return;
    }
    const d = serialDistance(p.sequenceNumber, this.newest);
    const sequence = this.newest + d;
    const W = this.job.maxWindow;
    if (d <= 0) {
      const done = this.completed.get(p.sequenceNumber);
      if (done !== undefined) {
        c.latePieces++;
        if (p.resend) {
          c.reAcks++;
          this.sendTo(masks, done.ack);
        }
        return;
      }
    }
    if (d <= -W || d > W) {
      c.outOfWindowDrops++;
      return;
    }
    let seq = this.pending.get(p.sequenceNumber);
    if (seq === undefined) {
      seq = { sequence, usedIndex: p.aggregatorIndex, pieces: [], singletons: 0, collision: false, ecn: false };
      this.pending.set(p.sequenceNumber, seq);
    }
    if (!this.keep(seq, p, masks)) return;
    if (p.collision) {
      seq.collision = true;
      this.sweep(p.aggregatorIndex, sequence, masks);
    }
    if (p.ecn) seq.ecn = true;
    this.tryComplete(seq);
  }

  /** The workers a piece covers, or undefined when its bits do not fit the job. */
  private coverageOf(p: AtpPacket): Uint32Array | undefined {
    const m = this.full.length;
    if (p.bitmap1 === 0 || p.bitmap1 > this.allContributors) return undefined;
    const masks = new Uint32Array(m);
    if (p.edgeSwitchIdentifier === 1) {
      for (let j = 0; j < m; j++) if ((p.bitmap1 >>> j) & 1) masks[j] = this.full[j]!;
      return masks;
    }
    // Edge 0: one aggregating rack, some of its workers.
    const j = 31 - Math.clz32(p.bitmap1);
    if (p.bitmap1 !== 2 ** j || !this.job.contributors[j]!.aggregating) return undefined;
    if (p.bitmap0 === 0 || (p.bitmap0 & ~this.full[j]!) !== 0) return undefined;
    masks[j] = p.bitmap0;
    return masks;
  }

  /** Stores the piece unless it is a duplicate or over the limit; true when kept. */
  private keep(seq: PendingSequence, p: AtpPacket, masks: Uint32Array): boolean {
    const c = this.counters;
    for (const piece of seq.pieces) {
      if (sameCoverage(piece.masks, masks)) {
        c.duplicatePieces++;
        return false;
      }
    }
    const workers = coveredCount(masks);
    if (seq.pieces.length >= this.job.maxPieces) {
      const larger = workers === 1 ? seq.pieces.findIndex((q) => q.workers > 1) : -1;
      if (larger === -1) {
        c.overLimitDrops++;
        return false;
      }
      seq.pieces.splice(larger, 1);
    }
    const n = this.job.elementsPerPacket;
    let ints: Int32Array | undefined;
    let floats: Float32Array | undefined;
    if (p.overflow) {
      floats = new Float32Array(n);
      for (let k = 0; k < n; k++) floats[k] = p.values.getFloat32(k);
      c.overflowPieces++;
    } else {
      ints = p.values.toInt32Array();
    }
    seq.pieces.push({ masks, workers, ints, floats });
    if (workers === 1) seq.singletons++;
    c.pieces++;
    if (p.collision) c.collisionPieces++;
    if (p.resend) c.resendPieces++;
    if (workers > 1) c.aggregatePieces++;
    if (p.edgeSwitchIdentifier === 1 && (p.bitmap1 & (p.bitmap1 - 1)) !== 0) c.level1Aggregates++;
    return true;
  }

  private tryComplete(seq: PendingSequence): void {
    let cover: number[] | undefined;
    if (seq.singletons === this.job.worldSize) {
      cover = [];
      seq.pieces.forEach((piece, i) => piece.workers === 1 && cover!.push(i));
    } else {
      const found = findExactCover(seq.pieces, this.full, this.coverSearchBudget);
      if (found.exhausted) this.counters.coverSearchesExhausted++;
      cover = found.cover;
    }
    if (cover !== undefined) this.complete(seq, cover);
  }

  private complete(seq: PendingSequence, cover: readonly number[]): void {
    const c = this.counters;
    const n = this.job.elementsPerPacket;
    const ints = this.intSum.fill(0);
    const floats = this.floatSum.fill(0);
    let anyFloat = false;
    for (const i of cover) {
      const piece = seq.pieces[i]!;
      if (piece.floats !== undefined) {
        anyFloat = true;
        for (let k = 0; k < n; k++) floats[k] += piece.floats[k]!;
      } else {
        for (let k = 0; k < n; k++) ints[k] += piece.ints![k]!;
      }
    }
    let asInts = !anyFloat;
    for (let k = 0; k < n && asInts; k++) if (ints[k]! > INT32_MAX || ints[k]! < -INT32_MAX) asInts = false;
    const next = seq.collision ? this.freshIndex(seq.usedIndex) : seq.usedIndex;
    const ack = Buffer.alloc(this.ackLength);
    encodeAtpHeader(ack, 0, {
      bitmap0: next,
      bitmap1: this.allContributors,
      fanInDegree0: 0,
      fanInDegree1: 0,
      overflow: !asInts,
      resend: false,
      collision: next !== seq.usedIndex,
      ecn: seq.ecn,
      edgeSwitchIdentifier: 0,
      isAck: true,
      aggregatorIndex: seq.usedIndex,
      jobId: this.job.jobId,
      sequenceNumber: seq.sequence & 0xffff,
      elementCount: n,
    });
    if (asInts) {
      for (let k = 0; k < n; k++) ack.writeInt32BE(ints[k]!, ATP_HEADER_LENGTH + 4 * k);
    } else {
      const f = this.scale.factor;
      for (let k = 0; k < n; k++) ack.writeFloatBE(ints[k]! / f + floats[k]!, ATP_HEADER_LENGTH + 4 * k);
      c.floatResults++;
    }
    c.completed++;
    if (cover.length === 1) c.completedByOnePiece++;
    else {
      c.completedInSoftware++;
      c.piecesSummed += cover.length;
    }
    if (next !== seq.usedIndex) c.aggregatorMoves++;
    const wire = seq.sequence & 0xffff;
    this.pending.delete(wire);
    this.completed.set(wire, { sequence: seq.sequence, ack });
    this.lastUse[seq.usedIndex] = seq.sequence;
    for (const target of this.targets) this.send(target, ack);
    if (seq.sequence > this.newest) {
      this.newest = seq.sequence;
      this.forgetOld();
    }
  }

  /** Drops what lies W or more behind the newest completed sequence. */
  private forgetOld(): void {
    const oldest = this.newest - this.job.maxWindow;
    for (const [wire, s] of this.completed) if (s.sequence <= oldest) this.completed.delete(wire);
    for (const [wire, s] of this.pending) {
      if (s.sequence <= oldest) {
        this.pending.delete(wire);
        this.counters.staleSequences++;
      }
    }
  }

  /** Any aggregator of the job's part of the pool but `used` (the part's only one when it has one). */
  private freshIndex(used: number): number {
    const { poolSize: pool, poolBase: base } = this.job;
    if (pool === 1) return used;
    const inPart = used >= base && used < base + pool;
    const pick = base + this.job.random.nextInt(inPart ? pool - 1 : pool);
    return inPart && pick >= used ? pick + 1 : pick;
  }

  /**
   * A piece collided at `index`. If the job's last completed sequence there
   * was another, a late packet of it may hold the aggregator: send its ACK
   * again towards the switches the piece crossed. Once per use of the index.
   */
  private sweep(index: number, sequence: number, masks: Uint32Array): void {
    const last = this.lastUse[index]!;
    if (Number.isNaN(last) || last === sequence || this.newest < this.nextSweepAt) return;
    this.lastUse[index] = NaN;
    this.nextSweepAt = this.newest + this.job.maxWindow;
    const age = this.newest - last;
    const kept = this.completed.get(last & 0xffff);
    let ack = kept?.sequence === last ? kept.ack : undefined;
    if (ack === undefined) {
      // Older than the window: no worker waits for it, so values do not matter; but its 16-bit
      // number must not be that of a sequence the workers may still have out.
      if (age >= 0x1_0000 - this.job.maxWindow) return;
      ack = Buffer.alloc(this.ackLength);
      encodeAtpHeader(ack, 0, {
        bitmap0: index,
        bitmap1: this.allContributors,
        fanInDegree0: 0,
        fanInDegree1: 0,
        overflow: false,
        resend: false,
        collision: false,
        ecn: false,
        edgeSwitchIdentifier: 0,
        isAck: true,
        aggregatorIndex: index,
        jobId: this.job.jobId,
        sequenceNumber: last & 0xffff,
        elementCount: this.job.elementsPerPacket,
      });
    }
    this.counters.sweeps++;
    this.sendTo(masks, ack);
  }

  /** Sends `ack` to the ACK address of every contributor `masks` touches. */
  private sendTo(masks: Uint32Array, ack: Buffer): void {
    for (let j = 0; j < masks.length; j++) if (masks[j] !== 0) this.send(this.targets[j]!, ack);
  }

  private send(to: SocketAddress, ack: Buffer): void {
    if (this.transport.sendTo(to, ack)) this.counters.acksSent++;
    else this.counters.ackSendFailures++;
  }
}
