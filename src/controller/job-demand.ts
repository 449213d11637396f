/**
 * What a planned job asks of the switches. SwitchML (and Rina): at each
 * aggregation point, the job's pool of slots, a multicast group, a job table
 * entry, and one bitmap bit per worker aggregated there. ATP: no slots (every
 * job shares the pool), a job table entry at each level, and a multicast
 * group only at level 0, where ACKs are multicast to the rack; its level 1
 * keeps no per-worker state (counted as one). Plans without switch state ask
 * nothing.
 */
import type { JobDemand } from './capacity.js';
import type { RolloutPlan } from './rollout-plan.js';

export function jobDemand(plan: RolloutPlan): JobDemand {
  const atp = plan.atp;
  if (atp) {
    return {
      jobId: plan.jobId,
      switches: [
        ...atp.level0.map((l) => ({ switch: l.switch, slots: 0, workers: l.ranks.length })),
        ...(atp.level1 === undefined ? [] : [{ switch: atp.level1, slots: 0, workers: 1, multicastGroup: false }]),
      ],
    };
  }
  return {
    jobId: plan.jobId,
    switches: plan.aggregationPoints.map((p) => ({ switch: p.switch, slots: p.slots, workers: p.members.length })),
  };
}
