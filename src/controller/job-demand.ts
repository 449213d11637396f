/**
 * What a planned job asks of the switches: at each aggregation point, the
 * job's pool of slots, a multicast group, a job table entry, and one bitmap
 * bit per worker aggregated there. Plans without switch state ask nothing.
 */
import type { JobDemand } from './capacity.js';
import type { RolloutPlan } from './rollout-plan.js';

export function jobDemand(plan: RolloutPlan): JobDemand {
  return {
    jobId: plan.jobId,
    switches: plan.aggregationPoints.map((p) => ({ switch: p.switch, slots: p.slots, workers: p.members.length })),
  };
}
