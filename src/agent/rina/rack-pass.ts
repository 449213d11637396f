/**
 * One pass of a worker of an INA rack, member r (docs/rina.md §3). It sends
 * a CONTRIBUTION for every round (k, c) — its own chunk c of segment
 * (r − k) mod R — in the senders' order (PassLayout.order), each once the
 * slot's previous round (w places earlier) is done, and
 * retransmits it until the round's result comes (the ToR's RING_DATA from
 * member r: scatter-reduce step k, or all-gather step 0 after the last
 * round, whose values are the reduced segment r + 1). It keeps the
 * all-gather data the ToR multicasts and, as a rack member, ACKs it to the
 * agent. The agent (worker 0) does more (AgentPass, its subclass): a round
 * of its is done only when the next member has ACKed the round's RING_DATA.
 */
import { rinaChunkIndex, RinaMessageType, RinaPhase, RINA_HEADER_LENGTH, rinaLength, type RinaPacket } from '../../wire/index.js';
import { OutgoingStream } from './outgoing-stream.js';
import { mod } from './pass-layout.js';
import { PassRun, type PassSpec, type RinaWorkerContext } from './pass-run.js';

export class RackPass extends PassRun {
  protected readonly rounds: OutgoingStream;
  /** Per round: its result came (for the last rounds, with the values we keep). */
  protected readonly completed: Uint8Array;
  private readonly slotBuffers: Buffer[] = [];
  private readonly slotViews: DataView[] = [];
  /** Per all-gather item (step s·C' + c): received. */
  private readonly gathered: Uint8Array;
  private gatheredCount = 0;

  constructor(ctx: RinaWorkerContext, spec: PassSpec) {
    super(ctx, spec);
    const { chunks, window } = this.layout;
    this.completed = new Uint8Array(this.ringLength * chunks);
    this.gathered = new Uint8Array((this.ringLength - 1) * chunks);
    for (let s = 0; s < window; s++) {
      const buf = Buffer.alloc(rinaLength(this.layout.elementsPerPacket));
      this.slotBuffers.push(buf);
      this.slotViews.push(new DataView(buf.buffer, buf.byteOffset, buf.length));
    }
    this.rounds = new OutgoingStream(this.ringLength * chunks, window, 0, this.deadlines, { clock: ctx.clock, rtt: ctx.roundRtt, maxRetries: ctx.maxRetries }, {
      transmit: (q, resend) => this.contribute(q, resend),
      exhausted: (q) => this.fail(this.timeoutError(`the CONTRIBUTION of round ${this.layout.rowAt(this.ringLength, q)} chunk ${this.layout.chunkAt(this.ringLength, q)}`, this.torText)),
    }, ctx.counters);
  }

  protected start(): void {
    for (let q = 0; q < this.rounds.count && !this.finished; q++) this.rounds.ready(q);
  }

  protected receive(p: RinaPacket): void {
    const c = rinaChunkIndex(p.chunk);
    if (c >= this.layout.chunks || p.step > this.ringLength - 1) return void this.ctx.counters.ignored++;
    const pred = mod(this.position - 1, this.ringLength);
    if (p.messageType === RinaMessageType.RING_DATA && p.senderRank === this.position) this.result(p, c);
    else if (p.messageType === RinaMessageType.RING_DATA && p.senderRank === pred && p.phase === RinaPhase.ALL_GATHER) this.allGather(p, c);
    else if (!this.other(p, c)) this.ctx.counters.ignored++;
    this.check();
  }

  protected due(key: number): void {
    if (key < this.rounds.count) this.rounds.expire(key);
    else this.dueOther(key);
  }

  /** Round q's result came (a rack member's round is then done). */
  protected roundCompleted(q: number, _p: RinaPacket): void {
    this.rounds.done(q);
  }

  /** All-gather data came (a rack member acknowledges it to its agent). */
  protected allGatherArrived(_item: number, p: RinaPacket, _first: boolean): void {
    this.ack(this.memberAddress(this.position), p);
  }

  /** Another packet of this pass; true when it was one the worker takes. */
  protected other(_p: RinaPacket, _c: number): boolean {
    return false;
  }

  /** A deadline of a key past the rounds'. */
  protected dueOther(_key: number): void {}

  /** Whatever else the worker must finish before the pass is done. */
  protected get othersDone(): boolean {
    return true;
  }

  /** The ToR's RING_DATA of one of our rounds: its result. */
  private result(p: RinaPacket, c: number): void {
    const last = this.ringLength - 1;
    const k = p.phase === RinaPhase.ALL_GATHER ? (p.step === 0 ? last : -1) : p.step === last ? -1 : p.step;
    if (k < 0 || p.segment !== this.layout.scatterSegment(this.position, k) || !this.exponentMatches(p, c)) return void this.ctx.counters.ignored++;
    const q = this.layout.order(this.ringLength, k, c);
    if (this.completed[q] === 1) return void this.ctx.counters.duplicates++;
    this.completed[q] = 1;
    if (k === last) this.values.store(p.values, p.segment, c);
    this.roundCompleted(q, p);
  }

  /** All-gather data passing round the ring, multicast to the rack (or re-sent by the agent). */
  private allGather(p: RinaPacket, c: number): void {
    const pred = mod(this.position - 1, this.ringLength);
    if (p.step > this.ringLength - 2 || p.segment !== this.layout.gatherSegment(pred, p.step) || !this.exponentMatches(p, c)) return void this.ctx.counters.ignored++;
    const item = this.layout.order(this.ringLength - 1, p.step, c);
    const first = this.gathered[item] === 0;
    if (first) {
      this.gathered[item] = 1;
      this.gatheredCount++;
      this.values.store(p.values, p.segment, c);
    } else {
      this.ctx.counters.duplicates++;
    }
    this.allGatherArrived(item, p, first);
  }

  private contribute(q: number, resend: boolean): void {
    const slot = q % this.layout.window;
    const buf = this.slotBuffers[slot]!;
    if (!resend) {
      const k = this.layout.rowAt(this.ringLength, q);
      const c = this.layout.chunkAt(this.ringLength, q);
      const segment = this.layout.scatterSegment(this.position, k);
      this.writeHeader(buf, { messageType: RinaMessageType.CONTRIBUTION, phase: RinaPhase.SCATTER_REDUCE, step: k, segment, chunk: c }, this.layout.elementsPerPacket);
      this.values.writeOwn(this.slotViews[slot]!, RINA_HEADER_LENGTH, segment, c);
    }
    this.send(this.ctx.contributionTarget, buf);
  }

  protected check(): void {
    if (!this.finished && this.rounds.allDone && this.gatheredCount === this.gathered.length && this.othersDone) this.finish();
  }
}
