/**
 * An ATP worker: AllReduce through switches that share one pool of
 * aggregators among jobs, with a parameter server (PS) that aggregates
 * whatever the switches could not (docs/atp.md; one call's protocol is in
 * atp-operation.ts, the numbers in atp-scale.ts, the window in
 * congestion-window.ts).
 *
 * API notes:
 * - `allreduce(data)` rejects with ATP_NON_FINITE_INPUT when `data` holds NaN
 *   or ±Infinity, before anything is sent. Every finite float32 is accepted:
 *   values past the job's range go to the PS as floats.
 * - Results are bit-identical on every worker (all take the PS's ACK) and
 *   within `atpErrorBound` of the float64 sum of the inputs.
 * - A failed call (timeout, abort) leaves the worker unusable: the workers'
 *   sequence numbers may no longer agree. Make new workers and a new PS.
 * - The worker listens on the transport from construction; `close()` detaches
 *   it, and closes the transport only with `closeTransport`.
 */
import { moduleLogger } from '../../log/logger.js';
import { ATP_HEADER_LENGTH, decodeAtp } from '../../wire/index.js';
import type { AllReduce, AllReduceCallOptions, AllReduceResult } from '../allreduce.js';
import { RttEstimator } from '../switchml/rtt-estimator.js';
import { ATP_ERROR_CODES, AtpError } from './atp-error.js';
import { AtpOperation, type AtpWorkerState } from './atp-operation.js';
import { resolveAtpOptions, type AtpWorkerOptions, type ResolvedAtpOptions } from './atp-options.js';
import { AtpScale } from './atp-scale.js';
import type { AtpStats } from './atp-stats.js';
import { initialAggregatorIndex } from './aggregator-hash.js';
import { CongestionWindow } from './congestion-window.js';
import { markSentSequence } from './sent-sequence.js';

const log = moduleLogger('agent.atp');
const NON_FINITE_BITS = 0x7f80_0000;

/** The index of the first NaN or ±Infinity in `data`, or −1. */
function firstNonFinite(data: Float32Array): number {
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  for (let i = 0; i < bits.length; i++) if ((bits[i]! & 0x7fff_ffff) >= NON_FINITE_BITS) return i;
  return -1;
}

export class AtpWorker implements AllReduce<AtpStats> {
  readonly rank: number;
  readonly worldSize: number;
  readonly options: ResolvedAtpOptions;
  readonly scale: AtpScale;
  private readonly state: AtpWorkerState;
  private current: AtpOperation | undefined;
  private broken: AtpError | undefined;
  private idleDatagrams = 0;

  constructor(options: AtpWorkerOptions) {
    this.options = resolveAtpOptions(options);
    const o = this.options;
    this.rank = o.rank;
    this.worldSize = o.worldSize;
    this.scale = new AtpScale(o.worldSize, o.valueRange);
    const aggregatorOf = new Uint16Array(o.maxWindow);
    for (let p = 0; p < o.maxWindow; p++) aggregatorOf[p] = o.poolBase + initialAggregatorIndex(o.jobId, p, o.poolSize);
    const packets: Buffer[] = [];
    const views: DataView[] = [];
    for (let p = 0; p < o.maxWindow; p++) {
      const buf = Buffer.alloc(ATP_HEADER_LENGTH + 4 * o.elementsPerPacket);
      packets.push(buf);
      views.push(new DataView(buf.buffer, buf.byteOffset, buf.length));
    }
    this.state = {
      nextSequence: o.firstSequence,
      aggregatorOf,
      window: new CongestionWindow(o.initialWindow, 1, o.maxWindow),
      highestSent: o.firstSequence - 1,
      ipCeMarks: 0,
      rtt: new RttEstimator(o.timeoutMs, o.backoff),
      packets,
      views,
    };
    o.transport.onDatagram((buf, offset, length) => {
      if (this.current) this.current.receive(buf, offset, length);
      else this.idleDatagrams++;
    });
    o.ceMarks?.onCeMark((buf, offset, length) => this.ipCeMark(buf, offset, length));
  }

  /**
   * An ACK of this job arrived with CE in its IPv4 header: a mark on its
   * sequence, whether the ACK itself has been handled yet or not, during a
   * call or after it (the window rule makes the order irrelevant).
   */
  private ipCeMark(buf: Buffer, offset: number, length: number): void {
    const ack = decodeAtp(buf, offset, offset + length);
    if (!ack.ok || !ack.isAck || ack.jobId !== this.options.jobId) return;
    const s = this.state;
    if (markSentSequence(s.window, ack.sequenceNumber, s.highestSent, this.options.firstSequence)) s.ipCeMarks++;
  }

  /** Datagrams received while no call was running (late duplicate ACKs, mostly). */
  get datagramsBetweenCalls(): number {
    return this.idleDatagrams;
  }

  /** The aggregator each window position's next packet uses (a copy). */
  get aggregators(): Uint16Array {
    return this.state.aggregatorOf.slice();
  }

  async allreduce(data: Float32Array, call?: AllReduceCallOptions): Promise<AllReduceResult<AtpStats>> {
    if (!(data instanceof Float32Array)) throw new TypeError('allreduce takes a Float32Array');
    if (this.broken) throw new AtpError(ATP_ERROR_CODES.unusable, `this worker cannot be used any more: ${this.broken.message}`, { cause: this.broken });
    if (this.current) throw new AtpError(ATP_ERROR_CODES.busy, 'another allreduce call on this worker is still running; calls are one at a time');
    const bad = firstNonFinite(data);
    if (bad !== -1) throw new AtpError(ATP_ERROR_CODES.nonFiniteInput, `element ${bad} is ${data[bad]}; ATP cannot sum NaN or Infinity`);
    const operation = new AtpOperation({ options: this.options, scale: this.scale, state: this.state, data, call });
    this.state.nextSequence += operation.packets;
    this.current = operation;
    try {
      operation.start();
      return await operation.done;
    } catch (err) {
      if (err instanceof AtpError) {
        this.broken ??= err;
        log.debug({ code: err.code, jobId: this.options.jobId, rank: this.rank }, err.message);
      }
      throw err;
    } finally {
      this.current = undefined;
    }
  }

  /** Stops a running call (it rejects with ATP_UNUSABLE), detaches from the transport and, with `closeTransport`, closes it. Idempotent. */
  async close(): Promise<void> {
    const closed = new AtpError(ATP_ERROR_CODES.unusable, 'the worker was closed');
    this.broken ??= closed;
    this.current?.fail(closed);
    this.options.transport.onDatagram(undefined);
    this.options.ceMarks?.onCeMark(undefined);
    if (this.options.closeTransport) await this.options.transport.close();
  }
}
