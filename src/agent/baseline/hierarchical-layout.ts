/**
 * Who does what in hierarchical AllReduce, from the rank → rack assignment
 * alone, so that every worker derives the same answer: each rack's leader is
 * its lowest rank, and the leaders form the ring in order of their ranks (the
 * same order as the controller's plan, rollout-hierarchical.ts).
 */

export interface HierarchicalRack {
  /** The rack's name as given (e.g. "0" or "r1"). */
  readonly name: string;
  /** Its ranks, ascending; the first is the leader. */
  readonly ranks: readonly number[];
}

export class HierarchicalLayout {
  /** In ring order: by leader rank. */
  readonly racks: readonly HierarchicalRack[];
  private readonly rackIndex: readonly number[];

  /** `rackOf[rank]` names each rank's rack; ranks with the same name share a rack. Throws RangeError on an empty name. */
  constructor(rackOf: readonly (string | number)[]) {
    if (rackOf.length === 0) throw new RangeError('a hierarchical job has at least one rank');
    const byName = new Map<string, number[]>();
    rackOf.forEach((label, rank) => {
      const name = String(label);
      if (name === '') throw new RangeError(`rank ${rank} has an empty rack name`);
      const ranks = byName.get(name) ?? [];
      ranks.push(rank);
      byName.set(name, ranks);
    });
    // Ranks were visited in order, so each list is ascending and the map keeps racks in order of their lowest rank.
    this.racks = [...byName.entries()].map(([name, ranks]) => ({ name, ranks }));
    const rackIndex = new Array<number>(rackOf.length);
    this.racks.forEach((rack, index) => rack.ranks.forEach((rank) => (rackIndex[rank] = index)));
    this.rackIndex = rackIndex;
  }

  get worldSize(): number {
    return this.rackIndex.length;
  }

  /** The leaders by ring position. */
  get leaders(): number[] {
    return this.racks.map((rack) => rack.ranks[0]!);
  }

  /** The rack `rank` is in. */
  rackOf(rank: number): HierarchicalRack {
    return this.racks[this.ringPosition(rank)]!;
  }

  /** The position of `rank`'s rack in the leaders' ring. Throws RangeError for a rank outside the job. */
  ringPosition(rank: number): number {
    const index = this.rackIndex[rank];
    if (index === undefined) throw new RangeError(`rank must be in 0..${this.worldSize - 1}, got ${rank}`);
    return index;
  }

  leaderOf(rank: number): number {
    return this.rackOf(rank).ranks[0]!;
  }

  isLeader(rank: number): boolean {
    return this.leaderOf(rank) === rank;
  }
}
