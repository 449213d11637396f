/**
 * Comparing a wanted SwitchML job with what the switchml.p4 switches hold
 * (for reconcile.ts): the job is at every switch of its plan and nowhere
 * else, with exactly the entries and group the spec gives there (with the
 * slot range and group read back, the pool size the spec's). A spec whose
 * elements_per_packet is not what the switches' switchml.p4 adds is
 * INSTALL_PIPELINE_MISMATCH, as at setup, even if its entries are there.
 */
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import type { Topology } from '../topology.js';
import { jobEntitiesSignature } from './entity-signature.js';
import type { SwitchJobState } from './job-state-read.js';
import type { SwitchSession } from './switch-session.js';
import { foundIn } from './switch-state-read.js';
import { jobSwitchEntries, type JobEntryOptions, type JobSwitchEntries } from './switchml-entries.js';
import { checkValuesPerPacket } from './switchml-job.js';

export type SwitchmlComparison =
  | { readonly verdict: 'hostOnly' | 'installed' | 'reinstalled' }
  | { readonly verdict: 'unchanged'; readonly entries: JobSwitchEntries[] }
  | { readonly verdict: 'differs'; readonly switches: string[] };

export function compareSwitchmlJob(
  topology: Topology,
  sessions: ReadonlyMap<string, SwitchSession>,
  spec: JobSpec,
  plan: RolloutPlan,
  states: readonly SwitchJobState[],
  entryOptions: JobEntryOptions,
): SwitchmlComparison {
  const points = plan.aggregationPoints;
  if (points.length === 0) return { verdict: 'hostOnly' };
  for (const p of points) {
    const session = sessions.get(p.switch);
    if (session) checkValuesPerPacket(session, spec);
  }
  const here = foundIn(states, spec.id);
  if (here.length === 0) return { verdict: 'installed' };
  if (here.length !== points.length || !points.every((p) => here.some((f) => f.allocation.switch === p.switch))) return { verdict: 'reinstalled' };
  const mine = points.map((p) => {
    const f = here.find((h) => h.allocation.switch === p.switch)!;
    // The spec's pool size, not the one read back: a job whose pool changed differs.
    return { f, want: jobSwitchEntries(topology, spec, p, { ...f.allocation, slots: spec.poolSize }, entryOptions) };
  });
  const schema = (sw: string) => sessions.get(sw)!.schema;
  const differs = mine.filter(({ f, want }) => !f.hasGroup || jobEntitiesSignature(schema(f.allocation.switch), f.entries) !== jobEntitiesSignature(schema(f.allocation.switch), want));
  if (differs.length > 0) return { verdict: 'differs', switches: differs.map((d) => d.f.allocation.switch) };
  return { verdict: 'unchanged', entries: mine.map((m) => m.want) };
}
