/**
 * `p4ina controller plan --topology FILE --job FILE… [--ina LIST] [--json]`:
 * the rollout planner's decision for each job, with its reasons, without
 * touching a switch. `--ina` overrides which switches can aggregate (a
 * rollout stage), so one topology file answers every stage.
 */
import { loadJobSpec, loadTopology, planRollout, withInaSwitches, type RolloutPlan, type Topology } from '../controller/index.js';
import { formatRolloutPlan } from '../controller/plan-text.js';

export interface PlanCommandOptions {
  readonly topologyPath: string;
  readonly jobPaths: readonly string[];
  /** Switch names, 'none', or undefined for what the topology file says. */
  readonly ina: string | undefined;
}

function stageOf(topology: Topology, ina: string | undefined): Topology {
  if (ina === undefined) return topology;
  const names = ina === 'none' ? [] : ina.split(',').map((s) => s.trim()).filter(Boolean);
  return withInaSwitches(topology, names);
}

/** Loads the files and plans every job; ControllerError (a P4inaError) for bad files or jobs that cannot be placed. */
export async function planJobs(options: PlanCommandOptions): Promise<RolloutPlan[]> {
  const topology = stageOf(await loadTopology(options.topologyPath), options.ina);
  const jobs = await Promise.all(options.jobPaths.map((p) => loadJobSpec(p)));
  return jobs.map((job) => planRollout(topology, job));
}

export function formatPlans(plans: readonly RolloutPlan[]): string {
  return plans.map(formatRolloutPlan).join('\n');
}
