/**
 * One slot of an OmniReduce worker's call: it walks the slot's stream of
 * blocks one round at a time, always with exactly one message outstanding
 * (priming, the round's block, or a value-less message when the round's
 * block is not one it holds), which it retransmits until the aggregator's
 * reply to that round arrives. The reply carries the block's sum, the next
 * round's block and that block's maximum exponent, which fixes the scale
 * before anyone sends the block.
 */
import { encodeOmniReduceHeader, NEXT_TSI_NONE, OMNIREDUCE_HEADER_LENGTH, omniReduceLength, type OmniReducePacket } from '../../wire/omnireduce.js';
import type { ShadowSet } from '../../wire/pool-index.js';
import { dequantiseInto, MAX_CHUNK_EXPONENT, MIN_CHUNK_EXPONENT, quantiseInto, type ScaleTable } from '../switchml/quantisation.js';
import type { RttEstimator } from '../switchml/rtt-estimator.js';
import type { AgentClock, AgentTimers, CancelTimer } from '../time.js';
import { formatSocketAddress, type SocketAddress } from '../transport/index.js';
import type { WorkerBlocks } from './block-layout.js';
import { OMNIREDUCE_ERROR_CODES, OmniReduceError } from './omnireduce-error.js';
import type { WorkerTransport } from './sourced-transport.js';

/** What every slot of one call shares. */
export interface SlotContext {
  readonly transport: WorkerTransport;
  readonly clock: AgentClock;
  readonly timers: AgentTimers;
  readonly rtt: RttEstimator;
  readonly maxRetries: number;
  readonly scales: ScaleTable;
  readonly blocks: WorkerBlocks;
  readonly result: Float32Array;
  readonly rank: number;
  /** Counters of the call. */
  readonly stats: { messagesSent: number; bytesSent: number; retransmissions: number; blocksSent: number; rounds: number };
  /** Called once when the slot's stream ends, or with the error that ends the call. */
  readonly settled: (slot: number, error?: OmniReduceError) => void;
}

export class WorkerSlot {
  private tsi: number;
  private priming = true;
  private myNext: number;
  private roundExponent = MIN_CHUNK_EXPONENT;
  private readonly buffer: Buffer;
  private length = 0;
  private attempts = 0;
  private firstSentAt = 0;
  private cancelTimer: CancelTimer | undefined;
  private finished = false;

  constructor(
    readonly slot: number,
    private set: ShadowSet,
    private readonly aggregator: SocketAddress,
    private readonly ctx: SlotContext,
  ) {
    this.buffer = Buffer.alloc(omniReduceLength(ctx.blocks.layout.blockSize));
    this.tsi = ctx.blocks.layout.tsiOf(slot);
    this.myNext = this.tsi;
  }

  /** The set the next call's priming round uses: the set after this call's last round. */
  get nextSet(): ShadowSet {
    return this.set;
  }

  start(): void {
    this.length = this.writeHeader(this.tsi, this.myNext, 0);
    this.sendFresh();
  }

  stop(): void {
    this.finished = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  /** A reply for this slot; ignored unless it answers the round outstanding. */
  onReply(msg: OmniReducePacket): void {
    if (this.finished || msg.tsi !== this.tsi || msg.set !== this.set || (msg.elementCount === 0) !== this.priming) return;
    const { layout } = this.ctx.blocks;
    if (!this.priming && msg.elementCount !== layout.blockSize) return;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.attempts === 0) this.ctx.rtt.sample(this.ctx.clock.now() - this.firstSentAt);
    this.ctx.stats.rounds++;
    if (!this.priming) {
      const block = layout.blockOf(this.tsi);
      dequantiseInto(msg.values, layout.elementsIn(block), this.ctx.scales.factor(this.roundExponent), this.ctx.result, this.tsi);
    }
    const next = msg.nextTsi;
    this.set = (this.set ^ 1) as ShadowSet;
    if (next === NEXT_TSI_NONE) {
      if (this.myNext !== NEXT_TSI_NONE) return this.fail(`ended slot ${this.slot}'s stream while this worker still holds block tsi ${this.myNext}`);
      this.stop();
      return this.ctx.settled(this.slot);
    }
    if (next > this.myNext || !layout.inStream(this.slot, next)) return this.fail(`named block tsi ${next} next in slot ${this.slot}, which is past this worker's next block ${this.myNext} or not in the slot's stream`);
    if (msg.exponent < MIN_CHUNK_EXPONENT || msg.exponent > MAX_CHUNK_EXPONENT) return this.fail(`sent exponent ${msg.exponent} for block tsi ${next}, outside ${MIN_CHUNK_EXPONENT}..${MAX_CHUNK_EXPONENT}`);
    this.priming = false;
    this.tsi = next;
    this.roundExponent = msg.exponent;
    if (next === this.myNext) {
      const own = this.ctx.blocks.exponentAt(next);
      if (msg.exponent < own) return this.fail(`sent exponent ${msg.exponent} for block tsi ${next}, below this worker's own ${own}`);
      this.myNext = this.ctx.blocks.nextAfter(next);
      this.length = this.writeHeader(next, this.myNext, layout.blockSize);
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.length);
      quantiseInto(this.ctx.blocks.data, next, layout.blockSize, this.ctx.scales.factor(msg.exponent), view, OMNIREDUCE_HEADER_LENGTH);
      this.ctx.stats.blocksSent++;
    } else {
      this.length = this.writeHeader(next, this.myNext, 0);
    }
    this.sendFresh();
  }

  private writeHeader(tsi: number, nextTsi: number, elementCount: number): number {
    const exponent = this.ctx.blocks.exponentAt(nextTsi);
    encodeOmniReduceHeader(this.buffer, 0, { tsi, slot: this.slot, set: this.set, nextTsi, exponent, elementCount });
    return omniReduceLength(elementCount);
  }

  private sendFresh(): void {
    this.attempts = 0;
    this.firstSentAt = this.ctx.clock.now();
    this.transmit();
  }

  private transmit(): void {
    const { stats } = this.ctx;
    if (this.ctx.transport.sendTo(this.aggregator, this.buffer, this.length)) {
      stats.messagesSent++;
      stats.bytesSent += this.length;
    }
    this.cancelTimer = this.ctx.timers.schedule(this.ctx.rtt.waitMs(this.attempts), () => this.onTimeout());
  }

  private onTimeout(): void {
    this.cancelTimer = undefined;
    if (this.finished) return;
    this.ctx.rtt.timedOut(this.ctx.clock.now());
    if (this.attempts >= this.ctx.maxRetries) {
      const waited = this.ctx.clock.now() - this.firstSentAt;
      const round = this.priming ? 'the priming round' : `block tsi ${this.tsi}`;
      this.stop();
      return this.ctx.settled(this.slot, new OmniReduceError(
        OMNIREDUCE_ERROR_CODES.timeout,
        `worker ${this.ctx.rank}: aggregator ${formatSocketAddress(this.aggregator)} did not answer slot ${this.slot} (${round}) through ${this.ctx.maxRetries} retransmissions over ${waited} ms. ` +
          'The aggregator replies only when every worker has reported, so either it or another worker stopped: check that every worker of the job is running and can reach it.',
      ));
    }
    this.attempts++;
    this.ctx.stats.retransmissions++;
    this.transmit();
  }

  private fail(what: string): void {
    this.stop();
    this.ctx.settled(this.slot, new OmniReduceError(OMNIREDUCE_ERROR_CODES.badResult, `worker ${this.ctx.rank}: aggregator ${formatSocketAddress(this.aggregator)} ${what}; is it configured with this job's workers and block size?`));
  }
}
