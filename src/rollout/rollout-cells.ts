/**
 * What one run of one algorithm at one stage gave, and the cell of the sweep
 * that sums up its repeats: the median time (repeats on a shared machine
 * differ by tens of percent; the median is not moved by one slow outlier),
 * the goodput at that time, retransmissions per run, and whether every
 * repeat was exact. A failed repeat is kept with its reason, never dropped.
 */
export const ROLLOUT_ALGORITHMS = ['rina', 'atp', 'hierarchical', 'ring', 'switchml'] as const;
export type RolloutAlgorithm = (typeof ROLLOUT_ALGORITHMS)[number];

export interface RunOutcome {
  /** The slowest worker's AllReduce time, ms; undefined when the run failed. */
  readonly timeMs: number | undefined;
  readonly retransmissions: number | undefined;
  /** Every worker within the algorithm's float64 bound, and all results bit-identical. */
  readonly exact: boolean | undefined;
  /** What the planner made of the request at this stage (e.g. rina → ring with no INA rack). */
  readonly runs: string | undefined;
  readonly failure: string | undefined;
  /** Frames the network's seeded loss dropped during the run (undefined: no loss, or not through the lossy links). */
  readonly framesLost?: number;
}

export interface RolloutCell {
  readonly stage: number;
  readonly inaTors: readonly string[];
  readonly algorithm: RolloutAlgorithm;
  readonly runs: string | undefined;
  readonly repeats: number;
  /** Median over the repeats that worked. */
  readonly timeMs: number | undefined;
  /** Tensor bits per worker over the median time, Mbit/s. */
  readonly goodputMbps: number | undefined;
  /** Mean per repeat that worked. */
  readonly retransmissions: number | undefined;
  /** Repeats that worked and were exact. */
  readonly exactRuns: number;
  readonly failures: readonly string[];
  /** Mean per repeat of the frames the seeded loss dropped; undefined when nothing was lossy. */
  readonly framesLost: number | undefined;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summariseCell(stage: number, inaTors: readonly string[], algorithm: RolloutAlgorithm, tensorBytes: number, outcomes: readonly RunOutcome[]): RolloutCell {
  const worked = outcomes.filter((o) => o.failure === undefined && o.timeMs !== undefined);
  const timeMs = median(worked.map((o) => o.timeMs!));
  const retrans = worked.map((o) => o.retransmissions).filter((r): r is number => r !== undefined);
  const lost = outcomes.map((o) => o.framesLost).filter((l): l is number => l !== undefined);
  return {
    stage,
    inaTors,
    algorithm,
    runs: outcomes.find((o) => o.runs !== undefined)?.runs,
    repeats: outcomes.length,
    timeMs,
    goodputMbps: timeMs && timeMs > 0 ? (tensorBytes * 8) / (timeMs * 1000) : undefined,
    retransmissions: retrans.length ? retrans.reduce((a, b) => a + b, 0) / retrans.length : undefined,
    exactRuns: worked.filter((o) => o.exact === true).length,
    failures: outcomes.flatMap((o) => (o.failure === undefined ? [] : [o.failure])),
    framesLost: lost.length ? lost.reduce((a, b) => a + b, 0) / lost.length : undefined,
  };
}

/** Every repeat ran and was exact. */
export function cellIsExact(cell: RolloutCell): boolean {
  return cell.failures.length === 0 && cell.exactRuns === cell.repeats;
}
