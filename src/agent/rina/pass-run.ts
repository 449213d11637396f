/**
 * What every kind of member's pass shares: the worker's context (job, ring,
 * transport, time), the pass's layout, epoch and values, one DeadlineQueue
 * for its retransmissions, packet building, ACKs, and how a pass ends
 * (resolved when its member's work is done, or rejected by the first
 * failure).
 */
import {
  encodeRinaHeader, RINA_EXPONENT_PASS, RINA_HEADER_LENGTH, rinaChunkField, rinaLength, RinaMessageType, RinaPhase,
  type RinaHeaderFields, type RinaPacket,
} from '../../wire/index.js';
import type { RttEstimator } from '../switchml/rtt-estimator.js';
import type { AgentClock, AgentTimers } from '../time.js';
import { formatSocketAddress, type AddressedTransport, type SocketAddress } from '../transport/index.js';
import { DeadlineQueue } from './deadline-queue.js';
import { mod, type PassLayout } from './pass-layout.js';
import type { PassValues } from './pass-values.js';
import type { RinaMember, RinaPlace } from './ring-config.js';
import { RINA_ERROR_CODES, RinaError } from './rina-error.js';
import type { MutableRinaCounters } from './rina-stats.js';

/** The worker's side of every pass. */
export interface RinaWorkerContext {
  readonly jobId: number;
  readonly members: readonly RinaMember[];
  readonly place: RinaPlace;
  /** Where this worker's CONTRIBUTIONs go (ResolvedRinaOptions.contributionTarget). */
  readonly contributionTarget: SocketAddress;
  readonly transport: AddressedTransport;
  readonly clock: AgentClock;
  readonly timers: AgentTimers;
  /** RING_DATA to its ACK: the ring-facing round trip. */
  readonly rtt: RttEstimator;
  /** A CONTRIBUTION to its round's result, which waits for the predecessor too: kept apart, it is longer. */
  readonly roundRtt: RttEstimator;
  readonly maxRetries: number;
  readonly counters: MutableRinaCounters;
}

/** One pass: what it reduces and how. */
export interface PassSpec {
  readonly layout: PassLayout;
  readonly epoch: number;
  readonly values: PassValues;
  /** The exponent field of (segment, chunk): −128 in the exponent pass, the agreed exponent in the data pass. */
  readonly exponentOf: (segment: number, chunk: number) => number;
}

/** A packet's identity within its phase. */
export interface ItemFields {
  readonly messageType: RinaMessageType;
  readonly phase: RinaPhase;
  readonly step: number;
  readonly segment: number;
  readonly chunk: number;
}

export abstract class PassRun {
  readonly done: Promise<void>;
  protected readonly deadlines: DeadlineQueue;
  protected readonly layout: PassLayout;
  protected readonly values: PassValues;
  protected readonly position: number;
  protected readonly ringLength: number;
  protected finished = false;
  private lastHeard = 0;
  private cancelWatch: (() => void) | undefined;
  private readonly ackBuf = Buffer.alloc(RINA_HEADER_LENGTH);
  private readonly header: RinaHeaderFields;
  private resolve!: () => void;
  private reject!: (err: RinaError) => void;

  constructor(
    protected readonly ctx: RinaWorkerContext,
    protected readonly spec: PassSpec,
  ) {
    this.layout = spec.layout;
    this.values = spec.values;
    this.position = ctx.place.position;
    this.ringLength = ctx.members.length;
    this.deadlines = new DeadlineQueue(ctx.clock, ctx.timers, (key) => {
      if (!this.finished) this.due(key);
    });
    this.header = {
      messageType: RinaMessageType.RING_DATA, phase: 1, jobId: ctx.jobId, senderRank: this.position, workerId: ctx.place.workerId,
      exponent: 0, step: 0, segment: 0, chunk: 0, slot: 0, set: 0, elementCount: 0,
    };
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Starts the pass and a watchdog: a pass that hears nothing for maxRetries × the longest wait fails. */
  run(): void {
    this.lastHeard = this.ctx.clock.now();
    this.watch();
    this.start();
  }

  /** A packet of this pass's epoch and job. */
  deliver(p: RinaPacket): void {
    this.lastHeard = this.ctx.clock.now();
    this.receive(p);
  }

  /** Sends what can go at once. */
  protected abstract start(): void;
  protected abstract receive(p: RinaPacket): void;
  /** A deadline of the queue passed. */
  protected abstract due(key: number): void;

  /** Fails the pass (the first failure wins). */
  fail(err: RinaError): void {
    if (this.finished) return;
    this.settle();
    this.reject(err);
  }

  protected finish(): void {
    if (this.finished) return;
    this.settle();
    this.resolve();
  }

  private settle(): void {
    this.finished = true;
    this.deadlines.dispose();
    this.cancelWatch?.();
  }

  /**
   * Every sender gives up after maxRetries retransmissions of at most the
   * longest wait; a member that waits longer than that for anything at all
   * waits for a peer that is gone.
   */
  private watch(): void {
    const limit = Math.max(1, this.ctx.maxRetries) * this.ctx.rtt.policy.maxTimeoutMs;
    const check = (): void => {
      this.cancelWatch = undefined;
      if (this.finished) return;
      const quiet = this.ctx.clock.now() - this.lastHeard;
      if (quiet >= limit) {
        return this.fail(new RinaError(RINA_ERROR_CODES.timeout, `nothing of this pass arrived for ${Math.round(quiet)} ms; check that ${this.memberText(this.position - 1)} (the predecessor) and every member of job ${this.ctx.jobId} are running, and that the INA ToRs are up and programmed for the job`));
      }
      this.cancelWatch = this.ctx.timers.schedule(limit - quiet, check);
    };
    this.cancelWatch = this.ctx.timers.schedule(limit, check);
  }

  protected memberAddress(position: number): SocketAddress {
    return this.ctx.members[mod(position, this.ringLength)]!.workers[0]!;
  }

  /** A full packet's buffer with its header written; values go at RINA_HEADER_LENGTH. */
  protected packet(fields: ItemFields): { buf: Buffer; view: DataView } {
    const buf = Buffer.alloc(rinaLength(this.layout.elementsPerPacket));
    this.writeHeader(buf, fields, this.layout.elementsPerPacket);
    return { buf, view: new DataView(buf.buffer, buf.byteOffset, buf.length) };
  }

  protected writeHeader(buf: Buffer, fields: ItemFields, elementCount: number, echo?: RinaPacket): void {
    const h = this.header;
    h.messageType = fields.messageType;
    h.phase = fields.phase;
    h.step = fields.step;
    h.segment = fields.segment;
    h.elementCount = elementCount;
    if (echo) {
      h.chunk = echo.chunk;
      h.slot = echo.slot;
      h.set = echo.set;
      h.exponent = echo.exponent;
    } else {
      // The set of the ToR round the packet goes into: a CONTRIBUTION's own, scatter-reduce data's next round.
      const round = fields.messageType === RinaMessageType.CONTRIBUTION ? fields.step : fields.phase === RinaPhase.SCATTER_REDUCE ? fields.step + 1 : 0;
      h.chunk = rinaChunkField(this.spec.epoch, fields.chunk);
      h.slot = this.layout.slot(fields.chunk);
      h.set = this.layout.set(round, fields.chunk);
      h.exponent = this.spec.exponentOf(fields.segment, fields.chunk);
    }
    encodeRinaHeader(buf, 0, h);
  }

  /** Acknowledges RING_DATA `p` to `to` (or, with `phase` and `step`, the RING_DATA of that step of p's chunk). */
  protected ack(to: SocketAddress, p: RinaPacket, phase: RinaPhase = p.phase, step = p.step): void {
    this.writeHeader(this.ackBuf, { messageType: RinaMessageType.ACK, phase, step, segment: p.segment, chunk: 0 }, 0, p);
    this.ctx.counters.acksSent++;
    this.send(to, this.ackBuf, RINA_HEADER_LENGTH);
  }

  protected send(to: SocketAddress, buf: Buffer, length = buf.length): void {
    const { transport, counters } = this.ctx;
    if (transport.sendTo(to, buf, length)) {
      counters.messagesSent++;
      return;
    }
    // Refused like a lost packet: its deadline retransmits it. A closed transport refuses all.
    if (transport.closed) this.fail(new RinaError(RINA_ERROR_CODES.unusable, `the transport ${transport.name} was closed during the call`));
  }

  /** The exponent field is the pass's for this chunk; otherwise the ring disagrees. */
  protected exponentMatches(p: RinaPacket, chunk: number): boolean {
    const want = this.spec.exponentOf(p.segment, chunk);
    if (p.exponent === want) return true;
    const what = want === RINA_EXPONENT_PASS ? 'the exponent pass' : `exponent ${want}`;
    this.fail(new RinaError(RINA_ERROR_CODES.badResult, `member ${p.senderRank} sent segment ${p.segment} chunk ${chunk} with exponent ${p.exponent} where this worker has ${what}; every member must run the same calls with tensors of the same length`));
    return false;
  }

  /** `what` went unanswered by `silent` (who should have answered it). */
  protected timeoutError(what: string, silent: string): RinaError {
    return new RinaError(
      RINA_ERROR_CODES.timeout,
      `${what} went unanswered after ${this.ctx.maxRetries} retransmissions: ${silent} stopped answering; check that every member of job ${this.ctx.jobId} is running and that the INA ToRs are up and programmed for it (a restarted ToR comes back empty until the controller reconciles it)`,
    );
  }

  /** "member 2 (INA rack, agent at 10.0.2.1:48913)", for messages. */
  protected memberText(position: number): string {
    const p = mod(position, this.ringLength);
    const m = this.ctx.members[p]!;
    return `member ${p} (${m.kind === 'rack' ? 'INA rack, agent' : 'worker'} at ${formatSocketAddress(m.workers[0]!)})`;
  }

  /** This rack's ToR, which answers its workers' CONTRIBUTIONs, for messages. */
  protected get torText(): string {
    return `the ToR of ${this.memberText(this.position)}, which answers a CONTRIBUTION with its round's result once the rack and the predecessor have sent theirs,`;
  }
}
