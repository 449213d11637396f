/**
 * A SwitchML worker: AllReduce through a switch that sums int32 values in its
 * registers (docs/wire.md §4; the per-call protocol is in switchml-operation.ts,
 * the numbers in quantisation.ts, the timeouts in retransmission.ts and
 * rtt-estimator.ts).
 *
 * API notes:
 * - `allreduce(data)` rejects with SWITCHML_NON_FINITE_INPUT when `data` holds
 *   NaN or ±Infinity, and with SWITCHML_TENSOR_TOO_LONG when its packets would
 *   overflow the 32-bit sequence number; in both cases before anything is sent
 *   (the other workers will then time out). Every finite float32 is accepted.
 * - Results are bit-identical on every worker, and each element is within
 *   `switchMlErrorBound` of the float64 sum of the inputs.
 * - A call that fails for any other reason (timeout, abort, a result no
 *   correct switch sends) leaves the worker unusable: the workers' slot sets
 *   may no longer agree with each other and the switch. Make a new worker, and
 *   have the controller reset the job's registers, or use another slot range.
 * - The worker listens on the transport from construction. `close()` stops the
 *   worker and detaches it, and closes the transport only with `closeTransport`
 *   (by default the caller owns the transport).
 *
 * What the switch relies on: each slot copy remembers its round (tsi and
 * epoch). A retransmission of the current round is told from a first
 * contribution by the worker's bit in the copy's seen bitmap; an old update
 * that arrives late, overtaken by a newer round of the same copy, is dropped
 * as stale instead of opening a spurious round (reference-switch.ts has the
 * rules, which test/e2e/switchml checks against p4/switchml.p4). Updates and
 * results may be lost, duplicated and reordered freely.
 */
import { moduleLogger } from '../../log/logger.js';
import { switchMlLength } from '../../wire/index.js';
import type { AllReduce, AllReduceCallOptions, AllReduceResult } from '../allreduce.js';
import { chunkExponents, ScaleTable } from './quantisation.js';
import { RttEstimator } from './rtt-estimator.js';
import { SWITCHML_ERROR_CODES, SwitchMlError } from './switchml-error.js';
import { SwitchMlOperation } from './switchml-operation.js';
import { resolveSwitchMlOptions, type ResolvedSwitchMlOptions, type SwitchMlWorkerOptions } from './switchml-options.js';
import type { SwitchMlStats } from './switchml-stats.js';

const log = moduleLogger('agent.switchml');
/** tsi is 32 bits: a call's chunks plus its window must fit. */
const MAX_PACKETS_PER_CALL = 0xffff_ffff;

export class SwitchMlWorker implements AllReduce<SwitchMlStats> {
  readonly rank: number;
  readonly worldSize: number;
  readonly options: ResolvedSwitchMlOptions;
  private readonly scales: ScaleTable;
  /** The RTO estimator: what it learnt about the path carries over to the next call. */
  private readonly rtt: RttEstimator;
  /** Per pool slot, the set its next packet uses; carried from call to call. */
  private readonly nextSet: Uint8Array;
  private readonly packets: Buffer[] = [];
  private readonly views: DataView[] = [];
  private epoch: number;
  private current: SwitchMlOperation | undefined;
  private broken: SwitchMlError | undefined;
  /** Datagrams that arrived between calls (late duplicates, mostly). */
  private idleDatagrams = 0;

  constructor(options: SwitchMlWorkerOptions) {
    this.options = resolveSwitchMlOptions(options);
    this.rank = this.options.workerId;
    this.worldSize = this.options.numWorkers;
    this.scales = new ScaleTable(this.options.numWorkers);
    this.rtt = new RttEstimator(this.options.timeoutMs, this.options.backoff);
    this.nextSet = new Uint8Array(this.options.poolSize);
    this.epoch = this.options.epoch;
    this.options.transport.onDatagram((buf, offset, length) => {
      if (this.current) this.current.receive(buf, offset, length);
      else this.idleDatagrams++;
    });
  }

  /** Datagrams received while no call was running. */
  get datagramsBetweenCalls(): number {
    return this.idleDatagrams;
  }

  async allreduce(data: Float32Array, call?: AllReduceCallOptions): Promise<AllReduceResult<SwitchMlStats>> {
    if (!(data instanceof Float32Array)) throw new TypeError('allreduce takes a Float32Array');
    if (this.broken) throw new SwitchMlError(SWITCHML_ERROR_CODES.unusable, `this worker cannot be used any more: ${this.broken.message}`, { cause: this.broken });
    if (this.current) throw new SwitchMlError(SWITCHML_ERROR_CODES.busy, 'another allreduce call on this worker is still running; calls are one at a time');
    const { elementsPerPacket, poolSize } = this.options;
    const chunks = Math.ceil(data.length / elementsPerPacket);
    if (chunks + Math.min(poolSize, chunks) > MAX_PACKETS_PER_CALL) {
      throw new SwitchMlError(SWITCHML_ERROR_CODES.tensorTooLong, `${data.length} elements need more than 2^32 packets of ${elementsPerPacket}; split the tensor`);
    }
    const exponents = new Int8Array(chunks);
    const bad = chunkExponents(data, elementsPerPacket, exponents);
    if (bad !== -1) {
      throw new SwitchMlError(SWITCHML_ERROR_CODES.nonFiniteInput, `element ${bad} is ${data[bad]}; SwitchML aggregates integers and cannot carry NaN or Infinity`);
    }
    this.ensurePackets(Math.min(poolSize, chunks));
    const operation = new SwitchMlOperation({
      options: this.options,
      scales: this.scales,
      rtt: this.rtt,
      nextSet: this.nextSet,
      packets: this.packets,
      views: this.views,
      data,
      chunkExponents: exponents,
      epoch: this.epoch,
      call,
    });
    this.epoch = (this.epoch + 1) & 0xff;
    this.current = operation;
    try {
      operation.start();
      return await operation.done;
    } catch (err) {
      if (err instanceof SwitchMlError) {
        this.broken ??= err;
        log.debug({ code: err.code, jobId: this.options.jobId, workerId: this.rank }, err.message);
      }
      throw err;
    } finally {
      this.current = undefined;
    }
  }

  /**
   * Stops a running call (it rejects with SWITCHML_UNUSABLE), detaches from the
   * transport and, with `closeTransport`, closes it. Idempotent.
   */
  async close(): Promise<void> {
    const closed = new SwitchMlError(SWITCHML_ERROR_CODES.unusable, 'the worker was closed');
    this.broken ??= closed;
    this.current?.fail(closed);
    this.options.transport.onDatagram(undefined);
    if (this.options.closeTransport) await this.options.transport.close();
  }

  /** One packet buffer per slot of the window, made on first need and reused by every call. */
  private ensurePackets(window: number): void {
    const length = switchMlLength(this.options.elementsPerPacket);
    for (let slot = this.packets.length; slot < window; slot++) {
      const buf = Buffer.alloc(length);
      this.packets.push(buf);
      this.views.push(new DataView(buf.buffer, buf.byteOffset, buf.length));
    }
  }
}
