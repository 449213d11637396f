/**
 * Comparing a wanted ATP job with what the atp.p4 switches hold (for
 * reconcile.ts): the job is where its plan says, at the same level, with the
 * entries and group the spec gives. The generation is not compared: any
 * generation serves the setup that wrote it, and keeping it is what keeps
 * the job's aggregates valid across a controller restart.
 */
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import { atpSwitchEntries, type AtpSwitchEntries } from './atp-entries.js';
import { atpSwitchesOf } from './atp-job.js';
import type { AtpSwitchState } from './atp-state-read.js';
import { groupSignature, tableEntrySignature } from './entity-signature.js';
import type { SwitchSession } from './switch-session.js';
import { foundIn } from './switch-state-read.js';

function signature(session: SwitchSession, e: AtpSwitchEntries): string {
  const s = session.schema;
  return [`level ${e.level}`, tableEntrySignature(s, e.job), ...e.rewrites.map((r) => tableEntrySignature(s, r)).sort(), e.group ? `|${e.group.groupId}:${groupSignature(e.group)}` : '|'].join(',');
}

export type AtpComparison =
  | { readonly verdict: 'hostOnly' | 'installed' | 'reinstalled' }
  | { readonly verdict: 'unchanged'; readonly entries: AtpSwitchEntries[] }
  | { readonly verdict: 'differs'; readonly switches: string[] };

export function compareAtpJob(topology: Topology, sessions: ReadonlyMap<string, SwitchSession>, spec: JobSpec, plan: RolloutPlan, states: readonly AtpSwitchState[]): AtpComparison {
  const names = atpSwitchesOf(plan);
  if (names.length === 0) return { verdict: 'hostOnly' };
  const here = foundIn(states, spec.id);
  if (here.length === 0) return { verdict: 'installed' };
  if (here.length !== names.length || !names.every((sw) => here.some((f) => f.allocation.switch === sw))) return { verdict: 'reinstalled' };
  const mine = names.map((sw) => {
    const f = here.find((h) => h.allocation.switch === sw)!;
    return { f, want: atpSwitchEntries(topology, spec, plan.atp!, sw, f.allocation, f.entries.generation) };
  });
  const differs = mine.filter(({ f, want }) => !f.hasGroup || f.entries.level !== want.level || signature(sessions.get(f.allocation.switch)!, f.entries) !== signature(sessions.get(f.allocation.switch)!, want));
  if (differs.length > 0) return { verdict: 'differs', switches: differs.map((d) => d.f.allocation.switch) };
  return { verdict: 'unchanged', entries: mine.map((m) => m.want) };
}
