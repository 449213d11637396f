/**
 * OmniReduce in the demo, one row per variant, both through p4/omnireduce.p4
 * on their own emulated switch (compiled for the demo's block size):
 *
 * - `hosts` (the paper): the switch only forwards; the controller's plan puts
 *   one host aggregator on one more switch port, started first
 *   (`p4ina agent omnireduce-aggregator --transport wire`) and stopped, with
 *   its report, once the workers are done;
 * - `switch`: the controller installs the job in the switch, which then
 *   aggregates; no aggregator process.
 *
 * Then N `omnireduce-worker` processes, their arguments from the plan. The
 * block size is the demo's sparse block (--sparse-block, default 256; for
 * the switch at most 128, see omniReduceDemoBlock), so the zero blocks of
 * --sparsity are whole OmniReduce blocks; the slots are --pool.
 */
import { defineJob, omniReduceAgentCommands, type OmniReduceAgentCommands } from '../controller/index.js';
import { DEFAULT_SPARSE_BLOCK } from '../agent/baseline/sparse-tensor.js';
import { summariseRun, type DemoAlgorithm, type DemoRow } from '../report/demo-results.js';
import { omniReduceSource } from '../run/package-paths.js';
import type { TrackedChild } from './child-group.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import { omniReduceAggregatorDemoArgs, omniReduceAggregatorHost, omniReduceJobInput, omniReduceWorkerDemoArgs, type OmniReduceVariant } from './demo-omnireduce.js';
import { INA_WORKER_NICENESS, interrupted, type DemoRunContext } from './demo-run-context.js';
import { startProgrammedSwitch } from './programmed-switch.js';
import { startServer, stopServer, whenServerExits } from './server-child.js';
import { whenSwitchExits } from './switch-process.js';
import { runWorkerPhase } from './worker-phase.js';

/** omnireduce.p4 takes blocks of 8..128 elements, a multiple of 8 (its OMNIREDUCE_BLOCK). */
const SWITCH_MAX_BLOCK = 128;

/**
 * The block size: the sparse block, or for the switch the largest block it
 * takes that divides the sparse block, so that every zero block of the
 * pattern is still whole zero blocks of the switch.
 */
export function omniReduceDemoBlock(variant: OmniReduceVariant, sparseBlock: number): number {
  if (variant === 'hosts') return sparseBlock;
  for (let block = Math.min(SWITCH_MAX_BLOCK, sparseBlock - (sparseBlock % 8)); block >= 8; block -= 8) if (sparseBlock % block === 0) return block;
  throw new DemoError(DEMO_ERROR_CODES.badOption, `omnireduce-switch: omnireduce.p4 takes blocks of 8 to ${SWITCH_MAX_BLOCK} elements (a multiple of 8) and none divides --sparse-block ${sparseBlock}; choose a multiple of 8`);
}

export async function runOmniReduce(ctx: DemoRunContext, variant: OmniReduceVariant): Promise<DemoRow> {
  const { hosts, options } = ctx;
  const algorithm: DemoAlgorithm = variant === 'hosts' ? 'omnireduce' : 'omnireduce-switch';
  const block = omniReduceDemoBlock(variant, options.sparsity?.blockElements ?? DEFAULT_SPARSE_BLOCK);
  const aggregatorHost = omniReduceAggregatorHost(hosts.length);
  const sw = await startProgrammedSwitch(ctx, {
    source: omniReduceSource(),
    // With host aggregators the switch only forwards: its own block size does not matter.
    defines: variant === 'switch' ? [`OMNIREDUCE_BLOCK=${block}`] : [],
    hosts: variant === 'hosts' ? [...hosts, aggregatorHost] : hosts,
    install: async (installer): Promise<OmniReduceAgentCommands> => {
      const spec = defineJob(omniReduceJobInput(hosts, variant, { slots: options.poolSize, block }));
      const plan = installer.planFor(spec);
      if (variant === 'switch') await installer.setupJob(spec, plan);
      return omniReduceAgentCommands(spec, plan, installer.topology);
    },
  });
  const what = `${algorithm}: the host aggregator`;
  let aggregator: TrackedChild | undefined;
  try {
    const commands = sw.installed;
    const shard = commands.aggregators[0];
    if (shard) {
      ctx.progress.update(`${algorithm}: starting the host aggregator`);
      aggregator = await startServer(ctx, 'omnireduce-aggregator', omniReduceAggregatorDemoArgs(shard.args, aggregatorHost, sw.wires[hosts.length]!), what);
    }
    interrupted(ctx.hooks.signal);
    const during = `while ${algorithm}'s workers were running`;
    const run = { length: ctx.elements, seed: options.seed };
    const outcomes = await runWorkerPhase(ctx, {
      algorithm,
      argvByRank: commands.workers.map((w) => omniReduceWorkerDemoArgs(w.args, hosts[w.rank]!, sw.wires[w.rank]!, run)),
      niceness: INA_WORKER_NICENESS,
      switchChild: sw.process.child,
      fatal: Promise.race([whenSwitchExits(sw.process.child, during), ...(aggregator ? [whenServerExits(aggregator, what, during)] : [])]),
    });
    if (aggregator) await stopServer(ctx, aggregator, what);
    return summariseRun(algorithm, options.tensorBytes, outcomes);
  } finally {
    await ctx.group.stop([...(aggregator ? [aggregator] : []), sw.process.child]);
  }
}
