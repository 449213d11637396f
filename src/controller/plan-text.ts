/**
 * A rollout plan as people read it (`p4ina controller plan`): what runs,
 * where it aggregates, each worker's role, the ring or ATP's levels, then
 * the planner's reasons in its own order. The JSON form is the plan itself.
 */
import { ipv4ToText } from '../wire/index.js';
import type { RolloutPlan, WorkerPlan } from './rollout-plan.js';

const IN_NETWORK: Record<RolloutPlan['inNetwork'], string> = {
  full: 'every worker aggregated in the network',
  partial: 'some workers aggregated in the network',
  none: 'no switch aggregates',
};

function workerLine(w: WorkerPlan): string {
  const at = w.aggregationPoint ? ` at ${w.aggregationPoint} (bit ${w.workerId})` : '';
  const ring = w.ringPosition !== undefined ? `, ring position ${w.ringPosition}` : '';
  return `    rank ${w.rank} on ${w.host} (rack ${w.rack}, ToR ${w.tor}): ${w.role}${at}${ring}`;
}

function ringLines(plan: RolloutPlan): string[] {
  if (!plan.ring) return [];
  const member = (m: NonNullable<RolloutPlan['ring']>[number]): string =>
    m.kind === 'rack' ? `rack ${m.rack} [ranks ${m.ranks.join(',')}; agent ${m.agentRank}]` : `rank ${m.agentRank}`;
  return [`  ring of ${plan.ring.length}: ${plan.ring.map(member).join(' → ')} → back to the first`];
}

function atpLines(plan: RolloutPlan): string[] {
  const atp = plan.atp;
  if (!atp) return [];
  const lines = [`  ATP: level 1 ${atp.level1 ?? 'none (the parameter server sums the level-1 contributors)'}, fan-in at level 1 ${atp.fanIn1}`];
  for (const l of atp.level0) lines.push(`    level 0 at ${l.switch} for rack ${l.rack}: ranks ${l.ranks.join(',')} (bitmap1 bit ${l.bitmap1Bit})`);
  for (const c of atp.contributors) if (c.kind === 'worker') lines.push(`    rank ${c.ranks[0]} goes to the parameter server on its own (bitmap1 bit ${c.bitmap1Bit})`);
  return lines;
}

/** The plan of one job, several lines, ending in a newline. */
export function formatRolloutPlan(plan: RolloutPlan): string {
  const fallback = plan.runs === plan.requested ? '' : ` (asked for ${plan.requested})`;
  const lines = [`job ${plan.jobId}: runs ${plan.runs}${fallback}; ${IN_NETWORK[plan.inNetwork]}`];
  if (plan.aggregationPoints.length) {
    lines.push('  aggregation points:');
    for (const p of plan.aggregationPoints) {
      const slots = p.slots ? `, ${p.slots} slots` : '';
      lines.push(`    ${p.switch} (${p.scope === 'rack' ? `rack ${p.rack}` : 'whole job'}${slots}): ranks ${p.members.map((m) => m.rank).join(',')}`);
    }
  }
  const shards = plan.omnireduce?.shards ?? [];
  if (shards.length > 0) {
    for (const s of shards) lines.push(`  host aggregator: ${s.host} (${ipv4ToText(s.ip)}:${s.udpPort}), slots ${s.firstSlot}..${s.firstSlot + s.slotCount - 1}`);
  } else if (plan.parameterServer) {
    lines.push(`  host aggregator: ${plan.parameterServer.host} (${ipv4ToText(plan.parameterServer.ip)}:${plan.parameterServer.udpPort})`);
  }
  if (plan.omnireduce) lines.push(`  OmniReduce: blocks of ${plan.omnireduce.blockSize} elements over ${plan.omnireduce.slots} slots, zero threshold ${plan.omnireduce.zeroThreshold}`);
  lines.push(...ringLines(plan), ...atpLines(plan));
  lines.push('  workers:', ...plan.workers.map(workerLine));
  lines.push('  why:', ...plan.reasons.map((r) => `    - ${r}`));
  return `${lines.join('\n')}\n`;
}
