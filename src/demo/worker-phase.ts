/**
 * The part of every algorithm's run where its workers run: the progress line
 * (with a heartbeat), the onRun hooks around them when a switch is involved,
 * runWorkers, and the error to report when the switch died under them.
 */
import type { WorkerOutcome } from '../report/demo-results.js';
import type { DemoAlgorithm } from '../report/demo-results.js';
import type { TrackedChild } from './child-group.js';
import type { DemoRunContext } from './demo-run-context.js';
import { switchExitError } from './switch-process.js';
import { runWorkers } from './worker-runs.js';
import { sparsityArgs } from '../agent/baseline/sparsity-args.js';

export interface WorkerPhase {
  readonly algorithm: DemoAlgorithm;
  /** argv after `p4ina agent`, by rank. */
  readonly argvByRank: readonly (readonly string[])[];
  readonly niceness?: number;
  /** The switch the workers talk through, if any. */
  readonly switchChild?: TrackedChild;
  /** Rejects when the run cannot go on (the switch or a server it needs exited). */
  readonly fatal?: Promise<never>;
}

export async function runWorkerPhase(ctx: DemoRunContext, phase: WorkerPhase): Promise<WorkerOutcome[]> {
  const { algorithm, switchChild } = phase;
  const signal = ctx.hooks.signal;
  const label = `${algorithm}: ${ctx.hosts.length} workers × ${ctx.elements} floats`;
  let stage = `${label}: running`;
  const started = Date.now();
  const elapsed = (): string => `(${((Date.now() - started) / 1000).toFixed(0)} s)`;
  ctx.progress.update(stage, elapsed());
  const heartbeat = setInterval(() => ctx.progress.update(stage, elapsed()), 1000);
  try {
    if (switchChild) await ctx.hooks.onRun?.({ algorithm, phase: 'start', switchProcess: switchChild });
    let outcomes: WorkerOutcome[];
    try {
      outcomes = await runWorkers(ctx.group, {
        label: algorithm,
        cliEntry: ctx.cliEntry,
        // Every algorithm reduces the same tensors: dense, or block-sparse as --sparsity says.
        argvByRank: phase.argvByRank.map((argv) => [...argv, ...sparsityArgs(ctx.options.sparsity)]),
        timeoutMs: ctx.options.runTimeoutMs,
        signal,
        niceness: phase.niceness ?? 0,
        fatal: phase.fatal,
        onProgress: (done, total) => ctx.progress.update((stage = `${label}: ${done}/${total} workers done`), elapsed()),
      });
    } catch (err) {
      // Workers that failed because the switch died: the switch's exit is the news.
      throw (switchChild && !signal?.aborted ? switchExitError(switchChild, `while ${algorithm}'s workers were running`) : undefined) ?? err;
    }
    if (switchChild) await ctx.hooks.onRun?.({ algorithm, phase: 'end', switchProcess: switchChild });
    return outcomes;
  } finally {
    clearInterval(heartbeat);
  }
}
