/**
 * One wanted job against what the switches hold, whatever its algorithm
 * (for reconcile.ts): each kind's own comparison (switchml-reconcile.ts,
 * atp-reconcile.ts, rina-reconcile.ts, omnireduce-reconcile.ts), and the job
 * adopted as it is found when it is unchanged. Algorithms that put no state
 * in switches (ring, ps, hierarchical) plan no aggregation point and compare
 * as SwitchML jobs do: host-only.
 */
import type { CapacityAllocator } from '../capacity.js';
import type { JobSpec } from '../job.js';
import type { RolloutPlan } from '../rollout-plan.js';
import { compareAtpJob } from './atp-reconcile.js';
import type { AnyInstalledJob } from './installed-job.js';
import { compareOmniReduceJob } from './omnireduce-reconcile.js';
import type { JobKind, ReconcileStates } from './reconcile-states.js';
import { compareRinaJob } from './rina-reconcile.js';
import { compareSwitchmlJob } from './switchml-reconcile.js';
import type { JobContext } from './switchml-job.js';

export type Comparison =
  | { readonly verdict: 'hostOnly' | 'installed' | 'reinstalled' }
  | { readonly verdict: 'unchanged'; readonly job: AnyInstalledJob }
  | { readonly verdict: 'differs'; readonly switches: string[] };

/** The kind of switch state a spec's algorithm installs. */
export function kindOf(spec: JobSpec): JobKind {
  return spec.algorithm === 'atp' || spec.algorithm === 'rina' || spec.algorithm === 'omnireduce' ? spec.algorithm : 'switchml';
}

export function compareWanted(
  ctx: Pick<JobContext, 'topology' | 'sessions' | 'entryOptions'>,
  allocator: CapacityAllocator,
  states: ReconcileStates,
  spec: JobSpec,
  plan: RolloutPlan,
): Comparison {
  const { topology, sessions } = ctx;
  const held = () => ({ spec, plan, allocation: allocator.allocation(spec.id)!, cellsCleared: 0 });
  switch (kindOf(spec)) {
    case 'atp': {
      const c = compareAtpJob(topology, sessions, spec, plan, states.atp);
      return c.verdict === 'unchanged' ? { verdict: c.verdict, job: { ...held(), algorithm: 'atp', switches: c.entries } } : c;
    }
    case 'rina': {
      const c = compareRinaJob(topology, sessions, spec, plan, states.rina);
      return c.verdict === 'unchanged' ? { verdict: c.verdict, job: { ...held(), algorithm: 'rina', switches: c.entries } } : c;
    }
    case 'omnireduce': {
      const c = compareOmniReduceJob(topology, sessions, spec, plan, states.omnireduce);
      return c.verdict === 'unchanged' ? { verdict: c.verdict, job: { ...held(), algorithm: 'omnireduce', switches: c.entries } } : c;
    }
    case 'switchml': {
      const c = compareSwitchmlJob(topology, sessions, spec, plan, states.switchml, ctx.entryOptions);
      return c.verdict === 'unchanged' ? { verdict: c.verdict, job: { ...held(), algorithm: 'switchml', switches: c.entries } } : c;
    }
  }
}
