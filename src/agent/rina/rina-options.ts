/**
 * A Rina worker's options, defaults and checks. The job constants (job id,
 * ring, pool size, values per packet, first epoch) must be the same on every
 * member and match the INA ToRs' programs and entries; the worker's place
 * comes from the plan. Out-of-range values are RangeErrors; a bad ring is
 * RINA_BAD_CONFIG (it usually comes from user input).
 *
 * Timing as the ATP worker's (atp-options.ts): on loopback a first timeout
 * of 20 ms, then the measured RTO within 20 ms .. 1 s; Mininet starts at
 * 50 ms. A packet retransmitted 30 times without its answer fails the call
 * (about 26 s of silence on loopback).
 */
import { RINA_HEADER_LENGTH } from '../../wire/index.js';
import type { RetransmissionPolicy } from '../switchml/rtt-estimator.js';
import { REAL_CLOCK, REAL_TIMERS, type AgentClock, type AgentTimers } from '../time.js';
import type { AddressedTransport, SocketAddress } from '../transport/index.js';
import { checkRing, roleOf, worldSizeOf, type RinaMember, type RinaPlace, type RinaRole } from './ring-config.js';

export const RINA_DEFAULT_ELEMENTS = 64;
/** Slots at a ToR (the 15-bit slot field). */
export const RINA_MAX_POOL = 32768;

export interface RinaTiming {
  readonly timeoutMs: number;
  readonly backoff: RetransmissionPolicy;
  readonly maxRetries: number;
}

export const RINA_LOOPBACK_TIMING: RinaTiming = Object.freeze({
  timeoutMs: 20,
  backoff: Object.freeze({ factor: 2, minTimeoutMs: 20, maxTimeoutMs: 1000 }),
  maxRetries: 30,
});

export const RINA_MININET_TIMING: RinaTiming = Object.freeze({
  timeoutMs: 50,
  backoff: Object.freeze({ factor: 2, minTimeoutMs: 10, maxTimeoutMs: 2000 }),
  maxRetries: 30,
});

export interface RinaWorkerOptions {
  /** Sends to the ring's members by address; the worker attaches itself as the listener. */
  readonly transport: AddressedTransport;
  readonly jobId: number;
  /** This worker's rank in the job (the AllReduce API's). */
  readonly rank: number;
  /** The ring, in order (ring-config.ts). */
  readonly ring: readonly RinaMember[];
  readonly place: RinaPlace;
  /**
   * An INA rack's agent: where it sends its own CONTRIBUTIONs, its ToR (which takes every CONTRIBUTION of the
   * job whatever the destination). Default: the agent's own address, which only works where every datagram
   * crosses the ToR (UDP wires); over the kernel's UDP a datagram to the host's own address never leaves it.
   */
  readonly torAddress?: SocketAddress;
  /** Slots per INA ToR for the job (its pool size), the same everywhere: it fixes the window. */
  readonly poolSize: number;
  /** Values per packet, as rina_tor.p4 was compiled (default 64). */
  readonly elementsPerPacket?: number;
  /** The epoch of the first pass (default 1); each pass counts it up by one, mod 256. All members must agree. */
  readonly firstEpoch?: number;
  readonly timeoutMs?: number;
  readonly backoff?: Partial<RetransmissionPolicy>;
  readonly maxRetries?: number;
  /** Time (default: the process's clock and Node's timers; tests pass virtual time). */
  readonly clock?: AgentClock;
  readonly timers?: AgentTimers;
  /** Let close() close the transport too (default false). */
  readonly closeTransport?: boolean;
}

export interface ResolvedRinaOptions {
  readonly transport: AddressedTransport;
  readonly jobId: number;
  readonly rank: number;
  readonly worldSize: number;
  readonly ring: readonly RinaMember[];
  readonly place: RinaPlace;
  readonly role: RinaRole;
  /** Where this worker's CONTRIBUTIONs go: a rack member's agent, or an agent's ToR. */
  readonly contributionTarget: SocketAddress;
  readonly poolSize: number;
  readonly elementsPerPacket: number;
  readonly firstEpoch: number;
  readonly timeoutMs: number;
  readonly backoff: RetransmissionPolicy;
  readonly maxRetries: number;
  readonly clock: AgentClock;
  readonly timers: AgentTimers;
  readonly closeTransport: boolean;
}

function integerIn(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer in ${min}..${max}, not ${value}`);
  return value;
}

function positiveMs(value: number, name: string): number {
  if (!(value > 0 && value <= 2_147_483_647)) throw new RangeError(`${name} must be a positive number of milliseconds, not ${value}`);
  return value;
}

export function resolveRinaOptions(options: RinaWorkerOptions): ResolvedRinaOptions {
  if (typeof options.transport?.sendTo !== 'function') throw new TypeError('transport must be an AddressedTransport');
  const ring = checkRing(options.ring);
  const role = roleOf(ring, options.place);
  const worldSize = worldSizeOf(ring);
  const elementsPerPacket = integerIn(options.elementsPerPacket ?? RINA_DEFAULT_ELEMENTS, 1, 0x3fff, 'elementsPerPacket');
  const length = RINA_HEADER_LENGTH + 4 * elementsPerPacket;
  if (length > options.transport.maxPayload) throw new RangeError(`${elementsPerPacket} values per packet need ${length} bytes; the transport carries at most ${options.transport.maxPayload}`);
  const d = RINA_LOOPBACK_TIMING;
  const backoff = {
    factor: options.backoff?.factor ?? d.backoff.factor,
    minTimeoutMs: positiveMs(options.backoff?.minTimeoutMs ?? d.backoff.minTimeoutMs, 'backoff.minTimeoutMs'),
    maxTimeoutMs: positiveMs(options.backoff?.maxTimeoutMs ?? d.backoff.maxTimeoutMs, 'backoff.maxTimeoutMs'),
  };
  if (!(backoff.factor >= 1 && backoff.factor <= 16)) throw new RangeError(`backoff.factor must be in 1..16, not ${backoff.factor}`);
  if (backoff.minTimeoutMs > backoff.maxTimeoutMs) throw new RangeError(`backoff.minTimeoutMs (${backoff.minTimeoutMs}) must not exceed backoff.maxTimeoutMs (${backoff.maxTimeoutMs})`);
  return {
    transport: options.transport,
    jobId: integerIn(options.jobId, 0, 0xffff, 'jobId'),
    rank: integerIn(options.rank, 0, worldSize - 1, 'rank'),
    worldSize,
    ring,
    place: options.place,
    role,
    contributionTarget: (role === 'agent' ? options.torAddress : undefined) ?? ring[options.place.position]!.workers[0]!,
    poolSize: integerIn(options.poolSize, 1, RINA_MAX_POOL, 'poolSize'),
    elementsPerPacket,
    firstEpoch: integerIn(options.firstEpoch ?? 1, 0, 255, 'firstEpoch'),
    timeoutMs: positiveMs(options.timeoutMs ?? d.timeoutMs, 'timeoutMs'),
    backoff,
    maxRetries: integerIn(options.maxRetries ?? d.maxRetries, 0, 1_000_000, 'maxRetries'),
    clock: options.clock ?? REAL_CLOCK,
    timers: options.timers ?? REAL_TIMERS,
    closeTransport: options.closeTransport ?? false,
  };
}
