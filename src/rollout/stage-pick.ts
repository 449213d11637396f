/**
 * Which ToRs are INA-capable at each stage of a rollout sweep: a seeded order
 * of the ToRs that have workers, and stage k takes its first k. Stages are
 * nested (stage k+1 adds one ToR to stage k), as a real rollout upgrades
 * racks one at a time, and the same seed picks the same racks on every run
 * and in both network modes.
 */
import { SeededRandom } from '../util/seeded-random.js';

export interface PickedStage {
  /** How many ToRs are INA-capable. */
  readonly count: number;
  /** Which, in the order they were upgraded. */
  readonly inaTors: readonly string[];
}

/** The ToRs in upgrade order for `seed` (a Fisher–Yates shuffle of `tors` in the order given). */
export function upgradeOrder(tors: readonly string[], seed: number | string): string[] {
  const order = [...tors];
  const random = new SeededRandom(seed).derive('rollout-upgrade-order');
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.nextInt(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** One stage per count; a count above the number of ToRs is a misuse (the options check it first). */
export function pickStages(tors: readonly string[], counts: readonly number[], seed: number | string): PickedStage[] {
  const order = upgradeOrder(tors, seed);
  return counts.map((count) => {
    if (!Number.isInteger(count) || count < 0 || count > order.length) throw new RangeError(`stage ${count}: there are ${order.length} ToRs`);
    return { count, inaTors: order.slice(0, count) };
  });
}
