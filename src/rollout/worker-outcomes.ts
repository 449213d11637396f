/**
 * From the workers' reports of one run to the sweep's RunOutcome: the
 * slowest worker's time, retransmissions summed, and exact when every
 * worker stayed within its algorithm's float64 bound and all results have
 * the same SHA-256 (bit-identical everywhere).
 */
import type { WorkerOutcome } from '../report/demo-results.js';
import type { RunOutcome } from './rollout-cells.js';

export function runOutcome(runs: string, outcomes: readonly WorkerOutcome[]): RunOutcome {
  if (outcomes.length === 0) return { timeMs: undefined, retransmissions: undefined, exact: undefined, runs, failure: 'no worker reported' };
  const digests = new Set(outcomes.map((o) => o.resultSha256));
  const violations = outcomes.reduce((sum, o) => sum + o.boundViolations, 0);
  return {
    timeMs: Math.max(...outcomes.map((o) => o.elapsedMs)),
    retransmissions: outcomes.reduce((sum, o) => sum + o.retransmissions, 0),
    exact: digests.size === 1 && violations === 0,
    runs,
    failure: undefined,
  };
}
