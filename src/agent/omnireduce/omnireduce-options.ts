/**
 * An OmniReduce worker's options, checked once: the job (rank, workers,
 * block size, zero threshold), where each slot's aggregator is, and the
 * retransmission policy.
 */
import type { RetransmissionPolicy } from '../switchml/rtt-estimator.js';
import { SWITCHML_LOOPBACK_TIMING, SWITCHML_MININET_TIMING } from '../switchml/switchml-options.js';
import type { AgentClock, AgentTimers } from '../time.js';
import { formatSocketAddress, type SocketAddress } from '../transport/index.js';
import { OMNIREDUCE_ERROR_CODES, OmniReduceError } from './omnireduce-error.js';
import type { WorkerTransport } from './sourced-transport.js';

/** An aggregator shard: the address it listens on and the slots it owns. */
export interface AggregatorShard {
  readonly address: SocketAddress;
  readonly firstSlot: number;
  readonly slotCount: number;
}

export interface OmniReduceWorkerOptions {
  readonly transport: WorkerTransport;
  readonly rank: number;
  readonly worldSize: number;
  /** Shards whose slot ranges together cover 0..S−1 without gaps or overlaps. */
  readonly aggregators: readonly AggregatorShard[];
  /** Elements per block. */
  readonly blockSize: number;
  /** A block whose every |x| ≤ threshold is not sent (default 0: only exact-zero blocks; above 0 the sum is lossy). */
  readonly zeroThreshold?: number;
  readonly clock: AgentClock;
  readonly timers: AgentTimers;
  /** The retransmission timeout before the first round-trip sample, in ms. */
  readonly timeoutMs: number;
  readonly backoff: RetransmissionPolicy;
  /** Retransmissions of one message before the call fails with OMNIREDUCE_TIMEOUT. */
  readonly maxRetries: number;
}

/**
 * Timing defaults of the worker as a process. The round-trip estimator is
 * the SwitchML agent's, and so is the reasoning behind the numbers
 * (switchml-options.ts): on loopback the aggregator is a JavaScript process
 * on the same machine, in Mininet veths and namespaces add latency. Both give
 * up on a message after 30 retransmissions.
 */
export const OMNIREDUCE_LOOPBACK_TIMING = Object.freeze({ timeoutMs: SWITCHML_LOOPBACK_TIMING.timeoutMs, backoff: SWITCHML_LOOPBACK_TIMING.backoff, maxRetries: 30 });
export const OMNIREDUCE_MININET_TIMING = Object.freeze({ timeoutMs: SWITCHML_MININET_TIMING.timeoutMs, backoff: SWITCHML_MININET_TIMING.backoff, maxRetries: 30 });

/** For each slot 0..S−1, the shard that owns it, once every option is checked. */
export function resolveSlots(options: OmniReduceWorkerOptions): SocketAddress[] {
  const bad = (what: string): never => {
    throw new OmniReduceError(OMNIREDUCE_ERROR_CODES.badConfig, `OmniReduce worker: ${what}`);
  };
  const { rank, worldSize, blockSize, zeroThreshold = 0, timeoutMs, backoff, maxRetries } = options;
  if (!Number.isInteger(worldSize) || worldSize < 1) bad(`worldSize must be a positive integer, not ${worldSize}`);
  if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize) bad(`rank must be in 0..${worldSize - 1}, not ${rank}`);
  if (!Number.isInteger(blockSize) || blockSize < 1 || blockSize > 0xffff) bad(`blockSize must be in 1..65535, not ${blockSize}`);
  if (!(zeroThreshold >= 0) || !Number.isFinite(zeroThreshold)) bad(`zeroThreshold must be a finite number ≥ 0, not ${zeroThreshold}`);
  if (!(timeoutMs > 0) || !(backoff.minTimeoutMs > 0) || !(backoff.maxTimeoutMs >= backoff.minTimeoutMs) || !(backoff.factor >= 1)) {
    bad('timeouts must be positive, maxTimeoutMs ≥ minTimeoutMs, and the back-off factor ≥ 1');
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) bad(`maxRetries must be a non-negative integer, not ${maxRetries}`);
  return slotOwners(options.aggregators);
}

/** For each slot 0..S−1, the shard that owns it; OMNIREDUCE_BAD_CONFIG unless the shards cover 0..S−1 exactly once. */
export function slotOwners(aggregators: readonly AggregatorShard[]): SocketAddress[] {
  const bad = (what: string): never => {
    throw new OmniReduceError(OMNIREDUCE_ERROR_CODES.badConfig, `OmniReduce worker: ${what}`);
  };
  const shards = [...aggregators].sort((a, b) => a.firstSlot - b.firstSlot);
  if (shards.length === 0) bad('give at least one aggregator');
  const owners: SocketAddress[] = [];
  for (const s of shards) {
    if (s.firstSlot !== owners.length || !Number.isInteger(s.slotCount) || s.slotCount < 1) {
      bad(`aggregator ${formatSocketAddress(s.address)} owns slots from ${s.firstSlot} (${s.slotCount}); shards must cover 0..S−1 in consecutive, non-overlapping ranges, the next one starting at ${owners.length}`);
    }
    if (owners.length + s.slotCount > 0x8000) bad(`${owners.length + s.slotCount} slots do not fit the 15-bit slot field`);
    for (let i = 0; i < s.slotCount; i++) owners.push(s.address);
  }
  return owners;
}
