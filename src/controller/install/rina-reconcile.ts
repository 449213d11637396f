/**
 * Comparing a wanted Rina job with what the rina_tor.p4 switches hold (for
 * reconcile.ts): the job is at every INA ToR of its plan and nowhere else,
 * with exactly the entries and group the spec gives there (with the slot
 * range and group read back).
 */
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import { jobEntitiesSignature } from './entity-signature.js';
import { rinaSwitchEntries, type RinaSwitchEntries } from './rina-entries.js';
import type { RinaSwitchState } from './rina-state-read.js';
import type { SwitchSession } from './switch-session.js';
import { foundIn } from './switch-state-read.js';

export type RinaComparison =
  | { readonly verdict: 'hostOnly' | 'installed' | 'reinstalled' }
  | { readonly verdict: 'unchanged'; readonly entries: RinaSwitchEntries[] }
  | { readonly verdict: 'differs'; readonly switches: string[] };

export function compareRinaJob(topology: Topology, sessions: ReadonlyMap<string, SwitchSession>, spec: JobSpec, plan: RolloutPlan, states: readonly RinaSwitchState[]): RinaComparison {
  const tors = plan.aggregationPoints.map((p) => p.switch);
  if (tors.length === 0) return { verdict: 'hostOnly' };
  const here = foundIn(states, spec.id);
  if (here.length === 0) return { verdict: 'installed' };
  if (here.length !== tors.length || !tors.every((sw) => here.some((f) => f.allocation.switch === sw))) return { verdict: 'reinstalled' };
  const differs: string[] = [];
  const entries: RinaSwitchEntries[] = [];
  for (const sw of tors) {
    const f = here.find((h) => h.allocation.switch === sw)!;
    // The spec's pool size, not the one read back: a job whose pool changed differs.
    const want = f.hasGroup ? rinaSwitchEntries(topology, spec, plan, sw, { ...f.allocation, slots: spec.poolSize }) : undefined;
    if (want === undefined || jobEntitiesSignature(sessions.get(sw)!.schema, f.entries) !== jobEntitiesSignature(sessions.get(sw)!.schema, want)) differs.push(sw);
    else entries.push(want);
  }
  return differs.length > 0 ? { verdict: 'differs', switches: differs } : { verdict: 'unchanged', entries };
}
