/**
 * SwitchML in the demo: p4/switchml.p4 compiled for the run's values per
 * packet (-DSWITCHML_ELEMENTS=E) on its own switch, the controller's SwitchML
 * job of every worker with the same E (the installer checks it against the
 * P4Info), N `p4ina agent switchml --transport wire --elements E` processes;
 * the switch is stopped once they are done.
 */
import { defineJob } from '../controller/index.js';
import { summariseRun, type DemoRow } from '../report/demo-results.js';
import { switchMlSource } from '../run/package-paths.js';
import { demoJobInput, switchMlAgentArgs } from './demo-network.js';
import { INA_WORKER_NICENESS, type DemoRunContext } from './demo-run-context.js';
import { startProgrammedSwitch } from './programmed-switch.js';
import { whenSwitchExits } from './switch-process.js';
import { runWorkerPhase } from './worker-phase.js';

export async function runSwitchMl(ctx: DemoRunContext): Promise<DemoRow> {
  const { hosts, options } = ctx;
  const sw = await startProgrammedSwitch(ctx, {
    source: switchMlSource(),
    defines: [`SWITCHML_ELEMENTS=${options.switchMlElements}`],
    hosts,
    install: async (installer) => {
      await installer.setupJob(defineJob(demoJobInput(hosts, options.poolSize, options.switchMlElements)));
    },
  });
  try {
    const run = { workers: hosts.length, poolSize: options.poolSize, elements: options.switchMlElements, length: ctx.elements, seed: options.seed, udpIo: options.udpIo };
    const outcomes = await runWorkerPhase(ctx, {
      algorithm: 'switchml',
      argvByRank: hosts.map((h, rank) => [...switchMlAgentArgs(h, sw.wires[rank]!, run), ...(ctx.hooks.extraSwitchMlArgs?.(rank) ?? [])]),
      niceness: INA_WORKER_NICENESS,
      switchChild: sw.process.child,
      fatal: whenSwitchExits(sw.process.child, "while switchml's workers were running"),
    });
    return summariseRun('switchml', options.tensorBytes, outcomes);
  } finally {
    await ctx.group.stop([sw.process.child]);
  }
}
