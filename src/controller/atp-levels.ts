/**
 * Which switches aggregate an ATP job at which level (docs/atp.md, "Roles
 * and levels"), before any bit is numbered. A switch is *capable* when it is
 * INA-capable and runs atp.p4. The rules:
 *
 * - **Level 0** is a rack's ToR, when capable and the rack has at most 31 of
 *   the job's workers. A level-0 ToR must not lie on a path between the
 *   parameter server and any other contributor: atp.p4 takes every
 *   `edgeSwitchIdentifier` 0 packet of the job as its own rack's (another
 *   rack's collided or flushed packet would be counted as a duplicate or
 *   flushed with the wrong sums) and multicasts every ACK of the job to its
 *   rack (another contributor's ACK would never arrive). So the PS's ToR is
 *   level 0 only when the job's workers are all in the PS's rack.
 * - **Level 1** is one capable switch on *every* shortest path between each
 *   level-1 contributor and the PS, so that whichever path a packet or an
 *   ACK takes it passes there: the PS's ToR or a spine. A ToR chosen as
 *   level 1 does not aggregate its own rack at level 0 (one entry per job
 *   per switch); its workers become level-1 contributors of their own.
 *
 * Every option (no level 1, or each capable switch as level 1) is laid out
 * and checked; a valid level 1 beats none (the PS then gets one packet per
 * sequence instead of one per contributor) unless, without it, a single
 * level-0 rack already sends the PS one packet. Among valid level-1 switches
 * the one that keeps more racks at level 0 wins, then the one farthest from
 * the PS (the sum crosses fewer links), then the lower tier, then the name.
 * Every option needs at most 31 level-1 contributors.
 */
import { ATP_MAX_CONTRIBUTORS } from './atp-limits.js';
import type { PlacedHost, PlacedJob } from './job-placement.js';
import { compareNames } from './names.js';
import type { RackGroup } from './rollout-common.js';
import { TopologyGraph } from './topology-graph.js';
import type { TopologySwitch } from './topology.js';

/** Why a rack's ToR does not aggregate it at level 0. */
export type NotLevel0 = 'not-ina' | 'no-atp' | 'too-many' | 'is-level1' | 'in-the-way';

export interface LevelOption {
  readonly level1: TopologySwitch | undefined;
  /** Racks aggregated at level 0, in rack order. */
  readonly level0: readonly RackGroup[];
  readonly notLevel0: ReadonlyMap<string, NotLevel0>;
  /** Level-1 contributors: level-0 racks and the workers of other racks. */
  readonly contributors: number;
}

export interface LevelChoice {
  readonly chosen: LevelOption;
  /** Other switches that could have been level 1 (in preference order). */
  readonly runnersUp: readonly LevelOption[];
  /** Capable spines, cores or the PS's ToR that cannot be level 1 (not on every path, or too many contributors), for the reasons. */
  readonly offPath: readonly string[];
  /** The least contributors any option has (more than 31 means the job cannot run here). */
  readonly fewestContributors: number;
}

const TIER = { tor: 0, spine: 1, core: 2 };

/** The nodes level-1 contributions start from: each level-0 ToR, and each worker of another rack. */
function origins(groups: readonly RackGroup[], level0: readonly RackGroup[]): string[] {
  return groups.flatMap((g) => (level0.includes(g) ? [g.tor] : g.workers.map((w) => w.host)));
}

function layOut(placed: PlacedJob, groups: readonly RackGroup[], capable: (sw: string) => boolean, level1: TopologySwitch | undefined): LevelOption {
  const graph = TopologyGraph.of(placed.topology);
  const ps = placed.parameterServer!;
  const notLevel0 = new Map<string, NotLevel0>();
  const level0: RackGroup[] = [];
  for (const g of groups) {
    if (!g.ina) notLevel0.set(g.rack, 'not-ina');
    else if (!capable(g.tor)) notLevel0.set(g.rack, 'no-atp');
    else if (g.workers.length > ATP_MAX_CONTRIBUTORS) notLevel0.set(g.rack, 'too-many');
    else if (g.tor === level1?.name) notLevel0.set(g.rack, 'is-level1');
    else level0.push(g);
  }
  // Each pass removes one ToR, so there are at most as many passes as racks.
  for (let pass = 0; pass < groups.length; pass++) {
    const others = (g: RackGroup): string[] => origins(groups, level0).filter((o) => o !== g.tor && !g.workers.some((w) => w.host === o));
    const inTheWay = level0.find((g) => others(g).some((o) => graph.onSomeShortestPath(o, ps.host, g.tor)));
    if (!inTheWay) break;
    level0.splice(level0.indexOf(inTheWay), 1);
    notLevel0.set(inTheWay.rack, 'in-the-way');
  }
  return { level1, level0, notLevel0, contributors: origins(groups, level0).length };
}

function validLevel1(placed: PlacedJob, groups: readonly RackGroup[], option: LevelOption): boolean {
  const x = option.level1!.name;
  const graph = TopologyGraph.of(placed.topology);
  const ps: PlacedHost = placed.parameterServer!;
  const from = origins(groups, option.level0);
  return option.contributors >= 2 && option.contributors <= ATP_MAX_CONTRIBUTORS && from.every((o) => o !== x && graph.onEveryShortestPath(o, ps.host, x));
}

/** Lays out every option and picks one (see the file comment); `chosen.contributors` may exceed 31, which the caller refuses. */
export function chooseLevels(placed: PlacedJob, groups: readonly RackGroup[], capable: (sw: string) => boolean): LevelChoice {
  const graph = TopologyGraph.of(placed.topology);
  const ps = placed.parameterServer!;
  const candidates = [...placed.topology.switches.values()].filter((sw) => sw.ina && capable(sw.name)).sort((x, y) => compareNames(x.name, y.name));
  const none = layOut(placed, groups, capable, undefined);
  const options = candidates.map((sw) => layOut(placed, groups, capable, sw));
  const valid = options.filter((o) => validLevel1(placed, groups, o));
  const distance = (o: LevelOption): number => graph.distance(o.level1!.name, ps.host);
  valid.sort((a, b) => b.level0.length - a.level0.length || distance(b) - distance(a) || TIER[a.level1!.role] - TIER[b.level1!.role] || compareNames(a.level1!.name, b.level1!.name));
  // Worth naming: spines, cores and the PS's ToR; another rack's ToR is on no path but its own rack's.
  const workerTors = new Set(groups.map((g) => g.tor).filter((t) => t !== ps.tor));
  const offPath = options.filter((o) => !valid.includes(o) && !workerTors.has(o.level1!.name)).map((o) => o.level1!.name);
  return {
    // With one contributor (a level-0 rack) the PS gets one packet already, and level 0 multicasts the ACK.
    chosen: none.contributors === 1 ? none : (valid[0] ?? none),
    runnersUp: valid.slice(1),
    offPath,
    fewestContributors: Math.min(none.contributors, ...options.map((o) => o.contributors)),
  };
}
