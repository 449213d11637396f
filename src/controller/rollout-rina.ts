/**
 * Rina's per-rack rule, where each rack decides for itself and a rollout
 * pays off rack by rack: a rack whose ToR is INA-capable is one ring member
 * (an abstracted worker) whose agent is its lowest-ranked worker; every
 * worker of another rack is a ring member of its own. The ring runs in order
 * of each member's agent rank, so it is the same on every host. (ATP's rule
 * is in rollout-atp.ts.)
 */
import { RINA_MAX_RACK_WORKERS } from '../wire/index.js';
import type { PlacedJob } from './job-placement.js';
import { membersAt, plural, rackGroups, ringPlan, workerPlan, type RackGroup } from './rollout-common.js';
import type { AggregationPoint, InNetwork, RingMember, RolloutPlan, WorkerPlan } from './rollout-plan.js';

function inNetwork(aggregatedRacks: number, racks: number): InNetwork {
  return aggregatedRacks === 0 ? 'none' : aggregatedRacks === racks ? 'full' : 'partial';
}

function rackPoint(placed: PlacedJob, g: RackGroup, reason: string): AggregationPoint {
  return { switch: g.tor, scope: 'rack', rack: g.rack, slots: placed.job.poolSize, members: membersAt(placed, g.tor, g.workers, (_, i) => i), reason };
}

export function planRina(placed: PlacedJob): RolloutPlan {
  const groups = rackGroups(placed);
  const inaGroups = groups.filter((g) => g.ina && g.workers.length <= RINA_MAX_RACK_WORKERS);
  const reasons: string[] = [];
  for (const g of groups) {
    const count = plural(g.workers.length, 'worker');
    if (inaGroups.includes(g)) {
      const agent = g.workers[0]!;
      reasons.push(`rack ${g.rack}: ToR ${g.tor} is INA-capable, its ${count} form one ring member whose agent is rank ${agent.rank} on ${agent.host}`);
    } else if (g.ina) {
      reasons.push(`rack ${g.rack}: ToR ${g.tor} is INA-capable but its ${count} exceed the ${RINA_MAX_RACK_WORKERS} its bitmap can track, they join the ring individually`);
    } else {
      reasons.push(`rack ${g.rack}: ToR ${g.tor} is not INA-capable, its ${count} join the ring individually`);
    }
  }
  if (inaGroups.length === 0) {
    return ringPlan(placed, 'rina', [...reasons, 'no rack has an INA-capable ToR: Rina is plain ring AllReduce']);
  }
  const members: Omit<RingMember, 'position'>[] = [];
  for (const g of groups) {
    if (inaGroups.includes(g)) members.push({ kind: 'rack', agentRank: g.workers[0]!.rank, ranks: g.workers.map((w) => w.rank), rack: g.rack });
    else for (const w of g.workers) members.push({ kind: 'worker', agentRank: w.rank, ranks: [w.rank], rack: g.rack });
  }
  const ring: RingMember[] = members.sort((x, y) => x.agentRank - y.agentRank).map((m, position) => ({ ...m, position }));
  const positionOf = new Map(ring.map((m) => [m.agentRank, m.position]));
  const workers: WorkerPlan[] = [];
  for (const g of groups) {
    const ina = inaGroups.includes(g);
    g.workers.forEach((w, i) => {
      if (!ina) workers.push(workerPlan(w, { role: 'ring-member', ringPosition: positionOf.get(w.rank) }));
      else if (i === 0) workers.push(workerPlan(w, { role: 'rack-agent', aggregationPoint: g.tor, workerId: 0, ringPosition: positionOf.get(w.rank) }));
      else workers.push(workerPlan(w, { role: 'rack-member', aggregationPoint: g.tor, workerId: i }));
    });
  }
  reasons.push(`the ring has ${plural(ring.length, 'member')} instead of ${placed.workers.length}: ${plural(inaGroups.length, 'INA rack')} and ${plural(ring.length - inaGroups.length, 'individual worker')}`);
  return {
    jobId: placed.job.id,
    requested: 'rina',
    runs: 'rina',
    inNetwork: inNetwork(inaGroups.length, groups.length),
    aggregationPoints: inaGroups.map((g) => rackPoint(placed, g, reasons[groups.indexOf(g)]!)),
    workers: workers.sort((x, y) => x.rank - y.rank),
    ring,
    expectedRingLength: ring.length,
    parameterServer: undefined,
    atp: undefined,
    reasons,
  };
}
