/**
 * The whole `p4ina rollout` run: the network for `--net`, the stages picked
 * by the seed among the ToRs that have workers, the sweep, and the report.
 * The network is closed whatever happens (runSweep closes it). In Mininet
 * (as root) every run is a testbed of its own (mininet-network.ts).
 */
import type { Progress } from '../demo/progress.js';
import { cellIsExact } from './rollout-cells.js';
import type { RolloutOptions } from './rollout-options.js';
import type { RolloutReport } from './rollout-report.js';
import { LoopbackRolloutNetwork } from './loopback-network.js';
import { MininetRolloutNetwork } from './mininet-network.js';
import { runSweep } from './run-rollout.js';
import { pickStages } from './stage-pick.js';

export interface RolloutOutcome {
  readonly report: RolloutReport;
  /** Every cell ran every repeat and was exact. */
  readonly allExact: boolean;
}

export async function runRollout(options: RolloutOptions, progress: Progress, signal: AbortSignal): Promise<RolloutOutcome> {
  let network: LoopbackRolloutNetwork | MininetRolloutNetwork;
  if (options.net === 'mininet') {
    // Throws ROLLOUT_NEEDS_ROOT (not root, no Mininet) before anything starts; each run builds its own testbed.
    network = MininetRolloutNetwork.start(options, progress);
  } else {
    progress.update(`rollout: starting the loopback fabric (${options.topoText})`);
    network = await LoopbackRolloutNetwork.start(options, signal);
  }
  const tors = network.workerTors;
  const counts = options.stages ?? Array.from({ length: tors.length + 1 }, (_, k) => k);
  const stages = pickStages(tors, counts, options.seed);
  const cells = await runSweep({ stages, algorithms: options.algorithms, repeats: options.repeats, tensorBytes: options.tensorBytes }, network, progress, signal);
  const report: RolloutReport = {
    topology: options.topoText,
    net: options.net,
    tors: tors.length,
    workers: network.workers.length,
    tensorBytes: options.tensorBytes,
    repeats: options.repeats,
    seed: options.seed,
    bwMbps: options.bwMbps,
    loss: options.loss,
    algorithms: options.algorithms,
    cells,
  };
  return { report, allExact: cells.every(cellIsExact) };
}
