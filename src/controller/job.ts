/**
 * Job specs: what one AllReduce job is (id, algorithm, workers, pool, packet
 * size, timeouts), the same at every stage of INA rollout; where it runs is
 * the rollout planner's business. Written as JSON (snake_case keys,
 * `parseJobSpec`, `loadJobSpec`) or in TypeScript (camelCase keys,
 * `defineJob`), both validated by job-parse.ts.
 *
 * The job id is the 16-bit `job_id` of the INA headers (docs/wire.md). Ranks
 * are 0..n−1; for SwitchML a worker's rank is also its bit in the switch's
 * seen bitmap. For ATP `poolSize` is how many aggregators of the switches'
 * shared pool the job hashes over (it reserves none). Timeout defaults are
 * the SwitchML agent's loopback timing, which the ATP agents share.
 */
import { ATP_HEADER_LENGTH, OMNIREDUCE_EXPONENT_LENGTH, OMNIREDUCE_HEADER_LENGTH, RINA_HEADER_LENGTH, SWITCHML_HEADER_LENGTH } from '../wire/index.js';

export type Algorithm = 'switchml' | 'atp' | 'omnireduce' | 'rina' | 'hierarchical' | 'ring' | 'ps';
export const ALGORITHMS: readonly Algorithm[] = ['switchml', 'atp', 'omnireduce', 'rina', 'hierarchical', 'ring', 'ps'];
/** What runs when the chosen INA algorithm cannot use any switch. */
export type Fallback = 'ring' | 'ps';
export const FALLBACKS: readonly Fallback[] = ['ring', 'ps'];

export interface JobWorker {
  readonly rank: number;
  /** The topology host it runs on, when named. */
  readonly host: string | undefined;
  readonly ip: number | undefined;
  readonly mac: number | undefined;
  /** Where the worker receives (results, ring data). */
  readonly udpPort: number;
  /** Position in the spec's `workers` array, for messages. */
  readonly index: number;
}

/** A host-side service (parameter server, OmniReduce aggregator). */
export interface JobEndpoint {
  readonly host: string | undefined;
  readonly ip: number | undefined;
  readonly udpPort: number;
}

export interface JobTimeouts {
  /** First retransmission timeout of a packet, ms. */
  readonly timeoutMs: number;
  /** Growth factor of the timeout (≥ 1). */
  readonly backoffFactor: number;
  /** The floor of the adaptive timeout (RFC 6298's minimum RTO), ms. */
  readonly minTimeoutMs: number;
  /** No wait is longer than this, ms. */
  readonly maxTimeoutMs: number;
  /** Retransmissions of one packet before the operation fails. */
  readonly maxRetries: number;
}

/** What only an ATP job has (docs/atp.md, "Workers"); every worker and the PS use the same values. */
export interface AtpJobOptions {
  /** Window positions W: sequence s uses position s mod W and waits for s − W. */
  readonly window: number;
  /** Packets outstanding at the start (default: the agents', min(16, W)); ECN marks then steer it. */
  readonly initialWindow: number | undefined;
  /** The value range R of the job's fixed-point scale; larger values go as float32. */
  readonly valueRange: number;
  /** Queue depth in packets at which switches mark ECN; undefined: the job asks for no marking. */
  readonly ecnThreshold: number | undefined;
  /** How long an untouched aggregator stays its owner's before anyone may take it, ms. */
  readonly reclaimMs: number;
  /**
   * The job's first aggregator: it hashes over poolBase..poolBase + poolSize − 1. 0 (the default)
   * for a shared pool, where every job hashes over the same aggregators; disjoint ranges split the
   * pool statically (each job's own, no collisions between jobs).
   */
  readonly poolBase: number;
}

/** Where an OmniReduce job aggregates when it can choose. */
export type OmniReduceAggregator = 'hosts' | 'switch';
export const OMNIREDUCE_AGGREGATORS: readonly OmniReduceAggregator[] = ['hosts', 'switch'];

/** One host aggregator process and the slots it owns (consecutive ranges, in list order). */
export interface OmniReduceShard extends JobEndpoint {
  readonly firstSlot: number;
  readonly slotCount: number;
}

export interface OmniReduceJobOptions {
  readonly aggregator: OmniReduceAggregator;
  /** A block whose every |x| is at most this is not sent (0: only all-zero blocks; lossless). */
  readonly zeroThreshold: number;
  /** Host aggregators covering slots 0..S−1; empty when the job aggregates in a switch only. */
  readonly shards: readonly OmniReduceShard[];
}

export interface JobSpec {
  readonly id: number;
  readonly name: string | undefined;
  readonly algorithm: Algorithm;
  /** By rank. */
  readonly workers: readonly JobWorker[];
  /** Slots per aggregation point; also each worker's window. */
  readonly poolSize: number;
  readonly elementsPerPacket: number;
  readonly timeouts: JobTimeouts;
  readonly fallback: Fallback;
  /** Required for ps, atp, omnireduce (its aggregator) and a "ps" fallback. */
  readonly parameterServer: JobEndpoint | undefined;
  /** ATP jobs only (defaults filled in); undefined for every other algorithm. */
  readonly atp: AtpJobOptions | undefined;
  /** OmniReduce jobs only (defaults filled in): where it aggregates, its shards, its zero threshold. */
  readonly omnireduce?: OmniReduceJobOptions;
}

/** The TypeScript form of a job spec: addresses as text, optional fields defaulted. */
export interface JobSpecInput {
  readonly id: number;
  readonly name?: string;
  readonly algorithm: Algorithm;
  readonly workers: readonly { rank: number; host?: string; ip?: string; mac?: string; udpPort: number }[];
  readonly poolSize?: number;
  readonly elementsPerPacket?: number;
  readonly timeouts?: Partial<JobTimeouts>;
  readonly fallback?: Fallback;
  readonly parameterServer?: { host?: string; ip?: string; udpPort: number };
  readonly atp?: Partial<AtpJobOptions>;
  readonly omnireduce?: { aggregator?: OmniReduceAggregator; zeroThreshold?: number; shards?: readonly { host?: string; ip?: string; udpPort: number; slots: number }[] };
}

export const DEFAULT_POOL_SIZE = 256;
export const DEFAULT_TIMEOUTS: JobTimeouts = Object.freeze({ timeoutMs: 20, backoffFactor: 2, minTimeoutMs: 20, maxTimeoutMs: 1000, maxRetries: 30 });
/** Ring ranks travel as 16 bits (Rina's sender_rank). */
export const MAX_JOB_WORKERS = 0xffff;

export const MTU = 1500;
const IPV4_UDP = 28;
const HEADER_BYTES: Record<Algorithm, number> = {
  switchml: SWITCHML_HEADER_LENGTH,
  atp: ATP_HEADER_LENGTH,
  rina: RINA_HEADER_LENGTH,
  omnireduce: OMNIREDUCE_HEADER_LENGTH + OMNIREDUCE_EXPONENT_LENGTH,
  // The baselines run over TCP; their limit is SwitchML's so the same spec serves both.
  hierarchical: SWITCHML_HEADER_LENGTH,
  ring: SWITCHML_HEADER_LENGTH,
  ps: SWITCHML_HEADER_LENGTH,
};

/** The most int32 values an algorithm's packet carries within a 1500-byte MTU. */
export function maxElementsPerPacket(algorithm: Algorithm): number {
  return Math.floor((MTU - IPV4_UDP - HEADER_BYTES[algorithm]) / 4);
}

