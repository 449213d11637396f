/**
 * A Rina worker: ring AllReduce in which INA racks are single members
 * (docs/rina.md). The worker is an autonomous member, an INA rack's agent or
 * another worker of an INA rack, as its place in the ring says; one call's
 * protocol is in rina-call.ts and the passes.
 *
 * API notes:
 * - `allreduce(data)` rejects with RINA_NON_FINITE_INPUT when `data` holds NaN
 *   or ±Infinity, and RINA_TENSOR_TOO_LONG when a segment needs more than
 *   2^24 chunks, before anything is sent. Results are bit-identical on every
 *   worker and within `switchMlErrorBound` of the float64 sum of the inputs.
 * - Every member must make the same calls with tensors of the same length.
 * - A failed call (timeout, abort) leaves the worker unusable: the members'
 *   epochs may no longer agree. Make new workers.
 * - The worker listens on the transport from construction and acknowledges
 *   retransmissions of earlier passes even between calls; packets of the
 *   next pass that come before it starts (a peer finished the previous one
 *   first) are kept, up to EARLY_LIMIT, and handed to it when it starts; `drain` waits until
 *   the ring has been quiet for a while (a peer may still retransmit
 *   something whose ACK was lost), `close()` detaches it, and closes the
 *   transport only with `closeTransport`.
 */
import { moduleLogger } from '../../log/logger.js';
import { decodeRina, rinaChunkEpoch, RinaMessageType } from '../../wire/index.js';
import type { AllReduce, AllReduceCallOptions, AllReduceResult } from '../allreduce.js';
import { ScaleTable } from '../switchml/quantisation.js';
import { RttEstimator } from '../switchml/rtt-estimator.js';
import type { PassRun, RinaWorkerContext } from './pass-run.js';
import { runRinaCall } from './rina-call.js';
import { RINA_ERROR_CODES, RinaError } from './rina-error.js';
import { resolveRinaOptions, type ResolvedRinaOptions, type RinaWorkerOptions } from './rina-options.js';
import { MutableRinaCounters, type RinaStats } from './rina-stats.js';
import { StaleAcks } from './stale-acks.js';

const log = moduleLogger('agent.rina');
const NON_FINITE_BITS = 0x7f80_0000;
/** Packets of the next pass kept until it starts; more are dropped (their senders retransmit). */
const EARLY_LIMIT = 8192;

function firstNonFinite(data: Float32Array): number {
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  for (let i = 0; i < bits.length; i++) if ((bits[i]! & 0x7fff_ffff) >= NON_FINITE_BITS) return i;
  return -1;
}

export class RinaWorker implements AllReduce<RinaStats> {
  readonly rank: number;
  readonly worldSize: number;
  readonly options: ResolvedRinaOptions;
  private readonly scales: ScaleTable;
  private readonly rtt: RttEstimator;
  private readonly roundRtt: RttEstimator;
  /** The epoch of the next pass (or of the running one). */
  private epoch: number;
  private pass: PassRun | undefined;
  private ctx: RinaWorkerContext;
  private stale: StaleAcks;
  private busy = false;
  private broken: RinaError | undefined;
  private lastDatagramAt: number;
  private early: Buffer[] = [];

  constructor(options: RinaWorkerOptions) {
    this.options = resolveRinaOptions(options);
    const o = this.options;
    this.rank = o.rank;
    this.worldSize = o.worldSize;
    this.scales = new ScaleTable(o.worldSize);
    this.rtt = new RttEstimator(o.timeoutMs, o.backoff);
    this.roundRtt = new RttEstimator(o.timeoutMs, o.backoff);
    this.epoch = o.firstEpoch;
    this.ctx = this.context();
    this.stale = new StaleAcks(this.ctx);
    this.lastDatagramAt = o.clock.now();
    o.transport.onDatagram((buf, offset, length) => this.datagram(buf, offset, length));
  }

  async allreduce(data: Float32Array, call?: AllReduceCallOptions): Promise<AllReduceResult<RinaStats>> {
    if (!(data instanceof Float32Array)) throw new TypeError('allreduce takes a Float32Array');
    if (this.broken) throw new RinaError(RINA_ERROR_CODES.unusable, `this worker cannot be used any more: ${this.broken.message}`, { cause: this.broken });
    if (this.busy) throw new RinaError(RINA_ERROR_CODES.busy, 'another allreduce call on this worker is still running; calls are one at a time');
    const bad = firstNonFinite(data);
    if (bad !== -1) throw new RinaError(RINA_ERROR_CODES.nonFiniteInput, `element ${bad} is ${data[bad]}; Rina aggregates integers and cannot carry NaN or Infinity`);
    this.busy = true;
    this.ctx = this.context();
    this.stale = new StaleAcks(this.ctx);
    try {
      return await runRinaCall({
        options: this.options, ctx: this.ctx, scales: this.scales, data, epoch: this.epoch, call,
        running: (pass, epoch) => this.running(pass, epoch),
      });
    } catch (err) {
      if (err instanceof RinaError && err.code !== RINA_ERROR_CODES.tensorTooLong) {
        this.broken ??= err;
        log.debug({ code: err.code, jobId: this.options.jobId, rank: this.rank }, err.message);
      }
      throw err;
    } finally {
      this.busy = false;
      this.pass = undefined;
    }
  }

  /**
   * Resolves once no datagram has arrived for `quietMs` (acknowledging
   * retransmissions of earlier passes meanwhile), or after `maxMs` at most.
   */
  drain(quietMs: number, maxMs = 60_000): Promise<void> {
    const { clock, timers } = this.options;
    const until = clock.now() + maxMs;
    return new Promise((resolve) => {
      const check = (): void => {
        const now = clock.now();
        const quietAt = this.lastDatagramAt + quietMs;
        if (now >= quietAt || now >= until) return resolve();
        timers.schedule(Math.min(quietAt, until) - now, check);
      };
      check();
    });
  }

  /** Stops a running call (it rejects with RINA_UNUSABLE), detaches from the transport and, with `closeTransport`, closes it. Idempotent. */
  async close(): Promise<void> {
    const closed = new RinaError(RINA_ERROR_CODES.unusable, 'the worker was closed');
    this.broken ??= closed;
    this.pass?.fail(closed);
    this.options.transport.onDatagram(undefined);
    if (this.options.closeTransport) await this.options.transport.close();
  }

  private running(pass: PassRun | undefined, epoch: number): void {
    this.pass = pass;
    this.epoch = epoch;
    if (pass === undefined || this.early.length === 0) return;
    const early = this.early;
    this.early = [];
    for (const buf of early) this.datagram(buf, 0, buf.length, false);
  }

  private context(): RinaWorkerContext {
    const o = this.options;
    return {
      jobId: o.jobId, members: o.ring, place: o.place, contributionTarget: o.contributionTarget, transport: o.transport, clock: o.clock, timers: o.timers,
      rtt: this.rtt, roundRtt: this.roundRtt, maxRetries: o.maxRetries, counters: new MutableRinaCounters(),
    };
  }

  private datagram(buf: Buffer, offset: number, length: number, arrived = true): void {
    const counters = this.ctx.counters;
    if (arrived) {
      counters.messagesReceived++;
      this.lastDatagramAt = this.options.clock.now();
    }
    const p = decodeRina(buf, offset, offset + length);
    // An ACK has no values; data has exactly the job's count (anything else cannot be placed).
    if (!p.ok || p.jobId !== this.options.jobId || p.elementCount !== (p.messageType === RinaMessageType.ACK ? 0 : this.options.elementsPerPacket)) {
      counters.ignored++;
      return;
    }
    const age = (this.epoch - rinaChunkEpoch(p.chunk)) & 0xff;
    if (age === 0 && this.pass) this.pass.deliver(p);
    else if ((age === 0 || age === 255) && arrived && this.early.length < EARLY_LIMIT) this.early.push(Buffer.from(buf.subarray(offset, offset + length)));
    else if (age === 0 || age >= 128 || !this.stale.answer(p)) counters.ignored++;
  }
}
