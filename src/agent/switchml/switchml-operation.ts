/**
 * One SwitchML allreduce call on one worker: the window, the exponent one
 * window ahead, results as acknowledgements, timeouts and retransmission.
 *
 * With C chunks and window w = min(pool size, C), the call sends packets
 * j = 0 .. C + w − 1 (docs/wire.md §4):
 * - packet j goes into slot j mod w; its set is the slot's next set, which
 *   flips at every packet and is carried across calls (every worker sends the
 *   same packets, so the workers' sets stay in step with the switch's bitmaps);
 * - it carries the exponent of chunk j (−128 when j ≥ C) and the values of
 *   chunk j − w scaled with e_max(j − w) (zeros when j < w: the priming packets);
 * - its result, recognised by (epoch, slot, tsi = j, set), gives the sum of
 *   chunk j − w and e_max(j), and is the slot's acknowledgement: packet j + w
 *   then goes into the same slot.
 * Packets go out in order and a slot is reused only once its result is in, so
 * e_max(c) is always known before chunk c is scaled.
 *
 * Using w = min(pool, C) rather than the whole pool spares small tensors
 * packets that would carry neither values nor an exponent; every worker
 * computes the same w from the same length, so they still agree on slots.
 */
import {
  decodeSwitchMl,
  encodeSwitchMlHeader,
  EXPONENT_NONE,
  type Int32BeView,
  SWITCHML_HEADER_LENGTH,
  SwitchMlMessageType,
  switchMlLength,
  type ShadowSet,
  type SwitchMlHeaderFields,
} from '../../wire/index.js';
import type { AllReduceCallOptions, AllReduceResult } from '../allreduce.js';
import { dequantiseInto, quantiseInto, type ScaleTable } from './quantisation.js';
import { Answer, SlotTimers } from './retransmission.js';
import type { RttEstimator } from './rtt-estimator.js';
import { SWITCHML_ERROR_CODES, SwitchMlError } from './switchml-error.js';
import type { ResolvedSwitchMlOptions } from './switchml-options.js';
import { MutableSwitchMlCounters, type SwitchMlStats } from './switchml-stats.js';

export interface OperationInputs {
  readonly options: ResolvedSwitchMlOptions;
  readonly scales: ScaleTable;
  /** The worker's RTO estimator, kept from call to call. */
  readonly rtt: RttEstimator;
  /** Per pool slot, the set of its next packet; the call flips it as it sends. */
  readonly nextSet: Uint8Array;
  /** One reusable packet buffer (and a DataView on it) per slot, at least `window` of them. */
  readonly packets: readonly Buffer[];
  readonly views: readonly DataView[];
  readonly data: Float32Array;
  /** This worker's exponent per chunk (all finite: checked before). */
  readonly chunkExponents: Int8Array;
  readonly epoch: number;
  readonly call: AllReduceCallOptions | undefined;
}

const NO_PACKET = -1;

/** User + system CPU time of this process since `start`, in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export class SwitchMlOperation {
  readonly done: Promise<AllReduceResult<SwitchMlStats>>;
  readonly chunks: number;
  readonly window: number;
  private readonly packetCount: number;
  private readonly result: Float32Array;
  /** e_max per chunk, from the results. */
  private readonly maxExponents: Int8Array;
  /** Per slot: the tsi of the outstanding packet (NO_PACKET when the slot is done) and its set. */
  private readonly outstanding: Float64Array;
  private readonly sentSet: Uint8Array;
  private readonly timers: SlotTimers;
  private readonly counters = new MutableSwitchMlCounters();
  private readonly header: SwitchMlHeaderFields;
  private readonly startedAt = performance.now();
  private readonly cpuAtStart = process.cpuUsage();
  private readonly progressEvery: number;
  private slotsRunning = 0;
  private chunksDone = 0;
  private finished = false;
  private resolve!: (value: AllReduceResult<SwitchMlStats>) => void;
  private reject!: (error: SwitchMlError) => void;
  private readonly onAbort = (): void => this.abort();

  constructor(private readonly inputs: OperationInputs) {
    const { options, data } = inputs;
    this.chunks = Math.ceil(data.length / options.elementsPerPacket);
    this.window = Math.min(options.poolSize, this.chunks);
    this.packetCount = this.chunks + this.window;
    this.result = new Float32Array(data.length);
    this.maxExponents = new Int8Array(this.chunks);
    this.outstanding = new Float64Array(this.window).fill(NO_PACKET);
    this.sentSet = new Uint8Array(this.window);
    this.progressEvery = Math.max(1, Math.floor(this.chunks / 100));
    this.timers = new SlotTimers(this.window, inputs.rtt, (slot) => this.expired(slot));
    // Every slot's answer is a sample: a window's worth per round trip.
    inputs.rtt.expectSamplesPerRtt(this.window);
    this.header = {
      messageType: SwitchMlMessageType.UPDATE,
      jobId: options.jobId,
      workerId: options.workerId,
      tsi: 0,
      slot: 0,
      set: 0,
      elementCount: options.elementsPerPacket,
      exponent: EXPONENT_NONE,
      epoch: inputs.epoch,
    };
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Sends the first window; the call then runs on results and timeouts. */
  start(): void {
    const signal = this.inputs.call?.signal;
    if (signal?.aborted) return this.abort();
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (this.chunks === 0) return this.finish();
    this.slotsRunning = this.window;
    for (let slot = 0; slot < this.window && !this.finished; slot++) this.sendNew(slot, slot);
  }

  /** Fails the call (first failure wins). */
  fail(error: SwitchMlError): void {
    if (this.finished) return;
    this.settle();
    this.reject(error);
  }

  /** A datagram from the transport. */
  receive(buf: Buffer, offset: number, length: number): void {
    if (this.finished) return;
    const c = this.counters;
    c.messagesReceived++;
    const { options } = this.inputs;
    const p = decodeSwitchMl(buf, offset, offset + length);
    if (!p.ok || p.messageType === SwitchMlMessageType.UPDATE || p.messageType === SwitchMlMessageType.RECOVERY_UPDATE || p.jobId !== options.jobId || p.elementCount !== options.elementsPerPacket) {
      c.ignored++;
      return;
    }
    if (p.epoch !== this.inputs.epoch) {
      c.staleResults++;
      return;
    }
    const slot = p.slot;
    if (slot >= this.window || this.outstanding[slot] !== p.tsi || this.sentSet[slot] !== p.set) {
      c.duplicates++;
      return;
    }
    const j = p.tsi;
    if (j < this.chunks) {
      // e_max(j) is the maximum over the workers: never below our own (nor "none", −128).
      if (p.exponent < this.inputs.chunkExponents[j]!) {
        return this.fail(new SwitchMlError(SWITCHML_ERROR_CODES.badResult, `the result for packet ${j} (slot ${slot}) has exponent ${p.exponent}, below this worker's own ${this.inputs.chunkExponents[j]}; a switch returns the maximum: check the switch program`));
      }
      this.maxExponents[j] = p.exponent;
    } else if (p.exponent !== EXPONENT_NONE) {
      return this.mismatch(j);
    }
    if (this.timers.answered(slot) === Answer.Spurious) c.spuriousRetransmissions++;
    if (p.messageType === SwitchMlMessageType.RETRANSMITTED_RESULT) c.retransmittedResults++;
    if (j >= this.window) this.chunkDone(j - this.window, p.values);
    const next = j + this.window;
    if (next < this.packetCount) this.sendNew(slot, next);
    else this.slotDone(slot);
  }

  private chunkDone(chunk: number, sums: Int32BeView): void {
    const perPacket = this.inputs.options.elementsPerPacket;
    const at = chunk * perPacket;
    const count = Math.min(perPacket, this.result.length - at);
    dequantiseInto(sums, count, this.inputs.scales.factor(this.maxExponents[chunk]!), this.result, at);
    this.chunksDone++;
    if (this.chunksDone % this.progressEvery === 0) this.progress();
  }

  private slotDone(slot: number): void {
    this.outstanding[slot] = NO_PACKET;
    if (--this.slotsRunning === 0) this.finish();
  }

  /** Builds packet j into the slot's buffer and sends it. */
  private sendNew(slot: number, j: number): void {
    const { options, nextSet, packets, views, chunkExponents, data, scales } = this.inputs;
    const set = nextSet[slot]! as ShadowSet;
    nextSet[slot] = set ^ 1;
    this.sentSet[slot] = set;
    this.outstanding[slot] = j;
    const h = this.header;
    h.tsi = j;
    h.slot = slot;
    h.set = set;
    h.exponent = j < this.chunks ? chunkExponents[j]! : EXPONENT_NONE;
    const buf = packets[slot]!;
    encodeSwitchMlHeader(buf, 0, h);
    const perPacket = options.elementsPerPacket;
    if (j >= this.window) {
      const chunk = j - this.window;
      quantiseInto(data, chunk * perPacket, perPacket, scales.factor(this.maxExponents[chunk]!), views[slot]!, SWITCHML_HEADER_LENGTH);
    } else {
      buf.fill(0, SWITCHML_HEADER_LENGTH, switchMlLength(perPacket));
    }
    this.transmit(slot);
    this.timers.started(slot);
  }

  private transmit(slot: number): void {
    const { transport, elementsPerPacket } = this.inputs.options;
    if (transport.send(this.inputs.packets[slot]!, switchMlLength(elementsPerPacket))) {
      this.counters.messagesSent++;
      return;
    }
    // A refused send is like a lost packet: the slot's timer retransmits it.
    // A closed transport will refuse every one, so stop at once instead.
    if (transport.closed) this.fail(new SwitchMlError(SWITCHML_ERROR_CODES.unusable, `the transport ${transport.name} was closed during the call`));
  }

  private expired(slot: number): void {
    if (this.finished || this.outstanding[slot] === NO_PACKET) return;
    this.counters.timeouts++;
    const { maxRetries } = this.inputs.options;
    if (this.timers.attemptsOf(slot) >= maxRetries) {
      const tsi = this.outstanding[slot];
      return this.fail(
        new SwitchMlError(
          SWITCHML_ERROR_CODES.timeout,
          `no result for packet ${tsi} (slot ${slot}) after ${maxRetries} retransmissions; check that every worker of job ${this.inputs.options.jobId} is running and that the switch is programmed for it`,
        ),
      );
    }
    this.counters.retransmissions++;
    if (this.timers.attemptsOf(slot) >= this.inputs.options.recoverAfter) {
      // Long unanswered: the slot copy may hold a round nobody will finish. Ask the switch to take it over.
      const buf = this.inputs.packets[slot]!;
      buf[0] = (buf[0]! & 0xf0) | SwitchMlMessageType.RECOVERY_UPDATE;
      this.counters.recoveryUpdates++;
    }
    this.transmit(slot);
    if (!this.finished) this.timers.retransmitted(slot);
  }

  /**
   * Another worker sent an exponent for a chunk this worker does not have. The
   * detection is best effort: only the worker with the shorter tensor can see
   * it, and only when the windows still line up; the others time out.
   */
  private mismatch(j: number): void {
    this.fail(
      new SwitchMlError(
        SWITCHML_ERROR_CODES.tensorMismatch,
        `the result for packet ${j} carries an exponent for chunk ${j}, but this worker's tensor has only ${this.chunks} chunks; every worker must call allreduce with tensors of the same length`,
      ),
    );
  }

  private abort(): void {
    this.fail(new SwitchMlError(SWITCHML_ERROR_CODES.aborted, 'the allreduce call was aborted'));
  }

  private progress(): void {
    const report = this.inputs.call?.onProgress;
    if (report === undefined) return;
    try {
      report(Math.min(this.result.length, this.chunksDone * this.inputs.options.elementsPerPacket), this.result.length);
    } catch {
      // onProgress must not throw; if it does, the call carries on regardless.
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.settle();
    if (this.chunks > 0 && this.chunksDone % this.progressEvery !== 0) this.progress();
    const c = this.counters;
    this.resolve({
      result: this.result,
      stats: {
        algorithm: 'switchml',
        bytes: this.inputs.data.length * 4,
        elapsedMs: performance.now() - this.startedAt,
        cpuMs: cpuMsSince(this.cpuAtStart),
        messagesSent: c.messagesSent,
        messagesReceived: c.messagesReceived,
        retransmissions: c.retransmissions,
        epoch: this.inputs.epoch,
        chunks: this.chunks,
        window: this.window,
        packets: this.chunks === 0 ? 0 : this.packetCount,
        timeouts: c.timeouts,
        retransmittedResults: c.retransmittedResults,
        duplicates: c.duplicates,
        staleResults: c.staleResults,
        ignored: c.ignored,
        spuriousRetransmissions: c.spuriousRetransmissions,
        recoveryUpdates: c.recoveryUpdates,
        rtoMs: this.inputs.rtt.rtoMs,
        srttMs: this.inputs.rtt.srttMs,
        rttVarMs: this.inputs.rtt.rttVarMs,
      },
    });
  }

  private settle(): void {
    this.finished = true;
    this.timers.dispose();
    this.inputs.call?.signal?.removeEventListener('abort', this.onAbort);
  }
}
