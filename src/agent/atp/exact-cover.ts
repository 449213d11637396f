/**
 * The PS's completion test (docs/atp.md, "The parameter server"): among the
 * pieces of a sequence, find pairwise disjoint ones whose union is every
 * worker. Coverage is one 32-bit mask per level-1 contributor (bitmap1 bit):
 * the contributor's workers by `bitmap0` bit, or bit 0 for a contributor that
 * is a single worker.
 *
 * Search: take the first worker no chosen piece covers, try in turn each
 * piece that covers it and is disjoint from those chosen, recurse. Every
 * cover is found this way (the worker must be in exactly one of its pieces),
 * and pieces that arrived first are tried first. The number of steps is
 * bounded (`budget`); a search that runs out answers "none" and counts it, and
 * the next piece starts a new one. That cannot stall a sequence: the PS
 * always keeps singletons (one worker's own contribution), and checks the
 * cover made of singletons alone before it searches.
 */

export interface Coverage {
  /** Per contributor, the workers covered (a mask). */
  readonly masks: Uint32Array;
}

export interface CoverSearchResult {
  /** Indices into the pieces, in the order chosen; undefined when no cover was found. */
  readonly cover: number[] | undefined;
  /** True when the search stopped at its budget. */
  readonly exhausted: boolean;
}

/** True when `a` and `b` share no worker. */
export function disjoint(a: Uint32Array, b: Uint32Array): boolean {
  for (let j = 0; j < a.length; j++) if ((a[j]! & b[j]!) !== 0) return false;
  return true;
}

/** True when `a` and `b` cover the same workers. */
export function sameCoverage(a: Uint32Array, b: Uint32Array): boolean {
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  return true;
}

/** Workers covered, by popcount. */
export function coveredCount(a: Uint32Array): number {
  let n = 0;
  for (let j = 0; j < a.length; j++) {
    let x = a[j]!;
    while (x !== 0) {
      x &= x - 1;
      n++;
    }
  }
  return n;
}

/** Finds pairwise disjoint pieces whose union equals `full`, within `budget` steps. */
export function findExactCover(pieces: readonly Coverage[], full: Uint32Array, budget: number): CoverSearchResult {
  const m = full.length;
  const union = new Uint32Array(m);
  const chosen: number[] = [];
  let steps = 0;
  let exhausted = false;

  // Quick refusal: the pieces together must reach every worker.
  const all = new Uint32Array(m);
  for (const p of pieces) for (let j = 0; j < m; j++) all[j] = all[j]! | p.masks[j]!;
  if (!sameCoverage(all, full)) return { cover: undefined, exhausted: false };

  const search = (): boolean => {
    if (++steps > budget) {
      exhausted = true;
      return false;
    }
    let j = 0;
    while (j < m && union[j] === full[j]) j++;
    if (j === m) return true;
    const missing = full[j]! & ~union[j]!;
    const bit = missing & -missing;
    for (let i = 0; i < pieces.length && !exhausted; i++) {
      const masks = pieces[i]!.masks;
      if ((masks[j]! & bit) === 0 || !disjoint(masks, union)) continue;
      for (let k = 0; k < m; k++) union[k] = union[k]! | masks[k]!;
      chosen.push(i);
      if (search()) return true;
      chosen.pop();
      for (let k = 0; k < m; k++) union[k] = union[k]! & ~masks[k]!;
    }
    return false;
  };
  const found = search();
  return { cover: found ? chosen : undefined, exhausted };
}
