/**
 * One pass of an autonomous ring member r (a worker of a rack whose ToR does
 * not aggregate): plain ring AllReduce over RING_DATA and ACKs.
 *
 * Outgoing, in two windowed sequences (OutgoingStream), each in the senders'
 * order (PassLayout.order): scatter-reduce steps s = 0..R−2 — step 0 its own
 * chunk of segment r, step s its predecessor's step s − 1 plus its own — and
 * all-gather steps s = 0..R−2 — step 0 the reduced segment r + 1, step s what
 * it received in all-gather step s − 1. Each is retransmitted until the next
 * member ACKs it. Every RING_DATA from the predecessor is ACKed, each copy;
 * only the first is used. The pass is done when every chunk of the result is
 * in and every packet sent was ACKed.
 */
import { rinaChunkIndex, RinaMessageType, RinaPhase, RINA_HEADER_LENGTH, type RinaPacket } from '../../wire/index.js';
import { OutgoingStream } from './outgoing-stream.js';
import { mod } from './pass-layout.js';
import { PassRun, type PassSpec, type RinaWorkerContext } from './pass-run.js';

export class AutonomousPass extends PassRun {
  /** [scatter-reduce, all-gather]: item i is (step, chunk) at place i of the order with R − 1 rows. */
  private readonly out: [OutgoingStream, OutgoingStream];
  private readonly buffers: [Map<number, Buffer>, Map<number, Buffer>] = [new Map(), new Map()];
  /** Per phase and item, whether the predecessor's packet arrived. */
  private readonly received: [Uint8Array, Uint8Array];
  private receivedCount = 0;
  private readonly steps: number;

  constructor(ctx: RinaWorkerContext, spec: PassSpec) {
    super(ctx, spec);
    this.steps = this.ringLength - 1;
    const items = this.steps * this.layout.chunks;
    this.received = [new Uint8Array(items), new Uint8Array(items)];
    const stream = (phase: 0 | 1): OutgoingStream => new OutgoingStream(items, this.layout.window, phase * items, this.deadlines, ctx, {
      transmit: (i) => this.send(this.memberAddress(this.position + 1), this.buffers[phase].get(i)!),
      exhausted: (i) => this.fail(this.timeoutError(`RING_DATA ${this.describe(phase, i)} to member ${mod(this.position + 1, this.ringLength)}`, this.memberText(this.position + 1))),
    }, ctx.counters);
    this.out = [stream(0), stream(1)];
  }

  protected start(): void {
    if (this.ringLength === 1) {
      this.values.result.set(this.values.input);
      return this.finish();
    }
    const segment = this.position;
    for (let c = 0; c < this.layout.chunks && !this.finished; c++) {
      const { buf, view } = this.packet({ messageType: RinaMessageType.RING_DATA, phase: RinaPhase.SCATTER_REDUCE, step: 0, segment, chunk: c });
      this.values.writeOwn(view, RINA_HEADER_LENGTH, segment, c);
      this.queue(0, 0, c, buf);
    }
  }

  protected receive(p: RinaPacket): void {
    const pred = mod(this.position - 1, this.ringLength);
    const next = mod(this.position + 1, this.ringLength);
    const c = rinaChunkIndex(p.chunk);
    if (c >= this.layout.chunks || p.step >= this.steps || p.segment >= this.ringLength) return void this.ctx.counters.ignored++;
    if (p.messageType === RinaMessageType.ACK && p.senderRank === next) return this.acked(p, c);
    if (p.messageType !== RinaMessageType.RING_DATA || p.senderRank !== pred) return void this.ctx.counters.ignored++;
    const scatter = p.phase === RinaPhase.SCATTER_REDUCE;
    const segment = scatter ? this.layout.scatterSegment(pred, p.step) : this.layout.gatherSegment(pred, p.step);
    if (p.segment !== segment || !this.exponentMatches(p, c)) return void this.ctx.counters.ignored++;
    const seen = this.received[scatter ? 0 : 1];
    const item = this.layout.order(this.steps, p.step, c);
    if (seen[item] === 0) {
      seen[item] = 1;
      this.receivedCount++;
      if (scatter) this.reduced(p, segment, c);
      else this.gathered(p, segment, c);
    } else {
      this.ctx.counters.duplicates++;
    }
    this.ack(this.memberAddress(pred), p);
    this.check();
  }

  protected due(key: number): void {
    const items = this.out[0].count;
    if (key < items) this.out[0].expire(key);
    else this.out[1].expire(key - items);
  }

  /** The predecessor's partial of scatter-reduce step s: add ours, send it on (or, after the last step, it is our reduced segment). */
  private reduced(p: RinaPacket, segment: number, c: number): void {
    const last = p.step === this.steps - 1;
    const fields = last
      ? { messageType: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, step: 0, segment, chunk: c }
      : { messageType: RinaMessageType.RING_DATA, phase: RinaPhase.SCATTER_REDUCE, step: p.step + 1, segment, chunk: c };
    const { buf, view } = this.packet(fields);
    this.values.writeCombined(view, RINA_HEADER_LENGTH, p.values, segment, c);
    if (last) this.values.storeFrom(view, RINA_HEADER_LENGTH, segment, c);
    this.queue(last ? 1 : 0, fields.step, c, buf);
  }

  /** A reduced chunk passing round the ring: keep it, send it on unless the next member is where it started. */
  private gathered(p: RinaPacket, segment: number, c: number): void {
    this.values.store(p.values, segment, c);
    if (p.step + 1 >= this.steps) return;
    const { buf, view } = this.packet({ messageType: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, step: p.step + 1, segment, chunk: c });
    this.values.writeResult(view, RINA_HEADER_LENGTH, segment, c);
    this.queue(1, p.step + 1, c, buf);
  }

  private acked(p: RinaPacket, c: number): void {
    const scatter = p.phase === RinaPhase.SCATTER_REDUCE;
    const segment = scatter ? this.layout.scatterSegment(this.position, p.step) : this.layout.gatherSegment(this.position, p.step);
    if (p.segment !== segment) return void this.ctx.counters.ignored++;
    const phase = scatter ? 0 : 1;
    const item = this.layout.order(this.steps, p.step, c);
    if (this.out[phase].done(item)) this.buffers[phase].delete(item);
    else this.ctx.counters.duplicates++;
    this.check();
  }

  private queue(phase: 0 | 1, step: number, c: number, buf: Buffer): void {
    const item = this.layout.order(this.steps, step, c);
    this.buffers[phase].set(item, buf);
    this.out[phase].ready(item);
  }

  private check(): void {
    if (this.receivedCount === 2 * this.out[0].count && this.out[0].allDone && this.out[1].allDone) this.finish();
  }

  private describe(phase: 0 | 1, item: number): string {
    return `${phase === 0 ? 'scatter-reduce' : 'all-gather'} step ${this.layout.rowAt(this.steps, item)} chunk ${this.layout.chunkAt(this.steps, item)}`;
  }
}
