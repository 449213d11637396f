/**
 * Comparing a wanted OmniReduce job with what the omnireduce.p4 switches
 * hold (for reconcile.ts): the job is at its plan's switch and nowhere else,
 * with exactly the entries and group the spec gives there (with the slot
 * range and group read back, the pool size the spec's).
 */
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import { jobEntitiesSignature } from './entity-signature.js';
import { omniReduceEntriesAt, omniReducePoint, type OmniReduceEntriesAt } from './omnireduce-job-on-switch.js';
import type { OmniReduceSwitchState } from './omnireduce-state-read.js';
import type { SwitchSession } from './switch-session.js';
import { foundIn } from './switch-state-read.js';

export type OmniReduceComparison =
  | { readonly verdict: 'hostOnly' | 'installed' | 'reinstalled' }
  | { readonly verdict: 'unchanged'; readonly entries: OmniReduceEntriesAt[] }
  | { readonly verdict: 'differs'; readonly switches: string[] };

export function compareOmniReduceJob(
  topology: Topology,
  sessions: ReadonlyMap<string, SwitchSession>,
  spec: JobSpec,
  plan: RolloutPlan,
  states: readonly OmniReduceSwitchState[],
): OmniReduceComparison {
  const point = omniReducePoint(plan);
  if (!point) return { verdict: 'hostOnly' };
  const here = foundIn(states, spec.id);
  if (here.length === 0) return { verdict: 'installed' };
  const f = here.find((h) => h.allocation.switch === point.switch);
  if (here.length !== 1 || !f) return { verdict: 'reinstalled' };
  // The spec's pool size, not the one read back: a job whose pool changed differs.
  const want = f.hasGroup ? omniReduceEntriesAt(topology, spec, point, { ...f.allocation, slots: spec.poolSize }) : undefined;
  const schema = sessions.get(point.switch)!.schema;
  if (want === undefined || jobEntitiesSignature(schema, f.entries) !== jobEntitiesSignature(schema, want)) return { verdict: 'differs', switches: [point.switch] };
  return { verdict: 'unchanged', entries: [want] };
}
