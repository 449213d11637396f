/**
 * What the rollout planner decides for an ATP job beyond where it
 * aggregates (docs/atp.md, "Roles and levels"): which ToR is level 0 for
 * which rack, which switch (if any) is level 1, every worker's bits and
 * fan-ins, and the level-1 contributors the parameter server covers, in
 * `bitmap1` order with the worker each one's ACK is addressed to. The
 * installer writes the switches from it and atp-agents.ts turns it into the
 * agents' configurations, so both read one decision.
 */

/** A ToR that aggregates its rack's workers for the job. */
export interface AtpLevel0 {
  readonly switch: string;
  readonly rack: string;
  /** The rack's workers by `bitmap0` bit (their rank order in the rack). */
  readonly ranks: readonly number[];
  /** The rack's bit in `bitmap1`. */
  readonly bitmap1Bit: number;
}

/** One `bitmap1` bit: an aggregating rack, or one worker whose ToR does not aggregate. */
export interface AtpContributor {
  readonly bitmap1Bit: number;
  readonly kind: 'rack' | 'worker';
  readonly rack: string;
  /** Its workers by `bitmap0` bit (one for 'worker'). */
  readonly ranks: readonly number[];
  /** The level-0 ToR of a 'rack' contributor. */
  readonly level0: string | undefined;
}

/** What one worker writes in every packet, and where it sends and listens. */
export interface AtpWorkerBits {
  readonly rank: number;
  readonly host: string;
  readonly ip: number;
  readonly udpPort: number;
  /** Its rank in its rack when the rack's ToR aggregates at level 0, else undefined. */
  readonly bitmap0Bit: number | undefined;
  readonly bitmap1Bit: number;
  /** The job's workers in its rack when the ToR aggregates, else 0. */
  readonly fanIn0: number;
  readonly fanIn1: number;
}

export interface AtpPlan {
  readonly level0: readonly AtpLevel0[];
  /** The switch that sums the level-1 contributors on their way to the PS, if any. */
  readonly level1: string | undefined;
  /** By `bitmap1` bit. */
  readonly contributors: readonly AtpContributor[];
  /** By rank. */
  readonly workers: readonly AtpWorkerBits[];
  /** Level-1 contributors: what `fanInDegree1` says, and the most pieces the PS gets per sequence. */
  readonly fanIn1: number;
}
