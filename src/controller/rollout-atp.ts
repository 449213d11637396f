/**
 * ATP's rollout rule: the levels from atp-levels.ts, then the bits
 * (docs/atp.md, "Roles and levels"). Racks in natural order of their names
 * take the `bitmap1` bits: a level-0 rack one bit, each worker of another
 * rack one bit of its own, by rank. Within a level-0 rack a worker's
 * `bitmap0` bit is its position by rank. The agents' own layout
 * (src/agent/atp/atp-job-layout.ts) numbers the same way from the same rack
 * list, so the parameter server's `--rack` arguments reproduce these bits.
 *
 * The same spec is planned at every rollout stage: with no capable switch
 * every worker is a level-1 contributor of its own and the parameter server
 * sums everything, still as ATP. A stage at which the job would have more
 * than 31 level-1 contributors cannot run it (the 5-bit fan-in), and is
 * refused with ATP_TOO_MANY_CONTRIBUTORS.
 */
import { chooseLevels, type LevelChoice, type NotLevel0 } from './atp-levels.js';
import { ATP_MAX_CONTRIBUTORS } from './atp-limits.js';
import type { AtpContributor, AtpLevel0, AtpPlan, AtpWorkerBits } from './atp-plan.js';
import { ControllerError, ControllerErrorCode as C } from './errors.js';
import type { PlacedJob, PlacedWorker } from './job-placement.js';
import { listNames, membersAt, plural, rackGroups, workerPlan, type RackGroup } from './rollout-common.js';
import type { AggregationPoint, InNetwork, RolloutPlan, WorkerPlan } from './rollout-plan.js';

export interface AtpRolloutOptions {
  /** Whether an INA-capable switch runs atp.p4 (default: every one does). The installer answers from each switch's P4Info. */
  readonly atpCapable?: (sw: string) => boolean;
}

const bitsText = (bits: readonly number[]): string => `${bits.length === 1 ? 'bit' : 'bits'} ${listNames(bits.map(String))}`;

function whyNot(why: NotLevel0, g: RackGroup, psHost: string): string {
  switch (why) {
    case 'not-ina':
      return `ToR ${g.tor} is not INA-capable`;
    case 'no-atp':
      return `ToR ${g.tor} is INA-capable but does not run atp.p4`;
    case 'too-many':
      return `ToR ${g.tor} is INA-capable but its ${g.workers.length} workers exceed ATP's fan-in of ${ATP_MAX_CONTRIBUTORS}`;
    case 'is-level1':
      return `ToR ${g.tor} is the job's level-1 switch (one level per switch)`;
    case 'in-the-way':
      return `ToR ${g.tor} lies between the parameter server on ${psHost} and other contributors, whose packets and ACKs a level-0 entry there would take for its own rack's`;
  }
}

interface Numbered {
  readonly contributors: AtpContributor[];
  readonly level0: AtpLevel0[];
  readonly bits: Map<number, AtpWorkerBits>;
}

function numberBits(groups: readonly RackGroup[], choice: LevelChoice): Numbered {
  const { level0: aggregating, contributors: fanIn1 } = choice.chosen;
  const contributors: AtpContributor[] = [];
  const level0: AtpLevel0[] = [];
  const bits = new Map<number, AtpWorkerBits>();
  const worker = (w: PlacedWorker, fields: Pick<AtpWorkerBits, 'bitmap0Bit' | 'bitmap1Bit' | 'fanIn0'>): AtpWorkerBits => ({ rank: w.rank, host: w.host, ip: w.ip, udpPort: w.udpPort, fanIn1, ...fields });
  for (const g of groups) {
    const ranks = g.workers.map((w) => w.rank);
    if (aggregating.includes(g)) {
      const bitmap1Bit = contributors.length;
      contributors.push({ bitmap1Bit, kind: 'rack', rack: g.rack, ranks, level0: g.tor });
      level0.push({ switch: g.tor, rack: g.rack, ranks, bitmap1Bit });
      g.workers.forEach((w, i) => bits.set(w.rank, worker(w, { bitmap0Bit: i, bitmap1Bit, fanIn0: g.workers.length })));
    } else {
      for (const w of g.workers) {
        const bitmap1Bit = contributors.length;
        contributors.push({ bitmap1Bit, kind: 'worker', rack: g.rack, ranks: [w.rank], level0: undefined });
        bits.set(w.rank, worker(w, { bitmap0Bit: undefined, bitmap1Bit, fanIn0: 0 }));
      }
    }
  }
  return { contributors, level0, bits };
}

function level1Reason(choice: LevelChoice, psHost: string): string | undefined {
  const { chosen, runnersUp, offPath } = choice;
  const n = chosen.contributors;
  if (chosen.level1) {
    const sw = chosen.level1;
    const others = runnersUp.map((o) => o.level1!.name);
    const over = others.length === 0 ? '' : ` (also possible: ${listNames(others)}; ${runnersUp[0]!.level0.length < chosen.level0.length ? `${sw.name} keeps more racks at level 0` : `${sw.name} is nearer the workers, so the sum crosses fewer links`})`;
    return `level 1: ${sw.role} ${sw.name} runs atp.p4 and is on every path between the ${plural(n, 'level-1 contributor')} and the parameter server on ${psHost}; it sums them, so the parameter server gets one packet per sequence${over}`;
  }
  if (n < 2) return undefined;
  const tried = offPath.length === 0 ? 'no other switch runs atp.p4' : `${listNames(offPath)} ${offPath.length === 1 ? 'runs' : 'run'} atp.p4 but ${offPath.length === 1 ? 'is' : 'are'} not on every path`;
  return `no level 1: ${tried} between the ${plural(n, 'level-1 contributor')} and the parameter server on ${psHost}`;
}

function inNetworkOf(plan: AtpPlan): InNetwork {
  if (plan.level0.length === 0 && plan.level1 === undefined) return 'none';
  return plan.level1 !== undefined || plan.fanIn1 === 1 ? 'full' : 'partial';
}

export function planAtp(placed: PlacedJob, options: AtpRolloutOptions = {}): RolloutPlan {
  const ps = placed.parameterServer!;
  const job = placed.job;
  const sharing = placed.workers.find((w) => w.host === ps.host);
  if (sharing) {
    throw ControllerError.of(
      C.ATP_PS_ON_WORKER_HOST,
      '$.parameter_server',
      `the parameter server is on ${ps.host}, the host of worker ${sharing.rank}: that worker's packets would reach it without crossing a switch; put the parameter server on a host of its own`,
    );
  }
  const groups = rackGroups(placed);
  const choice = chooseLevels(placed, groups, options.atpCapable ?? (() => true));
  const chosen = choice.chosen;
  if (chosen.contributors > ATP_MAX_CONTRIBUTORS) {
    throw ControllerError.of(
      C.ATP_TOO_MANY_CONTRIBUTORS,
      '$.workers',
      `job ${job.id} would have ${choice.fewestContributors} level-1 contributors here (racks aggregated at level 0 plus workers of the other racks); ATP's 5-bit fan-in counts at most ${ATP_MAX_CONTRIBUTORS}: make more ToRs aggregate (run atp.p4 on them) or split the job`,
    );
  }
  const { contributors, level0, bits } = numberBits(groups, choice);
  const plan: AtpPlan = { level0, level1: chosen.level1?.name, contributors, workers: [...bits.values()].sort((x, y) => x.rank - y.rank), fanIn1: chosen.contributors };

  const reasons: string[] = [];
  const points: AggregationPoint[] = [];
  for (const g of groups) {
    const rackBits = g.workers.map((w) => bits.get(w.rank)!.bitmap1Bit);
    const why = chosen.notLevel0.get(g.rack);
    if (why === undefined) {
      const reason = `rack ${g.rack}: ToR ${g.tor} aggregates its ${plural(g.workers.length, 'worker')} at level 0, as bitmap1 bit ${rackBits[0]}`;
      reasons.push(reason);
      points.push({ switch: g.tor, scope: 'rack', rack: g.rack, slots: 0, members: membersAt(placed, g.tor, g.workers, (_, i) => i), reason });
    } else {
      const own = g.workers.length === 1 ? 'its worker is a level-1 contributor of its own' : `its ${g.workers.length} workers are level-1 contributors of their own`;
      reasons.push(`rack ${g.rack}: ${whyNot(why, g, ps.host)}; ${own} (${bitsText(rackBits)})`);
    }
  }
  const l1 = level1Reason(choice, ps.host);
  if (l1) reasons.push(l1);
  if (chosen.level1) {
    const sw = chosen.level1;
    points.push({ switch: sw.name, scope: 'job', rack: sw.role === 'tor' ? sw.rack : undefined, slots: 0, members: membersAt(placed, sw.name, placed.workers, (w) => bits.get(w.rank)!.bitmap1Bit), reason: l1! });
  }
  const inNetwork = inNetworkOf(plan);
  reasons.push(
    inNetwork === 'none'
      ? `no switch aggregates: every worker sends to the parameter server on ${ps.host}, which sums in software`
      : inNetwork === 'full'
        ? `the parameter server on ${ps.host} gets one aggregate per sequence`
        : `the parameter server on ${ps.host} gets up to ${plan.fanIn1} pieces per sequence and completes the sum`,
  );
  const workers: WorkerPlan[] = placed.workers.map((w) => {
    const b = bits.get(w.rank)!;
    const tor = level0.find((l) => l.ranks.includes(w.rank));
    if (tor) return workerPlan(w, { role: 'switch-aggregated', aggregationPoint: tor.switch, workerId: b.bitmap0Bit });
    if (plan.level1) return workerPlan(w, { role: 'switch-aggregated', aggregationPoint: plan.level1, workerId: b.bitmap1Bit });
    return workerPlan(w, { role: 'to-host-aggregator' });
  });
  return {
    jobId: job.id,
    requested: 'atp',
    runs: 'atp',
    inNetwork,
    aggregationPoints: points,
    workers,
    ring: undefined,
    expectedRingLength: undefined,
    parameterServer: ps,
    atp: plan,
    reasons,
  };
}
