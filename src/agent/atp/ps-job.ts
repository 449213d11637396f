/**
 * The parameter server's work for one job (docs/atp.md, "The parameter
 * server"): pieces per sequence, completion by an exact disjoint cover, the
 * ACK, and the bounded memory of recent sequences.
 *
 * - **Pieces.** A piece covers the workers piece-coverage.ts says; anything
 *   else (bits outside the job, an ACK, another value count) is stray. A piece
 *   covering the same workers as one kept is a duplicate. At most `maxPieces`
 *   distinct pieces are kept; a singleton (one worker's own contribution)
 *   evicts the oldest larger piece rather than be dropped, so the cover made
 *   of singletons, which every resend eventually provides, is always possible.
 * - **Sum.** Exact for integers, float64 for floats (ps-ack.ts).
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
 * - **ECN.** A piece with the ecn bit, or with CE in its IPv4 header (`ceMark`),
 *   puts the ecn bit in its sequence's ACK.
 */
import { ATP_HEADER_LENGTH, decodeAtp, encodeAtpHeader, type AtpHeaderFields, type AtpPacket } from '../../wire/index.js';
import type { AddressedTransport, SocketAddress } from '../transport/index.js';
import { AtpScale } from './atp-scale.js';
import { coveredCount, findExactCover, sameCoverage } from './exact-cover.js';
import { PieceCoverage } from './piece-coverage.js';
import { psAckHeader, sumPieces, writeAckValues } from './ps-ack.js';
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
  private readonly coverage: PieceCoverage;
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
    this.coverage = new PieceCoverage(job.contributors, job.elementsPerPacket);
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
    const masks = this.coverage.of(p);
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
    const seq = this.pendingFor(p, sequence);
    if (!this.keep(seq, p, masks)) return;
    if (p.collision) {
      seq.collision = true;
      this.sweep(p.aggregatorIndex, sequence, masks);
    }
    if (p.ecn) seq.ecn = true;
    this.tryComplete(seq);
  }

  /**
   * A piece of this job arrived with CE in its IPv4 header; the mark comes
   * apart from the piece, before it (it waits in the pending sequence) or
   * after it: then the completed sequence's ACK goes again with ecn, once
   * (workers take a duplicate ACK's ecn bit as a mark).
   */
  ceMark(p: AtpPacket): void {
    const masks = this.coverage.of(p);
    if (masks === undefined) return;
    this.counters.ipCeMarks++;
    const d = serialDistance(p.sequenceNumber, this.newest);
    const done = d <= 0 ? this.completed.get(p.sequenceNumber) : undefined;
    if (done !== undefined) return this.markCompleted(done);
    if (d > -this.job.maxWindow && d <= this.job.maxWindow) this.pendingFor(p, this.newest + d).ecn = true;
  }

  private markCompleted(done: CompletedSequence): void {
    const ack = decodeAtp(done.ack);
    if (!ack.ok || ack.ecn) return;
    encodeAtpHeader(done.ack, 0, { ...ack, ecn: true });
    this.counters.markedReAcks++;
    for (const target of this.targets) this.send(target, done.ack);
  }

  /** The pending sequence a piece belongs to, made if it is the first piece (or mark) of it. */
  private pendingFor(p: AtpPacket, sequence: number): PendingSequence {
    let seq = this.pending.get(p.sequenceNumber);
    if (seq === undefined) {
      seq = { sequence, usedIndex: p.aggregatorIndex, pieces: [], singletons: 0, collision: false, ecn: false };
      this.pending.set(p.sequenceNumber, seq);
    }
    return seq;
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
      const found = findExactCover(seq.pieces, this.coverage.full, this.coverSearchBudget);
      if (found.exhausted) this.counters.coverSearchesExhausted++;
      cover = found.cover;
    }
    if (cover !== undefined) this.complete(seq, cover);
  }

  private complete(seq: PendingSequence, cover: readonly number[]): void {
    const c = this.counters;
    const asInts = sumPieces(cover.map((i) => seq.pieces[i]!), this.intSum, this.floatSum);
    const next = seq.collision ? this.freshIndex(seq.usedIndex) : seq.usedIndex;
    const ack = Buffer.alloc(this.ackLength);
    encodeAtpHeader(ack, 0, this.ackHeader(seq.usedIndex, next, seq.sequence, !asInts, seq.ecn));
    writeAckValues(ack, this.intSum, this.floatSum, asInts, this.scale.factor);
    if (!asInts) c.floatResults++;
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
      encodeAtpHeader(ack, 0, this.ackHeader(index, index, last, false, false));
    }
    this.counters.sweeps++;
    this.sendTo(masks, ack);
  }

  private ackHeader(usedIndex: number, nextIndex: number, sequence: number, overflow: boolean, ecn: boolean): AtpHeaderFields {
    const { jobId, elementsPerPacket: elementCount } = this.job;
    return psAckHeader({ jobId, elementCount, bitmap1: this.coverage.allContributors, usedIndex, nextIndex, sequenceNumber: sequence & 0xffff, overflow, ecn });
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
