/**
 * One ATP allreduce call on one worker (docs/atp.md, "Workers").
 *
 * The tensor is cut into packets of `elementsPerPacket` values; packet c has
 * the sequence number s = first + c (run on from call to call, 16 bits on the
 * wire) and window position p = s mod W. Packet c goes out when
 * - every packet before c − W + 1 is acknowledged (so the ACK of s − W, which
 *   names p's aggregator for s, is in), and
 * - fewer than the congestion window's size are outstanding.
 * Its aggregator is the one p is on (a hash of (job, p) until an ACK names
 * another). Its ACK, recognised by (job, s) among the outstanding packets,
 * carries the result (int32 at the job's scale, or float32 with `overflow`),
 * the aggregator p uses next (`bitmap0`), and ECN, which drives the window
 * (with the IPv4 CE marks the worker reads beside the ACKs, atp-worker.ts).
 * A deadline per position resends the packet with `resend` set, which makes a
 * switch flush its partial aggregate to the PS.
 */
import { ATP_HEADER_LENGTH, decodeAtp, encodeAtpHeader, type AtpHeaderFields } from '../../wire/index.js';
import type { AllReduceCallOptions, AllReduceResult } from '../allreduce.js';
import type { RttEstimator } from '../switchml/rtt-estimator.js';
import { ATP_ERROR_CODES, AtpError } from './atp-error.js';
import type { ResolvedAtpOptions } from './atp-options.js';
import { writeFloats, type AtpScale } from './atp-scale.js';
import { MutableAtpCounters, type AtpStats } from './atp-stats.js';
import type { CongestionWindow } from './congestion-window.js';
import { ResendTimers } from './resend-timers.js';
import { markSentSequence } from './sent-sequence.js';

/** What a worker keeps from call to call. */
export interface AtpWorkerState {
  /** The next packet's sequence number, not wrapped. */
  nextSequence: number;
  /** Per window position, the aggregator its next packet uses. */
  readonly aggregatorOf: Uint16Array;
  readonly window: CongestionWindow;
  /** The newest sequence sent (not wrapped; one before the first while none is). */
  highestSent: number;
  /** IPv4 CE marks taken on this worker's sequences, all calls and between them. */
  ipCeMarks: number;
  readonly rtt: RttEstimator;
  /** One packet buffer (and a DataView on it) per window position. */
  readonly packets: readonly Buffer[];
  readonly views: readonly DataView[];
}

export interface AtpOperationInputs {
  readonly options: ResolvedAtpOptions;
  readonly scale: AtpScale;
  readonly state: AtpWorkerState;
  readonly data: Float32Array;
  readonly call: AllReduceCallOptions | undefined;
}

const FLAG_RESEND = 0x10;
const NONE = -1;

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export class AtpOperation {
  readonly done: Promise<AllReduceResult<AtpStats>>;
  readonly packets: number;
  private readonly firstSequence: number;
  private readonly result: Float32Array;
  private readonly acked: Uint8Array;
  /** Per window position, the packet outstanding there, or NONE. */
  private readonly packetAt: Float64Array;
  private readonly timers: ResendTimers;
  private readonly counters = new MutableAtpCounters();
  private readonly header: AtpHeaderFields;
  private readonly length: number;
  private readonly startedAt: number;
  private readonly cpuAtStart = process.cpuUsage();
  private readonly progressEvery: number;
  private readonly halvingsAtStart: number;
  private readonly ipCeMarksAtStart: number;
  /** The next packet to send, the oldest not yet acknowledged, and how many are outstanding. */
  private sendNext = 0;
  private lowestUnacked = 0;
  private inFlight = 0;
  private ackedCount = 0;
  private finished = false;
  private resolve!: (value: AllReduceResult<AtpStats>) => void;
  private reject!: (error: AtpError) => void;
  private readonly onAbort = (): void => this.fail(new AtpError(ATP_ERROR_CODES.aborted, 'the allreduce call was aborted'));

  constructor(private readonly inputs: AtpOperationInputs) {
    const { options, data, state } = inputs;
    this.packets = Math.ceil(data.length / options.elementsPerPacket);
    this.firstSequence = state.nextSequence;
    this.result = new Float32Array(data.length);
    this.acked = new Uint8Array(this.packets);
    this.packetAt = new Float64Array(options.maxWindow).fill(NONE);
    this.length = ATP_HEADER_LENGTH + 4 * options.elementsPerPacket;
    this.progressEvery = Math.max(1, Math.floor(this.packets / 100));
    this.startedAt = options.clock.now();
    this.halvingsAtStart = state.window.halvings;
    this.ipCeMarksAtStart = state.ipCeMarks;
    this.timers = new ResendTimers(options.maxWindow, state.rtt, options.clock, options.timers, (p) => this.expired(p));
    state.rtt.expectSamplesPerRtt(Math.min(this.packets, state.window.size));
    const aggregating = options.bitmap0Bit !== undefined;
    this.header = {
      bitmap0: aggregating ? 2 ** options.bitmap0Bit : 0,
      bitmap1: 2 ** options.bitmap1Bit,
      fanInDegree0: options.fanIn0,
      fanInDegree1: options.fanIn1,
      overflow: false,
      resend: false,
      collision: false,
      ecn: false,
      edgeSwitchIdentifier: aggregating ? 0 : 1,
      isAck: false,
      aggregatorIndex: 0,
      jobId: options.jobId,
      sequenceNumber: 0,
      elementCount: options.elementsPerPacket,
    };
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Sends the first window; the call then runs on ACKs and deadlines. */
  start(): void {
    const signal = this.inputs.call?.signal;
    if (signal?.aborted) return this.onAbort();
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (this.packets === 0) return this.finish();
    this.pump();
  }

  /** Fails the call (the first failure wins). */
  fail(error: AtpError): void {
    if (this.finished) return;
    this.settle();
    this.reject(error);
  }

  /** A datagram from the transport. */
  receive(buf: Buffer, offset: number, length: number): void {
    if (this.finished) return;
    const c = this.counters;
    c.messagesReceived++;
    const { options, state } = this.inputs;
    const ack = decodeAtp(buf, offset, offset + length);
    if (!ack.ok || !ack.isAck || ack.jobId !== options.jobId || ack.elementCount !== options.elementsPerPacket) {
      c.ignored++;
      return;
    }
    // The packet this sequence number stands for among those outstanding (all within W ≪ 2^16 of each other).
    const packet = this.lowestUnacked + ((ack.sequenceNumber - (this.firstSequence + this.lowestUnacked)) & 0xffff);
    if (packet >= this.sendNext || this.acked[packet] === 1) {
      c.duplicateAcks++;
      // The PS sends an ACK again with ecn to carry a mark that reached it after the ACK had gone.
      if (ack.ecn && markSentSequence(state.window, ack.sequenceNumber, state.highestSent, options.firstSequence)) c.duplicateEcnMarks++;
      return;
    }
    const position = (this.firstSequence + packet) % options.maxWindow;
    this.timers.answered(position);
    // bitmap0 names the aggregator for this position's next packet; one outside the job's part of the pool is ignored.
    const next = ack.bitmap0;
    if (next >= options.poolBase && next < options.poolBase + options.poolSize && next !== state.aggregatorOf[position]) {
      state.aggregatorOf[position] = next;
      c.aggregatorMoves++;
    }
    const at = packet * options.elementsPerPacket;
    const count = Math.min(options.elementsPerPacket, this.result.length - at);
    const values = ack.values;
    if (ack.overflow) {
      c.floatResults++;
      for (let k = 0; k < count; k++) this.result[at + k] = values.getFloat32(k);
    } else {
      const scale = this.inputs.scale;
      for (let k = 0; k < count; k++) this.result[at + k] = scale.toValue(values.get(k));
    }
    c.acks++;
    if (ack.ecn) c.ecnMarks++;
    state.window.onAck(ack.ecn, this.firstSequence + packet, state.highestSent);
    this.acked[packet] = 1;
    this.packetAt[position] = NONE;
    this.inFlight--;
    this.ackedCount++;
    while (this.lowestUnacked < this.packets && this.acked[this.lowestUnacked] === 1) this.lowestUnacked++;
    if (this.ackedCount % this.progressEvery === 0) this.progress();
    if (this.ackedCount === this.packets) return this.finish();
    this.pump();
  }

  /** Sends every packet the window positions and the congestion window allow. */
  private pump(): void {
    const { options, state } = this.inputs;
    while (!this.finished && this.sendNext < this.packets && this.sendNext < this.lowestUnacked + options.maxWindow && this.inFlight < state.window.size) {
      this.sendNew(this.sendNext++);
    }
  }

  private sendNew(packet: number): void {
    const { options, state, scale, data } = this.inputs;
    const sequence = this.firstSequence + packet;
    const position = sequence % options.maxWindow;
    const buf = state.packets[position]!;
    const view = state.views[position]!;
    const perPacket = options.elementsPerPacket;
    const from = packet * perPacket;
    const h = this.header;
    h.sequenceNumber = sequence & 0xffff;
    h.aggregatorIndex = state.aggregatorOf[position]!;
    h.overflow = !scale.quantiseInto(data, from, perPacket, view, ATP_HEADER_LENGTH);
    if (h.overflow) {
      writeFloats(data, from, perPacket, view, ATP_HEADER_LENGTH);
      this.counters.overflowPackets++;
    }
    encodeAtpHeader(buf, 0, h);
    state.highestSent = sequence;
    this.packetAt[position] = packet;
    this.inFlight++;
    this.transmit(position);
    this.timers.started(position);
  }

  private transmit(position: number): void {
    const { transport } = this.inputs.options;
    if (transport.send(this.inputs.state.packets[position]!, this.length)) {
      this.counters.messagesSent++;
      return;
    }
    // A refused send is like a loss: the deadline resends. A closed transport refuses all: stop now.
    if (transport.closed) this.fail(new AtpError(ATP_ERROR_CODES.unusable, `the transport ${transport.name} was closed during the call`));
  }

  private expired(position: number): void {
    const packet = this.packetAt[position]!;
    if (this.finished || packet === NONE) return;
    const c = this.counters;
    c.timeouts++;
    const { maxRetries, jobId } = this.inputs.options;
    if (this.timers.resendsOf(position) >= maxRetries) {
      const sequence = (this.firstSequence + packet) & 0xffff;
      return this.fail(
        new AtpError(
          ATP_ERROR_CODES.timeout,
          `no ACK for sequence ${sequence} of job ${jobId} after ${maxRetries} resends; check that the parameter server and every worker of the job are running with the same job constants, and the path to the PS`,
        ),
      );
    }
    c.retransmissions++;
    const buf = this.inputs.state.packets[position]!;
    buf[9] = buf[9]! | FLAG_RESEND;
    this.transmit(position);
    if (!this.finished) this.timers.resent(position);
  }

  private progress(): void {
    const report = this.inputs.call?.onProgress;
    if (report === undefined) return;
    try {
      report(Math.min(this.result.length, this.ackedCount * this.inputs.options.elementsPerPacket), this.result.length);
    } catch {
      // onProgress must not throw; if it does, the call carries on regardless.
    }
  }

  private finish(): void {
    if (this.finished) return;
    this.settle();
    if (this.packets > 0 && this.ackedCount % this.progressEvery !== 0) this.progress();
    const { state, options, data } = this.inputs;
    const c = this.counters;
    this.resolve({
      result: this.result,
      stats: {
        algorithm: 'atp',
        bytes: data.length * 4,
        elapsedMs: options.clock.now() - this.startedAt,
        cpuMs: cpuMsSince(this.cpuAtStart),
        messagesSent: c.messagesSent,
        messagesReceived: c.messagesReceived,
        retransmissions: c.retransmissions,
        packets: this.packets,
        firstSequence: this.firstSequence & 0xffff,
        overflowPackets: c.overflowPackets,
        timeouts: c.timeouts,
        acks: c.acks,
        floatResults: c.floatResults,
        duplicateAcks: c.duplicateAcks,
        ignored: c.ignored,
        aggregatorMoves: c.aggregatorMoves,
        ecnMarks: c.ecnMarks,
        ipCeMarks: state.ipCeMarks - this.ipCeMarksAtStart,
        duplicateEcnMarks: c.duplicateEcnMarks,
        windowHalvings: state.window.halvings - this.halvingsAtStart,
        window: state.window.size,
        windowMin: state.window.minReached,
        windowMax: state.window.maxReached,
        rtoMs: state.rtt.rtoMs,
        srttMs: state.rtt.srttMs,
        rttVarMs: state.rtt.rttVarMs,
      },
    });
  }

  private settle(): void {
    this.finished = true;
    this.timers.dispose();
    this.inputs.call?.signal?.removeEventListener('abort', this.onAbort);
  }
}
