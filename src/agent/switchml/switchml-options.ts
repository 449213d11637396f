/**
 * The SwitchML worker's options, their defaults and their checks. Options
 * come from the job spec (job id, worker id, worker count, pool size,
 * elements per packet: all workers and the switch must agree on them) and
 * from the deployment (timeouts). Out-of-range values are programming errors
 * (RangeError); the command line checks user input first.
 *
 * Timing defaults, and why. The timeout adapts to the measured round trip
 * (RFC 6298, rtt-estimator.ts); these set where it starts and its bounds:
 * - **Loopback** (`SWITCHML_LOOPBACK_TIMING`, the default): the switch is the
 *   JavaScript emulator on the same machine. A window of W packets from each
 *   of n workers queues in it: warm, at ~20k packets/s, W = 32 and n = 4 take
 *   ~6 ms; but the first packets meet a switch whose code V8 has not yet
 *   optimised (~6k packets/s at 256 values), and a first timeout of 20 ms
 *   sent ~230 spurious retransmissions in every demo's first few hundred ms
 *   (0 with 200 ms). The first timeout, which lasts only until the first
 *   round trip is measured, is therefore 200 ms. The floor, 20 ms, stays above a garbage-collection pause or a preemption
 *   of the switch on a busy machine, which the variance of a calm path would
 *   not cover (measured: a 5 ms floor made the default demo retransmit ~10k
 *   packets, 20 ms ~300, at the same speed). SwitchML's fixed 10 ms is tuned
 *   for a Tofino and DPDK hosts.
 * - **Mininet** (`SWITCHML_MININET_TIMING`): veths and network namespaces add
 *   latency, and BMv2 forwards far fewer packets per second than the emulator
 *   on loopback: a first timeout of 50 ms, a floor of 10 ms, a higher ceiling.
 * From a packet's third retransmission on (`recoverAfter` 2), it goes as a
 * RECOVERY_UPDATE: a slot copy blocked by a stray round is then taken over
 * after ~140 ms (loopback) instead of failing the call.
 * Both give up on a packet after 30 retransmissions: with the per-packet
 * back-off that is about 29 s (loopback) or 53 s (Mininet) without any answer.
 */
import { MAX_POOL_SLOTS, SWITCHML_DEFAULT_ELEMENTS, SWITCHML_MAX_WORKERS, switchMlLength } from '../../wire/index.js';
import type { DatagramTransport } from '../transport/index.js';
import type { RetransmissionPolicy } from './rtt-estimator.js';

/** How the timeout starts, grows and is bounded (rtt-estimator.ts). */
export type SwitchMlBackoff = RetransmissionPolicy;

export interface SwitchMlTiming {
  /** The timeout before the first RTT sample, in ms. */
  readonly timeoutMs: number;
  readonly backoff: SwitchMlBackoff;
  /** Retransmissions of one packet without a result before the call fails. */
  readonly maxRetries: number;
  /** Retransmissions of one packet after which the next ones go as RECOVERY_UPDATEs. */
  readonly recoverAfter: number;
}

export const SWITCHML_LOOPBACK_TIMING: SwitchMlTiming = Object.freeze({
  timeoutMs: 200,
  backoff: Object.freeze({ factor: 2, minTimeoutMs: 20, maxTimeoutMs: 1000 }),
  maxRetries: 30,
  recoverAfter: 2,
});

export const SWITCHML_MININET_TIMING: SwitchMlTiming = Object.freeze({
  timeoutMs: 50,
  backoff: Object.freeze({ factor: 2, minTimeoutMs: 10, maxTimeoutMs: 2000 }),
  maxRetries: 30,
  recoverAfter: 2,
});

export interface SwitchMlWorkerOptions {
  /** How packets reach the switch. The worker attaches itself as the transport's listener. */
  readonly transport: DatagramTransport;
  /** The job number the controller gave the job (0..65535). */
  readonly jobId: number;
  /** This worker's id in the job, 0..numWorkers−1 (its bit in the switch's seen bitmap); also its rank. */
  readonly workerId: number;
  /** Workers in the job, 1..32 (the bitmap's width). */
  readonly numWorkers: number;
  /** Slots the controller gave the job; also the window of outstanding packets (1..32768). */
  readonly poolSize: number;
  /** Values per packet, as the P4 program was compiled (default 64). */
  readonly elementsPerPacket?: number;
  /** The timeout before the first RTT sample, in ms (default: loopback timing); then it follows the measured round trip. */
  readonly timeoutMs?: number;
  /** The timeout's back-off and bounds (default: loopback timing); fields left out take the default. */
  readonly backoff?: Partial<SwitchMlBackoff>;
  /** Retransmissions of one packet before the call fails (default 30). */
  readonly maxRetries?: number;
  /**
   * From the retransmission after this many of one packet (default 2), the
   * worker sends it as a RECOVERY_UPDATE, which may take over a slot copy that
   * a stray or forged update left filling another round. 0: every
   * retransmission is one.
   */
  readonly recoverAfter?: number;
  /** The epoch of the first call (0..255, default 0); each call uses the next, mod 256. All workers must start alike. */
  readonly epoch?: number;
  /** Let the worker's close() close the transport too (default false: the caller owns it). */
  readonly closeTransport?: boolean;
}

export interface ResolvedSwitchMlOptions {
  readonly transport: DatagramTransport;
  readonly jobId: number;
  readonly workerId: number;
  readonly numWorkers: number;
  readonly poolSize: number;
  readonly elementsPerPacket: number;
  readonly timeoutMs: number;
  readonly backoff: SwitchMlBackoff;
  readonly maxRetries: number;
  readonly recoverAfter: number;
  readonly epoch: number;
  readonly closeTransport: boolean;
}

function integerIn(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer in ${min}..${max}, not ${value}`);
  return value;
}

function positive(value: number, name: string): number {
  if (!(value > 0 && value <= 2_147_483_647)) throw new RangeError(`${name} must be a positive number of milliseconds, not ${value}`);
  return value;
}

/** Fills in defaults and checks every option; throws RangeError/TypeError. */
export function resolveSwitchMlOptions(options: SwitchMlWorkerOptions): ResolvedSwitchMlOptions {
  if (typeof options.transport?.send !== 'function') throw new TypeError('transport must be a DatagramTransport');
  const numWorkers = integerIn(options.numWorkers, 1, SWITCHML_MAX_WORKERS, 'numWorkers');
  const elementsPerPacket = integerIn(options.elementsPerPacket ?? SWITCHML_DEFAULT_ELEMENTS, 1, 0xffff, 'elementsPerPacket');
  if (switchMlLength(elementsPerPacket) > options.transport.maxPayload) {
    throw new RangeError(`${elementsPerPacket} values per packet need ${switchMlLength(elementsPerPacket)} bytes; the transport carries at most ${options.transport.maxPayload}`);
  }
  const defaults = SWITCHML_LOOPBACK_TIMING;
  const backoff: { -readonly [K in keyof SwitchMlBackoff]: SwitchMlBackoff[K] } = {
    factor: options.backoff?.factor ?? defaults.backoff.factor,
    minTimeoutMs: options.backoff?.minTimeoutMs ?? defaults.backoff.minTimeoutMs,
    maxTimeoutMs: options.backoff?.maxTimeoutMs ?? defaults.backoff.maxTimeoutMs,
  };
  if (!(backoff.factor >= 1 && backoff.factor <= 16)) throw new RangeError(`backoff.factor must be in 1..16, not ${backoff.factor}`);
  positive(backoff.maxTimeoutMs, 'backoff.maxTimeoutMs');
  positive(backoff.minTimeoutMs, 'backoff.minTimeoutMs');
  if (backoff.minTimeoutMs > backoff.maxTimeoutMs) {
    // A caller that lowers only the ceiling (tests, fast paths) means the floor to follow it.
    if (options.backoff?.minTimeoutMs !== undefined) throw new RangeError(`backoff.minTimeoutMs (${backoff.minTimeoutMs}) must not exceed backoff.maxTimeoutMs (${backoff.maxTimeoutMs})`);
    backoff.minTimeoutMs = backoff.maxTimeoutMs;
  }
  return {
    transport: options.transport,
    jobId: integerIn(options.jobId, 0, 0xffff, 'jobId'),
    workerId: integerIn(options.workerId, 0, numWorkers - 1, 'workerId'),
    numWorkers,
    poolSize: integerIn(options.poolSize, 1, MAX_POOL_SLOTS, 'poolSize'),
    elementsPerPacket,
    timeoutMs: positive(options.timeoutMs ?? defaults.timeoutMs, 'timeoutMs'),
    backoff,
    maxRetries: integerIn(options.maxRetries ?? defaults.maxRetries, 0, 1_000_000, 'maxRetries'),
    recoverAfter: integerIn(options.recoverAfter ?? defaults.recoverAfter, 0, 1_000_000, 'recoverAfter'),
    epoch: integerIn(options.epoch ?? 0, 0, 255, 'epoch'),
    closeTransport: options.closeTransport ?? false,
  };
}
