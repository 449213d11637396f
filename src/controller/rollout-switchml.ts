/**
 * SwitchML's rule: one switch aggregates every worker of the job.
 *
 * - All workers in one rack whose ToR is INA-capable: the ToR.
 * - Workers in several racks: a common ancestor of their racks, that is a
 *   spine or core switch that lies on every shortest path between every two
 *   of the workers' ToRs, if one is INA-capable. With several candidates, the
 *   nearest to the workers (fewest hops in total), then the lower tier, then
 *   the name. A ToR never aggregates for workers outside its rack.
 * - Otherwise, or with more workers than the seen bitmap has bits, no switch:
 *   the job's fallback (ring or parameter server), with the reason.
 *
 * "Every shortest path" is the default because it holds whatever path the
 * network picks. Workers address SwitchML packets to the aggregator itself,
 * so a switch on *some* shortest path between every two racks also works
 * when routing follows the forwarding plan; `ancestorRule: 'some-shortest-path'`
 * allows that (for example one of two spines).
 */
import { SWITCHML_MAX_WORKERS } from '../wire/index.js';
import type { PlacedJob } from './job-placement.js';
import { compareNames } from './names.js';
import { fallbackPlan, listNames, membersAt, plural, rackGroups, workerPlan, type RackGroup } from './rollout-common.js';
import type { RolloutPlan } from './rollout-plan.js';
import { TopologyGraph } from './topology-graph.js';
import type { TopologySwitch } from './topology.js';

export type AncestorRule = 'every-path' | 'some-shortest-path';

const TIER = { tor: 0, spine: 1, core: 2 };

/**
 * What differs between the algorithms that aggregate a whole job in one
 * switch (SwitchML, OmniReduce's switch variant): the name, the workers one
 * switch can track, and what runs where no switch can.
 */
export interface OneSwitchRule {
  readonly algorithm: 'switchml' | 'omnireduce';
  readonly maxWorkers: number;
  readonly ancestorRule: AncestorRule;
  /** Whether an INA-capable switch runs a program that can aggregate for this algorithm (default: every one). */
  readonly capable?: (sw: string) => boolean;
  readonly noSwitch: (reasons: readonly string[]) => RolloutPlan;
}

const PROGRAM: Record<OneSwitchRule['algorithm'], string> = { switchml: 'switchml.p4', omnireduce: 'omnireduce.p4' };

function runsProgram(rule: OneSwitchRule, sw: string): boolean {
  return rule.capable?.(sw) ?? true;
}

function aggregateAt(placed: PlacedJob, sw: TopologySwitch, rule: OneSwitchRule, reasons: string[]): RolloutPlan {
  const members = membersAt(placed, sw.name, placed.workers, (w) => w.rank);
  const outcome = `${sw.name} aggregates all ${plural(placed.workers.length, 'worker')} of job ${placed.job.id}`;
  return {
    jobId: placed.job.id,
    requested: placed.job.algorithm,
    runs: rule.algorithm,
    inNetwork: 'full',
    aggregationPoints: [{ switch: sw.name, scope: 'job', rack: sw.role === 'tor' ? sw.rack : undefined, slots: placed.job.poolSize, members, reason: reasons[0]! }],
    workers: placed.workers.map((w) => workerPlan(w, { role: 'switch-aggregated', aggregationPoint: sw.name, workerId: w.rank })),
    ring: undefined,
    expectedRingLength: undefined,
    parameterServer: undefined,
    atp: undefined,
    reasons: [...reasons, outcome],
  };
}

/** Spine and core switches on every (or some) shortest path between every two of the given ToRs. */
function commonAncestors(placed: PlacedJob, tors: readonly string[], rule: AncestorRule): TopologySwitch[] {
  const graph = TopologyGraph.of(placed.topology);
  const passes = rule === 'every-path' ? graph.onEveryShortestPath.bind(graph) : graph.onSomeShortestPath.bind(graph);
  return [...placed.topology.switches.values()].filter((sw) => {
    if (sw.role === 'tor') return false;
    for (let i = 0; i < tors.length; i++) {
      for (let j = i + 1; j < tors.length; j++) if (!passes(tors[i]!, tors[j]!, sw.name)) return false;
    }
    return true;
  });
}

function nearest(placed: PlacedJob, candidates: readonly TopologySwitch[]): TopologySwitch {
  const graph = TopologyGraph.of(placed.topology);
  const cost = (sw: TopologySwitch): number => placed.workers.reduce((sum, w) => sum + graph.distance(w.host, sw.name), 0);
  return [...candidates].sort((x, y) => cost(x) - cost(y) || TIER[x.role] - TIER[y.role] || compareNames(x.name, y.name))[0]!;
}

function acrossRacks(placed: PlacedJob, groups: readonly RackGroup[], rule: OneSwitchRule): RolloutPlan {
  const rackList = listNames(groups.map((g) => g.rack));
  const span = `workers span racks ${rackList}`;
  const where = rule.ancestorRule === 'every-path' ? 'on every path' : 'on a shortest path';
  const ancestors = commonAncestors(placed, groups.map((g) => g.tor), rule.ancestorRule);
  if (ancestors.length === 0) {
    return rule.noSwitch([`${span}, and no spine or core switch is ${where} between them`]);
  }
  const capable = ancestors.filter((sw) => sw.ina && runsProgram(rule, sw.name));
  if (capable.length === 0) {
    const names = listNames(ancestors.map((sw) => `${sw.role} ${sw.name}`).sort(compareNames));
    const why = ancestors.some((sw) => sw.ina) ? `not INA-capable or not running ${PROGRAM[rule.algorithm]}` : 'not INA-capable';
    return rule.noSwitch([`${span}; ${names} ${ancestors.length === 1 ? 'is' : 'are'} ${where} between them but ${why}`]);
  }
  const chosen = nearest(placed, capable);
  const others = capable.length > 1 ? ` (nearest of ${listNames(capable.map((sw) => sw.name).sort(compareNames))})` : '';
  return aggregateAt(placed, chosen, rule, [`${span}; ${chosen.role} ${chosen.name} is INA-capable and ${where} between them${others}`]);
}

/** One switch for the whole job, as `rule` says, or what runs without one. */
export function planOneSwitch(placed: PlacedJob, rule: OneSwitchRule): RolloutPlan {
  const n = placed.workers.length;
  if (n > rule.maxWorkers) {
    return rule.noSwitch([`${n} workers exceed the ${rule.maxWorkers} that one switch's seen bitmap can track`]);
  }
  const groups = rackGroups(placed);
  if (groups.length > 1) return acrossRacks(placed, groups, rule);
  const only = groups[0]!;
  const tor = placed.topology.switches.get(only.tor)!;
  const all = `all ${plural(n, 'worker')} ${n === 1 ? 'is' : 'are'} in rack ${only.rack}`;
  if (!tor.ina) return rule.noSwitch([`${all}, whose ToR ${tor.name} is not INA-capable`]);
  if (!runsProgram(rule, tor.name)) return rule.noSwitch([`${all}, whose ToR ${tor.name} is INA-capable but does not run ${PROGRAM[rule.algorithm]}`]);
  return aggregateAt(placed, tor, rule, [`${all}, whose ToR ${tor.name} is INA-capable`]);
}

export function planSwitchMl(placed: PlacedJob, ancestorRule: AncestorRule): RolloutPlan {
  return planOneSwitch(placed, { algorithm: 'switchml', maxWorkers: SWITCHML_MAX_WORKERS, ancestorRule, noSwitch: (reasons) => fallbackPlan(placed, reasons) });
}
