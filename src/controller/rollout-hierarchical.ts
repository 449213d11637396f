/**
 * Hierarchical AllReduce, the host baseline Rina is compared with: the racks
 * are the topology's (the hosts under one ToR), whatever their switches can
 * do, so the plan is the same at every stage of rollout and needs no switch
 * state. In each rack the job's lowest-ranked worker is the leader: the
 * others send it their data, the leaders run ring AllReduce in order of
 * their ranks, and each sends the result back to its rack. The agents derive
 * the same leaders and order from the rack of each rank (`p4ina agent
 * hierarchical-worker --racks`: the plan's workers' `rack`, by rank).
 */
import type { PlacedJob } from './job-placement.js';
import { plural, rackGroups, workerPlan } from './rollout-common.js';
import type { RingMember, RolloutPlan, WorkerPlan } from './rollout-plan.js';

export function planHierarchical(placed: PlacedJob): RolloutPlan {
  const groups = rackGroups(placed);
  const reasons = groups.map((g) => {
    const leader = g.workers[0]!;
    return g.workers.length === 1
      ? `rack ${g.rack}: its one worker, rank ${leader.rank} on ${leader.host}, is its own leader`
      : `rack ${g.rack}: its ${plural(g.workers.length, 'worker')} send to their leader, the lowest rank, ${leader.rank} on ${leader.host}`;
  });
  const ring: RingMember[] = groups
    .map((g) => ({ kind: 'rack' as const, agentRank: g.workers[0]!.rank, ranks: g.workers.map((w) => w.rank), rack: g.rack }))
    .sort((x, y) => x.agentRank - y.agentRank)
    .map((member, position) => ({ ...member, position }));
  const positionOf = new Map(ring.map((m) => [m.agentRank, m.position]));
  const workers: WorkerPlan[] = groups.flatMap((g) =>
    g.workers.map((w, i) => (i === 0 ? workerPlan(w, { role: 'rack-agent', ringPosition: positionOf.get(w.rank) }) : workerPlan(w, { role: 'rack-member' }))),
  );
  const n = placed.workers.length;
  if (ring.length === 1) {
    reasons.push(`all ${plural(n, 'worker')} share one rack: its leader sums and sends the result back, with no ring and no switch state`);
  } else if (ring.length === n) {
    reasons.push(`every rack has one worker: ring AllReduce among ${plural(n, 'worker')} in rank order, as plain ring AllReduce, with no switch state`);
  } else {
    reasons.push(`ring AllReduce among ${plural(ring.length, 'rack leader')} in rank order, each sending the result back to its rack, with no switch state`);
  }
  return {
    jobId: placed.job.id,
    requested: 'hierarchical',
    runs: 'hierarchical',
    inNetwork: 'none',
    aggregationPoints: [],
    workers: workers.sort((x, y) => x.rank - y.rank),
    ring,
    expectedRingLength: ring.length,
    parameterServer: undefined,
    atp: undefined,
    reasons,
  };
}

