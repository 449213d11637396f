/**
 * The ATP parameter server's options: the transport it answers on and, per
 * job, the job constants (which the job's workers share) and the level-1
 * contributors with the addresses their ACKs go to (atp-job-layout.ts).
 * Out-of-range values are RangeErrors; the command line checks user input.
 */
import { SeededRandom } from '../../util/seeded-random.js';
import type { AddressedTransport, CeMarkSource, SocketAddress } from '../transport/index.js';
import type { AtpContributor } from './atp-job-layout.js';
import { ATP_DEFAULT_ELEMENTS, ATP_DEFAULT_WINDOW, ATP_MAX_CONTRIBUTORS, ATP_MAX_POOL, ATP_MAX_WINDOW, integerIn, requireWorldSize } from './atp-limits.js';
import { ATP_DEFAULT_VALUE_RANGE } from './atp-scale.js';

/** Where fresh aggregators come from (SeededRandom is one). */
export interface AtpRandom {
  /** Uniform in 0..bound−1. */
  nextInt(bound: number): number;
}

export interface AtpPsJob {
  /** 1..65535, as the workers have it. */
  readonly jobId: number;
  readonly poolSize: number;
  /** The job's first aggregator (default 0), as the workers have it: fresh aggregators are picked in poolBase..poolBase+poolSize−1. */
  readonly poolBase?: number;
  /** Index = `bitmap1` bit. An aggregating rack's ACK goes to its first worker (its ToR multicasts it). */
  readonly contributors: readonly AtpContributor<SocketAddress>[];
  readonly elementsPerPacket?: number;
  /** Window positions W (default 100), as the workers have it. */
  readonly maxWindow?: number;
  readonly valueRange?: number;
  readonly firstSequence?: number;
  /** Distinct pieces kept per sequence (default: the workers plus 32). At least the workers plus 1. */
  readonly maxPieces?: number;
  /** Picks fresh aggregators (default: a SeededRandom derived from the job id, so that two jobs' PSes pick differently). */
  readonly random?: AtpRandom;
}

export interface AtpParameterServerOptions {
  /** Receives every job's pieces and sends the ACKs. The PS attaches itself as the listener. */
  readonly transport: AddressedTransport;
  /**
   * Where CE marks on the pieces' IPv4 headers come from, if anywhere (often
   * `transport` itself: a UDP wire, or kernel UDP with `observeCe`). A marked
   * piece's sequence is acknowledged with the ecn bit, as for a piece with it.
   */
  readonly ceMarks?: CeMarkSource;
  readonly jobs: readonly AtpPsJob[];
  /** Steps one cover search may take (default 10,000). */
  readonly coverSearchBudget?: number;
  /** Let close() close the transport too (default false). */
  readonly closeTransport?: boolean;
}

export interface ResolvedAtpPsJob {
  readonly jobId: number;
  readonly poolSize: number;
  readonly poolBase: number;
  readonly contributors: readonly AtpContributor<SocketAddress>[];
  readonly worldSize: number;
  readonly elementsPerPacket: number;
  readonly maxWindow: number;
  readonly valueRange: number;
  readonly firstSequence: number;
  readonly maxPieces: number;
  readonly random: AtpRandom;
}

export const DEFAULT_COVER_SEARCH_BUDGET = 10_000;

/** Checks one job; throws RangeError. */
export function resolveAtpPsJob(job: AtpPsJob): ResolvedAtpPsJob {
  const jobId = integerIn(job.jobId, 1, 0xffff, 'jobId');
  const contributors = job.contributors;
  integerIn(contributors.length, 1, ATP_MAX_CONTRIBUTORS, `job ${jobId}: the number of level-1 contributors`);
  for (const [bit, c] of contributors.entries()) {
    if (c.aggregating) integerIn(c.workers.length, 1, ATP_MAX_CONTRIBUTORS, `job ${jobId}: the workers of aggregating contributor ${bit}`);
    else if (c.workers.length !== 1) throw new RangeError(`job ${jobId}: contributor ${bit} does not aggregate, so it is one worker, not ${c.workers.length}`);
  }
  const worldSize = requireWorldSize(contributors.reduce((n, c) => n + c.workers.length, 0));
  const valueRange = job.valueRange ?? ATP_DEFAULT_VALUE_RANGE;
  if (!(valueRange > 0 && Number.isFinite(valueRange))) throw new RangeError(`valueRange must be a positive finite number, not ${valueRange}`);
  return {
    jobId,
    poolSize: integerIn(job.poolSize, 1, ATP_MAX_POOL, 'poolSize'),
    poolBase: integerIn(job.poolBase ?? 0, 0, ATP_MAX_POOL - job.poolSize, 'poolBase'),
    contributors,
    worldSize,
    elementsPerPacket: integerIn(job.elementsPerPacket ?? ATP_DEFAULT_ELEMENTS, 1, 0x3fff, 'elementsPerPacket'),
    maxWindow: integerIn(job.maxWindow ?? ATP_DEFAULT_WINDOW, 1, ATP_MAX_WINDOW, 'maxWindow'),
    valueRange,
    firstSequence: integerIn(job.firstSequence ?? 0, 0, 0xffff, 'firstSequence'),
    maxPieces: integerIn(job.maxPieces ?? worldSize + 32, worldSize + 1, 1_000_000, 'maxPieces'),
    random: job.random ?? new SeededRandom('atp-parameter-server').derive(jobId),
  };
}
