/**
 * The ATP worker's options, defaults and checks. The job constants (job id,
 * worker count, pool size, values per packet, window positions, value range)
 * must be the same on every worker and the PS; the worker's place in the
 * levels (its bitmap bits and fan-ins, docs/atp.md "Roles and levels") comes
 * from the job layout (atp-job-layout.ts) or the controller. Out-of-range
 * values are RangeErrors; the command line checks user input first.
 *
 * Timing defaults follow the SwitchML worker's (switchml-options.ts): on
 * loopback the first timeout is 20 ms, then the measured RTO within 20 ms ..
 * 1 s. In ATP a timeout is also how an aggregate stuck in a switch is flushed
 * (another rack collided, a packet overflowed), so the floor bounds the cost
 * of each such sequence. Mininet timing starts at 50 ms with a 10 ms floor.
 */
import { ATP_HEADER_LENGTH } from '../../wire/index.js';
import type { RetransmissionPolicy } from '../switchml/rtt-estimator.js';
import { REAL_CLOCK, REAL_TIMERS, type AgentClock, type AgentTimers } from '../time.js';
import type { CeMarkSource, DatagramTransport } from '../transport/index.js';
import { ATP_DEFAULT_ELEMENTS, ATP_DEFAULT_WINDOW, ATP_MAX_CONTRIBUTORS, ATP_MAX_POOL, ATP_MAX_WINDOW, integerIn, requireWorldSize } from './atp-limits.js';
import { ATP_DEFAULT_VALUE_RANGE } from './atp-scale.js';

export interface AtpTiming {
  /** The timeout before the first RTT sample, in ms. */
  readonly timeoutMs: number;
  readonly backoff: RetransmissionPolicy;
  /** Resends of one packet without an ACK before the call fails. */
  readonly maxRetries: number;
}

export const ATP_LOOPBACK_TIMING: AtpTiming = Object.freeze({
  timeoutMs: 20,
  backoff: Object.freeze({ factor: 2, minTimeoutMs: 20, maxTimeoutMs: 1000 }),
  maxRetries: 30,
});

export const ATP_MININET_TIMING: AtpTiming = Object.freeze({
  timeoutMs: 50,
  backoff: Object.freeze({ factor: 2, minTimeoutMs: 10, maxTimeoutMs: 2000 }),
  maxRetries: 30,
});

/** The window a call starts from when none is given (see congestion-window.ts). */
export const ATP_DEFAULT_INITIAL_WINDOW = 16;

/** Where a worker sits in the job's levels (docs/atp.md). */
export interface AtpPlacement {
  /** Its bit in `bitmap0` (its rank in its rack), or undefined when its ToR does not aggregate for the job. */
  readonly bitmap0Bit: number | undefined;
  /** Its rack's bit in `bitmap1`, or its own in a rack whose ToR does not aggregate. */
  readonly bitmap1Bit: number;
  /** The job's workers in its rack when the ToR aggregates, else 0. */
  readonly fanIn0: number;
  /** Level-1 contributors: aggregating racks plus workers of the other racks. */
  readonly fanIn1: number;
}

export interface AtpWorkerOptions extends AtpPlacement {
  /** Sends to the PS (through whatever switches lie on the way); the worker attaches itself as its listener. */
  readonly transport: DatagramTransport;
  /**
   * Where CE marks on the IPv4 headers of the ACKs come from, if anywhere (a
   * UdpWireTransport, or a kernel UDP transport opened with `observeCe`; often
   * `transport` itself). Each is a congestion mark like the ecn bit.
   */
  readonly ceMarks?: CeMarkSource;
  /** 1..65535: 0 is not used (an owner tag of 0 marks a free aggregator, docs/atp.md). */
  readonly jobId: number;
  /** This worker's rank, 0..worldSize−1 (the AllReduce API's; the switch knows only the bitmap bits). */
  readonly rank: number;
  /** Workers in the job: fixes the scale. */
  readonly worldSize: number;
  /** Aggregators in the switches' shared pool (1..65536). */
  readonly poolSize: number;
  /**
   * The pool's first aggregator (default 0): the job hashes over poolBase..poolBase+poolSize−1,
   * so that jobs can be given disjoint parts of one switch's aggregators (a static split). The PS must agree.
   */
  readonly poolBase?: number;
  /** Values per packet, as the P4 program was compiled (default 64). */
  readonly elementsPerPacket?: number;
  /** Window positions W (default 100): also the largest window. */
  readonly maxWindow?: number;
  /** The window a worker starts with (default min(16, W)); it then follows ECN marks. */
  readonly initialWindow?: number;
  /** The value range R of the job's scale (default 213, ATP's); atp-scale.ts. */
  readonly valueRange?: number;
  /** The first call's first sequence number (default 0); later calls run on. All workers and the PS must agree. */
  readonly firstSequence?: number;
  readonly timeoutMs?: number;
  readonly backoff?: Partial<RetransmissionPolicy>;
  readonly maxRetries?: number;
  /** Time (default: the process's clock and Node's timers; tests pass virtual time). */
  readonly clock?: AgentClock;
  readonly timers?: AgentTimers;
  /** Let close() close the transport too (default false). */
  readonly closeTransport?: boolean;
}

export interface ResolvedAtpOptions extends AtpPlacement {
  readonly transport: DatagramTransport;
  readonly ceMarks: CeMarkSource | undefined;
  readonly jobId: number;
  readonly rank: number;
  readonly worldSize: number;
  readonly poolSize: number;
  readonly poolBase: number;
  readonly elementsPerPacket: number;
  readonly maxWindow: number;
  readonly initialWindow: number;
  readonly valueRange: number;
  readonly firstSequence: number;
  readonly timeoutMs: number;
  readonly backoff: RetransmissionPolicy;
  readonly maxRetries: number;
  readonly clock: AgentClock;
  readonly timers: AgentTimers;
  readonly closeTransport: boolean;
}

function positiveMs(value: number, name: string): number {
  if (!(value > 0 && value <= 2_147_483_647)) throw new RangeError(`${name} must be a positive number of milliseconds, not ${value}`);
  return value;
}

/** Checks the bits and fan-ins against each other (docs/atp.md, "Roles and levels"). */
export function checkPlacement(p: AtpPlacement): AtpPlacement {
  integerIn(p.fanIn1, 1, ATP_MAX_CONTRIBUTORS, 'fanIn1');
  integerIn(p.bitmap1Bit, 0, p.fanIn1 - 1, 'bitmap1Bit');
  if (p.bitmap0Bit === undefined) {
    if (p.fanIn0 !== 0) throw new RangeError(`fanIn0 must be 0 for a worker whose ToR does not aggregate, not ${p.fanIn0}`);
  } else {
    integerIn(p.fanIn0, 1, ATP_MAX_CONTRIBUTORS, 'fanIn0');
    integerIn(p.bitmap0Bit, 0, p.fanIn0 - 1, 'bitmap0Bit');
  }
  return { bitmap0Bit: p.bitmap0Bit, bitmap1Bit: p.bitmap1Bit, fanIn0: p.fanIn0, fanIn1: p.fanIn1 };
}

/** Fills in defaults and checks every option; throws RangeError/TypeError. */
export function resolveAtpOptions(options: AtpWorkerOptions): ResolvedAtpOptions {
  if (typeof options.transport?.send !== 'function') throw new TypeError('transport must be a DatagramTransport');
  const worldSize = requireWorldSize(options.worldSize);
  const elementsPerPacket = integerIn(options.elementsPerPacket ?? ATP_DEFAULT_ELEMENTS, 1, 0x3fff, 'elementsPerPacket');
  const length = ATP_HEADER_LENGTH + 4 * elementsPerPacket;
  if (length > options.transport.maxPayload) throw new RangeError(`${elementsPerPacket} values per packet need ${length} bytes; the transport carries at most ${options.transport.maxPayload}`);
  const maxWindow = integerIn(options.maxWindow ?? ATP_DEFAULT_WINDOW, 1, ATP_MAX_WINDOW, 'maxWindow');
  const defaults = ATP_LOOPBACK_TIMING;
  const backoff = {
    factor: options.backoff?.factor ?? defaults.backoff.factor,
    minTimeoutMs: options.backoff?.minTimeoutMs ?? defaults.backoff.minTimeoutMs,
    maxTimeoutMs: options.backoff?.maxTimeoutMs ?? defaults.backoff.maxTimeoutMs,
  };
  if (!(backoff.factor >= 1 && backoff.factor <= 16)) throw new RangeError(`backoff.factor must be in 1..16, not ${backoff.factor}`);
  positiveMs(backoff.minTimeoutMs, 'backoff.minTimeoutMs');
  positiveMs(backoff.maxTimeoutMs, 'backoff.maxTimeoutMs');
  if (backoff.minTimeoutMs > backoff.maxTimeoutMs) {
    if (options.backoff?.minTimeoutMs !== undefined) throw new RangeError(`backoff.minTimeoutMs (${backoff.minTimeoutMs}) must not exceed backoff.maxTimeoutMs (${backoff.maxTimeoutMs})`);
    backoff.minTimeoutMs = backoff.maxTimeoutMs;
  }
  const valueRange = options.valueRange ?? ATP_DEFAULT_VALUE_RANGE;
  if (!(valueRange > 0 && Number.isFinite(valueRange))) throw new RangeError(`valueRange must be a positive finite number, not ${valueRange}`);
  return {
    ...checkPlacement(options),
    transport: options.transport,
    ceMarks: options.ceMarks,
    jobId: integerIn(options.jobId, 1, 0xffff, 'jobId'),
    rank: integerIn(options.rank, 0, worldSize - 1, 'rank'),
    worldSize,
    poolSize: integerIn(options.poolSize, 1, ATP_MAX_POOL, 'poolSize'),
    poolBase: integerIn(options.poolBase ?? 0, 0, ATP_MAX_POOL - options.poolSize, 'poolBase'),
    elementsPerPacket,
    maxWindow,
    initialWindow: integerIn(options.initialWindow ?? Math.min(ATP_DEFAULT_INITIAL_WINDOW, maxWindow), 1, maxWindow, 'initialWindow'),
    valueRange,
    firstSequence: integerIn(options.firstSequence ?? 0, 0, 0xffff, 'firstSequence'),
    timeoutMs: positiveMs(options.timeoutMs ?? defaults.timeoutMs, 'timeoutMs'),
    backoff,
    maxRetries: integerIn(options.maxRetries ?? defaults.maxRetries, 0, 1_000_000, 'maxRetries'),
    clock: options.clock ?? REAL_CLOCK,
    timers: options.timers ?? REAL_TIMERS,
    closeTransport: options.closeTransport ?? false,
  };
}
