/**
 * From racks to bits (docs/atp.md, "Roles and levels"): which `bitmap0` and
 * `bitmap1` bit and which fan-ins each worker sends, and the level-1
 * contributors the PS covers. Ranks follow the racks in order, then the
 * workers in each rack; contributors (bitmap1 bits) too: an aggregating rack
 * is one contributor, each worker of another rack is one of its own.
 */
import { ATP_MAX_CONTRIBUTORS } from './atp-limits.js';
import type { AtpPlacement } from './atp-options.js';

export interface AtpRack<A> {
  /** Whether the rack's ToR aggregates for the job (it has the job's level-0 entry). */
  readonly aggregating: boolean;
  /** The job's workers in the rack, in rank order (their addresses, for the PS's ACKs). */
  readonly workers: readonly A[];
}

/** One `bitmap1` bit: an aggregating rack, or a single worker of a rack that does not aggregate. */
export interface AtpContributor<A> {
  readonly aggregating: boolean;
  /** Its workers in `bitmap0` order (one, when it does not aggregate). */
  readonly workers: readonly A[];
}

export interface AtpWorkerPlacement extends AtpPlacement {
  readonly rank: number;
}

export interface AtpJobLayout<A> {
  readonly worldSize: number;
  /** Index = `bitmap1` bit. */
  readonly contributors: readonly AtpContributor<A>[];
  /** Index = rank. */
  readonly workers: readonly AtpWorkerPlacement[];
}

/** Lays the job out; RangeError when a level has more than 31 contributors or a rack has no workers. */
export function layoutAtpJob<A>(racks: readonly AtpRack<A>[]): AtpJobLayout<A> {
  const contributors: AtpContributor<A>[] = [];
  for (const [i, rack] of racks.entries()) {
    if (rack.workers.length === 0) throw new RangeError(`rack ${i} has no workers`);
    if (rack.aggregating) {
      if (rack.workers.length > ATP_MAX_CONTRIBUTORS) throw new RangeError(`rack ${i} has ${rack.workers.length} workers; an aggregating ToR takes at most ${ATP_MAX_CONTRIBUTORS} (a 5-bit fan-in)`);
      contributors.push({ aggregating: true, workers: [...rack.workers] });
    } else {
      for (const worker of rack.workers) contributors.push({ aggregating: false, workers: [worker] });
    }
  }
  if (contributors.length === 0) throw new RangeError('a job needs at least one worker');
  if (contributors.length > ATP_MAX_CONTRIBUTORS) {
    throw new RangeError(`the job has ${contributors.length} level-1 contributors (aggregating racks plus workers of the other racks); at most ${ATP_MAX_CONTRIBUTORS} fit a 5-bit fan-in`);
  }
  const fanIn1 = contributors.length;
  const workers: AtpWorkerPlacement[] = [];
  contributors.forEach((c, bit) => {
    c.workers.forEach((_, i) => {
      workers.push(
        c.aggregating
          ? { rank: workers.length, bitmap0Bit: i, bitmap1Bit: bit, fanIn0: c.workers.length, fanIn1 }
          : { rank: workers.length, bitmap0Bit: undefined, bitmap1Bit: bit, fanIn0: 0, fanIn1 },
      );
    });
  });
  return { worldSize: workers.length, contributors, workers };
}
