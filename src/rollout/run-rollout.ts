/**
 * The sweep itself, independent of the network it runs on: for each stage
 * (which ToRs are INA-capable), each algorithm and each repeat, ask the
 * network for one run, and sum the repeats into a cell. A run that fails is
 * a cell's failure, reported, never a reason to stop the sweep; Ctrl-C
 * (the signal) stops it and still closes the network.
 */
import type { Progress } from '../demo/progress.js';
import { summariseCell, type RolloutAlgorithm, type RolloutCell, type RunOutcome } from './rollout-cells.js';
import { RolloutError, ROLLOUT_ERROR_CODES } from './rollout-error.js';
import type { PickedStage } from './stage-pick.js';

export interface RolloutRunRequest {
  readonly stage: PickedStage;
  readonly algorithm: RolloutAlgorithm;
  /** 0-based; with the sweep's seed it picks the tensors and the loss pattern of this run. */
  readonly repeat: number;
}

/** Where the runs happen (loopback fabric or Mininet): programs the stage's switches and runs the workers. */
export interface RolloutNetwork {
  run(request: RolloutRunRequest, signal: AbortSignal): Promise<RunOutcome>;
  close(): Promise<void>;
}

export interface SweepPlan {
  readonly stages: readonly PickedStage[];
  readonly algorithms: readonly RolloutAlgorithm[];
  readonly repeats: number;
  readonly tensorBytes: number;
}

function failed(message: string): RunOutcome {
  return { timeMs: undefined, retransmissions: undefined, exact: undefined, runs: undefined, failure: message };
}

/** Runs every cell of the sweep in order; closes the network in every case. */
export async function runSweep(plan: SweepPlan, network: RolloutNetwork, progress: Progress, signal: AbortSignal): Promise<RolloutCell[]> {
  const cells: RolloutCell[] = [];
  const total = plan.stages.length * plan.algorithms.length * plan.repeats;
  let done = 0;
  try {
    for (const stage of plan.stages) {
      for (const algorithm of plan.algorithms) {
        const outcomes: RunOutcome[] = [];
        for (let repeat = 0; repeat < plan.repeats; repeat++) {
          if (signal.aborted) throw new RolloutError(ROLLOUT_ERROR_CODES.interrupted, `interrupted after ${done} of ${total} runs`);
          progress.update(`rollout: run ${done + 1}/${total}: stage ${stage.count} (${stage.inaTors.join(',') || 'no INA ToR'}), ${algorithm}, repeat ${repeat + 1}/${plan.repeats}`);
          let outcome: RunOutcome;
          try {
            outcome = await network.run({ stage, algorithm, repeat }, signal);
          } catch (err) {
            if (signal.aborted) throw new RolloutError(ROLLOUT_ERROR_CODES.interrupted, `interrupted during run ${done + 1} of ${total}`, { cause: err });
            outcome = failed(err instanceof Error ? err.message : String(err));
          }
          outcomes.push(outcome);
          done++;
        }
        cells.push(summariseCell(stage.count, stage.inaTors, algorithm, plan.tensorBytes, outcomes));
      }
    }
    return cells;
  } finally {
    progress.done();
    await network.close();
  }
}
