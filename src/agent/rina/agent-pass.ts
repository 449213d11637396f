/**
 * One pass of an INA rack's agent (worker 0, the rack's address in the ring):
 * a rack worker (RackPass) that also does the ring-facing part
 * (docs/rina.md §3, §4):
 *
 * - Its CONTRIBUTION is retransmitted until its own copy of the round's
 *   result comes (the ToR re-emits the stored result to it and to the next
 *   member). It keeps that copy until the next member ACKs it and sends it
 *   again itself on timeout: its rounds never wait for the next member,
 *   whose ACK depends on the rest of the ring (a window tied to it would
 *   close a cycle of waits around the ring).
 * - It ACKs the predecessor's scatter-reduce RING_DATA of step k − 1 once
 *   round k is complete (its copy of the result or the next member's ACK
 *   shows it), and each copy the ToR passes on to it.
 * - All-gather data from the predecessor (multicast by the ToR): it ACKs it,
 *   sends it on to the next member as step + 1 (retransmitted until ACKed),
 *   and re-sends it by unicast to rack workers whose ACK does not come.
 */
import { encodeRina, rinaChunkIndex, RinaMessageType, RinaPhase, RINA_HEADER_LENGTH, rinaLength, type RinaPacket } from '../../wire/index.js';
import { OutgoingStream } from './outgoing-stream.js';
import { mod } from './pass-layout.js';
import type { PassSpec, RinaWorkerContext } from './pass-run.js';
import { RackPass } from './rack-pass.js';

export class AgentPass extends RackPass {
  private readonly nextAcked: Uint8Array;
  private readonly predAcked: Uint8Array;
  /** All-gather steps 1..R−2, sent on to the next member: item s·C' + c sends step s + 1. */
  private readonly forwards: OutgoingStream;
  private readonly forwardBuffers: Buffer[] = [];
  private readonly forwardViews: DataView[] = [];
  /** Delivery of each all-gather item to the other rack workers. */
  private readonly rackMask: number;
  private readonly rackAcked: Uint32Array;
  private readonly delivering: Uint8Array;
  private readonly attempts: Uint32Array;
  private delivered = 0;
  private readonly deliveryBase: number;
  private readonly resendBuf: Buffer;
  private readonly resendView: DataView;
  /** The rounds' RING_DATA as the ToR emitted it, kept until the next member ACKs it. */
  private readonly emissions = new Map<number, Buffer>();
  private readonly emissionAttempts: Uint32Array;
  private readonly emittedAt: Float64Array;
  private emissionsAcked = 0;
  private readonly emissionBase: number;

  constructor(ctx: RinaWorkerContext, spec: PassSpec) {
    super(ctx, spec);
    const { chunks, window } = this.layout;
    const R = this.ringLength;
    this.nextAcked = new Uint8Array(R * chunks);
    this.predAcked = new Uint8Array(R * chunks);
    const forwardCount = Math.max(0, R - 2) * chunks;
    for (let s = 0; s < window; s++) {
      const buf = Buffer.alloc(rinaLength(this.layout.elementsPerPacket));
      this.forwardBuffers.push(buf);
      this.forwardViews.push(new DataView(buf.buffer, buf.byteOffset, buf.length));
    }
    this.forwards = new OutgoingStream(forwardCount, window, this.rounds.count, this.deadlines, ctx, {
      transmit: (f, resend) => this.forward(f, resend),
      exhausted: (f) => this.fail(this.timeoutError(`all-gather step ${this.layout.rowAt(R - 2, f) + 1} chunk ${this.layout.chunkAt(R - 2, f)} to member ${mod(this.position + 1, R)}`, this.memberText(this.position + 1))),
    }, ctx.counters);
    const workers = ctx.members[this.position]!.workers.length;
    this.rackMask = (2 ** workers - 2) >>> 0;
    const items = (R - 1) * chunks;
    this.rackAcked = new Uint32Array(items);
    this.delivering = new Uint8Array(items);
    this.attempts = new Uint32Array(items);
    this.deliveryBase = this.rounds.count + forwardCount;
    this.resendBuf = Buffer.alloc(rinaLength(this.layout.elementsPerPacket));
    this.resendView = new DataView(this.resendBuf.buffer, this.resendBuf.byteOffset, this.resendBuf.length);
    this.emissionAttempts = new Uint32Array(this.rounds.count);
    this.emittedAt = new Float64Array(this.rounds.count);
    this.emissionBase = this.deliveryBase + items;
    if (R === 1) this.emissionsAcked = this.rounds.count;
  }

  protected override roundCompleted(q: number, p: RinaPacket): void {
    this.ackPredecessor(q, p);
    this.rounds.done(q);
    if (this.ringLength === 1 || this.nextAcked[q] === 1) return;
    const buf = Buffer.alloc(p.byteLength);
    encodeRina(buf, 0, { ...p, values: p.values.toInt32Array() });
    this.emissions.set(q, buf);
    this.emittedAt[q] = this.ctx.clock.now();
    this.deadlines.set(this.emissionBase + q, this.emittedAt[q] + this.ctx.rtt.waitMs(0));
  }

  protected override allGatherArrived(item: number, p: RinaPacket, first: boolean): void {
    this.ack(this.memberAddress(this.position - 1), p);
    if (!first) return;
    if (p.step + 1 <= this.ringLength - 2) this.forwards.ready(this.layout.order(this.ringLength - 2, p.step, rinaChunkIndex(p.chunk)));
    if ((this.rackMask & ~this.rackAcked[item]!) === 0) {
      this.delivering[item] = 2;
      this.delivered++;
    } else {
      this.delivering[item] = 1;
      this.deadlines.set(this.deliveryBase + item, this.ctx.clock.now() + this.ctx.rtt.waitMs(0));
    }
  }

  protected override other(p: RinaPacket, c: number): boolean {
    const R = this.ringLength;
    const pred = mod(this.position - 1, R);
    const next = mod(this.position + 1, R);
    if (p.messageType === RinaMessageType.ACK && p.senderRank === next && R > 1) return this.fromNext(p, c);
    if (p.messageType === RinaMessageType.ACK && p.senderRank === this.position && p.phase === RinaPhase.ALL_GATHER) return this.fromRack(p, c);
    if (p.messageType === RinaMessageType.RING_DATA && p.senderRank === pred && p.phase === RinaPhase.SCATTER_REDUCE
        && p.step <= R - 2 && p.segment === this.layout.scatterSegment(pred, p.step)) {
      // The ToR passes on only data of a round that is complete (consumed); it sent this agent the round's result
      // first. Data of a round whose result is not here went round a ToR without the job (restarted, or being
      // reinstalled), or the result was lost: the ACK waits for the result (roundCompleted sends it), since ACKing
      // now could tell the predecessor that its data was added when it was not.
      if (this.completed[this.layout.order(R, p.step + 1, c)] !== 1) return false;
      this.ctx.counters.duplicates++;
      this.ack(this.memberAddress(pred), p);
      return true;
    }
    return false;
  }

  protected override dueOther(key: number): void {
    if (key < this.deliveryBase) return this.forwards.expire(key - this.rounds.count);
    if (key >= this.emissionBase) return this.reemit(key - this.emissionBase);
    const item = key - this.deliveryBase;
    if (this.delivering[item] !== 1) return;
    const { counters, maxRetries, clock, rtt } = this.ctx;
    counters.timeouts++;
    if (this.attempts[item]! >= maxRetries) {
      return this.fail(this.timeoutError(`all-gather step ${this.layout.rowAt(this.ringLength - 1, item)} chunk ${this.layout.chunkAt(this.ringLength - 1, item)} to the rack's workers`, `a worker of this rack (its ToR multicasts to them)`));
    }
    this.attempts[item]!++;
    this.resendToRack(item);
    this.deadlines.set(key, clock.now() + rtt.waitMs(this.attempts[item]!));
  }

  protected override get othersDone(): boolean {
    return this.forwards.allDone && this.delivered === this.rackAcked.length && this.emissionsAcked === this.rounds.count;
  }

  private fromNext(p: RinaPacket, c: number): boolean {
    const R = this.ringLength;
    if (p.phase === RinaPhase.SCATTER_REDUCE && p.step <= R - 2 && p.segment === this.layout.scatterSegment(this.position, p.step)) {
      this.nextAck(this.layout.order(R, p.step, c), p);
    } else if (p.phase === RinaPhase.ALL_GATHER && p.step === 0 && p.segment === this.layout.gatherSegment(this.position, 0)) {
      this.nextAck(this.layout.order(R, R - 1, c), p);
    } else if (p.phase === RinaPhase.ALL_GATHER && p.step >= 1 && p.step <= R - 2 && p.segment === this.layout.gatherSegment(this.position, p.step)) {
      if (!this.forwards.done(this.layout.order(R - 2, p.step - 1, c))) this.ctx.counters.duplicates++;
    } else {
      return false;
    }
    return true;
  }

  private fromRack(p: RinaPacket, c: number): boolean {
    const pred = mod(this.position - 1, this.ringLength);
    if (p.step > this.ringLength - 2 || p.segment !== this.layout.gatherSegment(pred, p.step) || p.workerId === 0) return false;
    const item = this.layout.order(this.ringLength - 1, p.step, c);
    this.rackAcked[item] = (this.rackAcked[item]! | (1 << p.workerId)) >>> 0;
    if (this.delivering[item] === 1 && (this.rackMask & ~this.rackAcked[item]!) === 0) {
      this.delivering[item] = 2;
      this.delivered++;
      this.deadlines.clear(this.deliveryBase + item);
    }
    return true;
  }

  /** The next member has round q's RING_DATA: the round is complete (so the predecessor's part is in). */
  private nextAck(q: number, p: RinaPacket): void {
    if (this.nextAcked[q] === 1) return void this.ctx.counters.duplicates++;
    this.nextAcked[q] = 1;
    this.emissionsAcked++;
    this.ackPredecessor(q, p);
    // Sent once (by the ToR, as our copy shows): a sample of the ring's round trip (Karn's rule otherwise).
    if (this.emissions.delete(q) && this.emissionAttempts[q] === 0) this.ctx.rtt.sample(this.ctx.clock.now() - this.emittedAt[q]!);
    this.deadlines.clear(this.emissionBase + q);
  }

  /** Round q's RING_DATA went unacknowledged: send the kept copy to the next member again. */
  private reemit(q: number): void {
    const buf = this.emissions.get(q);
    if (buf === undefined || this.nextAcked[q] === 1) return;
    const { counters, maxRetries, clock, rtt } = this.ctx;
    counters.timeouts++;
    rtt.timedOut(clock.now());
    if (this.emissionAttempts[q]! >= maxRetries) {
      return this.fail(this.timeoutError(`round ${this.layout.rowAt(this.ringLength, q)} chunk ${this.layout.chunkAt(this.ringLength, q)}'s RING_DATA to member ${mod(this.position + 1, this.ringLength)}`, this.memberText(this.position + 1)));
    }
    this.emissionAttempts[q]!++;
    counters.retransmissions++;
    this.send(this.memberAddress(this.position + 1), buf);
    this.deadlines.set(this.emissionBase + q, clock.now() + rtt.waitMs(this.emissionAttempts[q]!));
  }

  private ackPredecessor(q: number, p: RinaPacket): void {
    const k = this.layout.rowAt(this.ringLength, q);
    if (k === 0 || this.predAcked[q] === 1) return;
    this.predAcked[q] = 1;
    this.ack(this.memberAddress(this.position - 1), p, RinaPhase.SCATTER_REDUCE, k - 1);
  }

  private forward(f: number, resend: boolean): void {
    const slot = f % this.layout.window;
    const buf = this.forwardBuffers[slot]!;
    if (!resend) {
      const step = this.layout.rowAt(this.ringLength - 2, f) + 1;
      const c = this.layout.chunkAt(this.ringLength - 2, f);
      const segment = this.layout.gatherSegment(this.position, step);
      this.writeHeader(buf, { messageType: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, step, segment, chunk: c }, this.layout.elementsPerPacket);
      this.values.writeResult(this.forwardViews[slot]!, RINA_HEADER_LENGTH, segment, c);
    }
    this.send(this.memberAddress(this.position + 1), buf);
  }

  /** The predecessor's all-gather packet again, as it came, to each rack worker that has not ACKed it. */
  private resendToRack(item: number): void {
    const pred = mod(this.position - 1, this.ringLength);
    const step = this.layout.rowAt(this.ringLength - 1, item);
    const c = this.layout.chunkAt(this.ringLength - 1, item);
    const segment = this.layout.gatherSegment(pred, step);
    this.writeHeader(this.resendBuf, { messageType: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, step, segment, chunk: c }, this.layout.elementsPerPacket);
    this.resendBuf.writeUInt16BE(pred, 4);
    this.values.writeResult(this.resendView, RINA_HEADER_LENGTH, segment, c);
    const workers = this.ctx.members[this.position]!.workers;
    for (let w = 1; w < workers.length; w++) {
      if ((this.rackAcked[item]! & (1 << w)) !== 0) continue;
      this.ctx.counters.retransmissions++;
      this.send(workers[w]!, this.resendBuf);
    }
  }
}
