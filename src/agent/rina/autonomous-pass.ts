/**
 * One pass of an autonomous ring member r (a worker of a rack whose ToR does
 * not aggregate): plain ring AllReduce over RING_DATA and ACKs.
 *
 * Outgoing, in one windowed sequence (OutgoingStream): scatter-reduce steps
 * s = 0..R−2, chunk c (item s·C' + c) — step 0 its own chunk of segment r,
 * step s its predecessor's step s − 1 plus its own; then all-gather steps
 * s = 0..R−2 (item (R − 1 + s)·C' + c) — step 0 the reduced segment r + 1,
 * step s what it received in all-gather step s − 1. Each is retransmitted
 * until the next member ACKs it. Every RING_DATA from the predecessor is
 * ACKed, each copy; only the first is used. The pass is done when every
 * chunk of the result is in and every packet sent was ACKed.
 */
import { rinaChunkIndex, RinaMessageType, RinaPhase, RINA_HEADER_LENGTH, type RinaPacket } from '../../wire/index.js';
import { OutgoingStream } from './outgoing-stream.js';
import { mod } from './pass-layout.js';
import { PassRun, type PassSpec, type RinaWorkerContext } from './pass-run.js';

export class AutonomousPass extends PassRun {
  private readonly out: OutgoingStream;
  private readonly buffers = new Map<number, Buffer>();
  /** Per incoming item (same numbering as outgoing), whether it arrived. */
  private readonly received: Uint8Array;
  private receivedCount = 0;
  private readonly sr: number;

  constructor(ctx: RinaWorkerContext, spec: PassSpec) {
    super(ctx, spec);
    const C = this.layout.chunks;
    this.sr = (this.ringLength - 1) * C;
    this.received = new Uint8Array(2 * this.sr);
    this.out = new OutgoingStream(2 * this.sr, this.layout.window, 0, this.deadlines, ctx, {
      transmit: (i) => this.send(this.memberAddress(this.position + 1), this.buffers.get(i)!),
      exhausted: (i) => this.fail(this.timeoutError(`RING_DATA ${this.describe(i)} to member ${mod(this.position + 1, this.ringLength)}`)),
    }, ctx.counters);
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
      this.queue(c, buf);
    }
  }

  protected receive(p: RinaPacket): void {
    const pred = mod(this.position - 1, this.ringLength);
    const next = mod(this.position + 1, this.ringLength);
    const c = this.chunkOf(p);
    if (c < 0 || p.step > this.ringLength - 2) return void this.ctx.counters.ignored++;
    if (p.messageType === RinaMessageType.ACK && p.senderRank === next) return this.acked(p, c);
    if (p.messageType !== RinaMessageType.RING_DATA || p.senderRank !== pred) return void this.ctx.counters.ignored++;
    const scatter = p.phase === RinaPhase.SCATTER_REDUCE;
    const segment = scatter ? this.layout.scatterSegment(pred, p.step) : this.layout.gatherSegment(pred, p.step);
    if (p.segment !== segment || !this.exponentMatches(p, c)) return void this.ctx.counters.ignored++;
    const item = (scatter ? 0 : this.sr) + p.step * this.layout.chunks + c;
    if (this.received[item] === 0) {
      this.received[item] = 1;
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
    this.out.expire(key);
  }

  /** The predecessor's partial of scatter-reduce step s: add ours, send it on (or, after the last step, it is our reduced segment). */
  private reduced(p: RinaPacket, segment: number, c: number): void {
    const last = p.step === this.ringLength - 2;
    const fields = last
      ? { messageType: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, step: 0, segment, chunk: c }
      : { messageType: RinaMessageType.RING_DATA, phase: RinaPhase.SCATTER_REDUCE, step: p.step + 1, segment, chunk: c };
    const { buf, view } = this.packet(fields);
    this.values.writeCombined(view, RINA_HEADER_LENGTH, p.values, segment, c);
    if (last) this.values.storeFrom(view, RINA_HEADER_LENGTH, segment, c);
    this.queue((last ? this.sr : (p.step + 1) * this.layout.chunks) + c, buf);
  }

  /** A reduced chunk passing round the ring: keep it, send it on unless the next member is where it started. */
  private gathered(p: RinaPacket, segment: number, c: number): void {
    this.values.store(p.values, segment, c);
    if (p.step + 1 > this.ringLength - 2) return;
    const { buf, view } = this.packet({ messageType: RinaMessageType.RING_DATA, phase: RinaPhase.ALL_GATHER, step: p.step + 1, segment, chunk: c });
    this.values.writeResult(view, RINA_HEADER_LENGTH, segment, c);
    this.queue(this.sr + (p.step + 1) * this.layout.chunks + c, buf);
  }

  private acked(p: RinaPacket, c: number): void {
    const scatter = p.phase === RinaPhase.SCATTER_REDUCE;
    const item = (scatter ? 0 : this.sr) + p.step * this.layout.chunks + c;
    const segment = scatter ? this.layout.scatterSegment(this.position, p.step) : this.layout.gatherSegment(this.position, p.step);
    if (p.segment !== segment) return void this.ctx.counters.ignored++;
    if (this.out.done(item)) this.buffers.delete(item);
    else this.ctx.counters.duplicates++;
    this.check();
  }

  private queue(item: number, buf: Buffer): void {
    this.buffers.set(item, buf);
    this.out.ready(item);
  }

  private check(): void {
    if (this.receivedCount === this.received.length && this.out.allDone) this.finish();
  }

  /** The chunk index of a packet of this pass, or −1. */
  private chunkOf(p: RinaPacket): number {
    const c = rinaChunkIndex(p.chunk);
    return c < this.layout.chunks && p.segment < this.ringLength ? c : -1;
  }

  private describe(item: number): string {
    const scatter = item < this.sr;
    const rest = scatter ? item : item - this.sr;
    const step = Math.floor(rest / this.layout.chunks);
    return `${scatter ? 'scatter-reduce' : 'all-gather'} step ${step} chunk ${rest % this.layout.chunks}`;
  }
}
