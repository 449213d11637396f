/**
 * The rollout planner: given a topology (which switches are INA-capable)
 * and a job spec, where the job's aggregation happens and why. The same
 * spec is planned at every stage of a rollout; only the topology changes
 * (see rollout-stages.ts). Per algorithm:
 *
 *   switchml    one switch for the whole job (rollout-switchml.ts), else the fallback
 *   atp         INA racks' ToRs at level 0, an INA switch on every path to the
 *               parameter server at level 1, the parameter server for the rest (rollout-atp.ts)
 *   rina        INA racks as abstracted ring members, other workers individually (rollout-rina.ts)
 *   hierarchical  every rack reduced on its lowest rank, a ring of those leaders; no switch state (rollout-hierarchical.ts)
 *   omnireduce  host aggregator shards, or with "aggregator": "switch" one switch as
 *               SwitchML's, the shards where none can (rollout-omnireduce.ts)
 *   ring, ps    no switch state
 */
import type { JobSpec } from './job.js';
import { placeJob } from './job-placement.js';
import { parameterServerPlan, ringPlan } from './rollout-common.js';
import type { RolloutPlan } from './rollout-plan.js';
import { planAtp, type AtpRolloutOptions } from './rollout-atp.js';
import { planHierarchical } from './rollout-hierarchical.js';
import { planOmniReduce } from './rollout-omnireduce.js';
import { planRina } from './rollout-rina.js';
import { planSwitchMl, type AncestorRule } from './rollout-switchml.js';
import type { Topology } from './topology.js';

export interface RolloutOptions extends AtpRolloutOptions {
  /** Which switches may aggregate a SwitchML (or OmniReduce switch) job spanning racks (default 'every-path'); see rollout-switchml.ts. */
  readonly ancestorRule?: AncestorRule;
  /** Whether an INA-capable switch runs omnireduce.p4, for OmniReduce's switch variant (default: every one). */
  readonly omniReduceCapable?: (sw: string) => boolean;
}

/** Plans one job on one topology. Throws ControllerError when the job's hosts do not match the topology. */
export function planRollout(topology: Topology, job: JobSpec, options: RolloutOptions = {}): RolloutPlan {
  const placed = placeJob(topology, job);
  switch (job.algorithm) {
    case 'switchml':
      return planSwitchMl(placed, options.ancestorRule ?? 'every-path');
    case 'atp':
      return planAtp(placed, options);
    case 'rina':
      return planRina(placed);
    case 'hierarchical':
      return planHierarchical(placed);
    case 'omnireduce':
      return planOmniReduce(placed, options.ancestorRule ?? 'every-path', options.omniReduceCapable);
    case 'ps':
      return parameterServerPlan(placed, 'ps', []);
    case 'ring':
      return ringPlan(placed, 'ring', []);
  }
}
