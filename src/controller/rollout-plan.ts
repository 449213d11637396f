/**
 * What the rollout planner decides for one job on one topology, as data:
 * which switches aggregate for which workers, what each worker does, the
 * ring (for ring-based algorithms) and, in words, why. The installer turns
 * aggregation points into switch entries and resources (jobDemand), the
 * agents read their worker's role, and people read the reasons.
 */
import type { AtpPlan } from './atp-plan.js';
import type { Algorithm } from './job.js';
import type { PlacedHost, PlacedShard } from './job-placement.js';

export type WorkerRole =
  /** Sends its data to a switch that aggregates it (SwitchML's switch, ATP's rack ToR). */
  | 'switch-aggregated'
  /** Sends its data to a host that aggregates (the parameter server, OmniReduce's aggregator). */
  | 'to-host-aggregator'
  /** An autonomous ring member (ring AllReduce, a worker of a non-INA rack in Rina). */
  | 'ring-member'
  /** Rina, hierarchical: the lowest-ranked worker of a rack (Rina: an INA rack), which stands for the rack in the ring. */
  | 'rack-agent'
  /** Rina, hierarchical: a worker of such a rack other than the agent; contributes through its ToR (Rina) or to the agent (hierarchical). */
  | 'rack-member';

/** How much of the job's aggregation happens in switches. */
export type InNetwork = 'full' | 'partial' | 'none';

export interface AggregationMember {
  readonly rank: number;
  /** The worker's bit at this switch (SwitchML: its rank; per-rack points: its index in the rack by rank; ATP's level 1: its bitmap1 bit). */
  readonly workerId: number;
  readonly host: string;
  /** The aggregating switch's port towards the worker (where its result replica leaves). */
  readonly port: number;
}

export interface AggregationPoint {
  readonly switch: string;
  /** 'job': one switch for every worker (ATP: the level-1 switch); 'rack': a ToR for its rack's workers. */
  readonly scope: 'job' | 'rack';
  readonly rack: string | undefined;
  /** Slots this point needs (the job's pool size); 0 for ATP, whose pool is shared. */
  readonly slots: number;
  /** By rank. */
  readonly members: readonly AggregationMember[];
  readonly reason: string;
}

export interface WorkerPlan {
  readonly rank: number;
  readonly host: string;
  readonly tor: string;
  readonly rack: string;
  readonly role: WorkerRole;
  /** The switch that aggregates this worker's data, if any. */
  readonly aggregationPoint: string | undefined;
  /** Its bit there, if any. */
  readonly workerId: number | undefined;
  /** Its position in the ring, for ring members and rack agents. */
  readonly ringPosition: number | undefined;
}

export interface RingMember {
  readonly position: number;
  /** 'rack': a rack as one abstracted worker (Rina: an INA rack; hierarchical: every rack); 'worker': one autonomous worker. */
  readonly kind: 'rack' | 'worker';
  /** The worker that talks to the ring: the rack's lowest rank, or the worker itself. */
  readonly agentRank: number;
  /** Every worker this member stands for, by rank. */
  readonly ranks: readonly number[];
  readonly rack: string;
}

/** What OmniReduce's workers and aggregators need from the plan (docs/omnireduce.md). */
export interface OmniReducePlan {
  /** 'switch': the plan's one aggregation point runs p4/omnireduce.p4; 'hosts': the shards aggregate. */
  readonly aggregator: 'switch' | 'hosts';
  /** Elements per block (the job's elements per packet) and the job's slot count S. */
  readonly blockSize: number;
  readonly slots: number;
  readonly zeroThreshold: number;
  /** With 'hosts': the shards in slot order; with 'switch': empty. */
  readonly shards: readonly PlacedShard[];
}

export interface RolloutPlan {
  readonly jobId: number;
  /** The algorithm the job asked for. */
  readonly requested: Algorithm;
  /** What will actually run (a fallback when the request cannot use any switch). */
  readonly runs: Algorithm;
  readonly inNetwork: InNetwork;
  readonly aggregationPoints: readonly AggregationPoint[];
  /** By rank. */
  readonly workers: readonly WorkerPlan[];
  /** The ring in order, for ring, Rina and hierarchical (and a ring fallback); undefined otherwise. */
  readonly ring: readonly RingMember[] | undefined;
  /** Members in the ring: workers for plain ring, (INA racks + other workers) for Rina, racks for hierarchical. */
  readonly expectedRingLength: number | undefined;
  /** The host aggregator the plan uses (parameter server, OmniReduce aggregator), if any. */
  readonly parameterServer: PlacedHost | undefined;
  /** ATP's levels, bits and contributors; undefined for other algorithms. */
  readonly atp: AtpPlan | undefined;
  /** Where a running OmniReduce job aggregates, and its block layout; absent for other algorithms and fallbacks. */
  readonly omnireduce?: OmniReducePlan;
  /** Why, in order: one line per decision (per rack where racks differ), then the outcome. */
  readonly reasons: readonly string[];
}
