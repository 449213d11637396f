/**
 * ATP in the demo: p4/atp.p4 on its own switch with the parameter server
 * (PS) on one more port, the controller's forwarding and ATP job (the job's
 * level-0 entry, multicast group and ACK rewrites), the agents' arguments
 * from its plan, the PS (`p4ina agent atp-ps --transport wire`) started
 * first, then N `atp-worker` processes. Once they are done the PS is stopped
 * (SIGTERM: it prints its report and exits) and its statistics say how many
 * result packets the switch aggregated whole and how many the PS summed from
 * pieces (collided, resent or partial aggregates).
 */
import { atpAgentConfigs, defineJob, type AtpAgentConfigs } from '../controller/index.js';
import { summariseRun, type DemoRow } from '../report/demo-results.js';
import { atpSource } from '../run/package-paths.js';
import type { TrackedChild } from './child-group.js';
import { atpJobInput, atpPsDemoArgs, atpPsHost, atpWorkerDemoArgs } from './demo-atp.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import { INA_WORKER_NICENESS, interrupted, type DemoRunContext } from './demo-run-context.js';
import { startProgrammedSwitch } from './programmed-switch.js';
import { startServer, stopServer, whenServerExits } from './server-child.js';
import { whenSwitchExits } from './switch-process.js';
import { runWorkerPhase } from './worker-phase.js';
import { parseAtpServerReport, type AtpServerSummary } from './atp-server-report.js';

const PS = 'atp: the parameter server';

export interface AtpRun {
  readonly row: DemoRow;
  readonly server: AtpServerSummary;
}

export async function runAtp(ctx: DemoRunContext): Promise<AtpRun> {
  const { hosts, options } = ctx;
  const ps = atpPsHost(hosts.length);
  const sw = await startProgrammedSwitch(ctx, {
    source: atpSource(),
    hosts: [...hosts, ps],
    install: async (installer): Promise<AtpAgentConfigs> => {
      const spec = defineJob(atpJobInput(hosts, ps, options.poolSize));
      const plan = installer.planFor(spec);
      await installer.setupJob(spec, plan);
      return atpAgentConfigs(spec, plan);
    },
  });
  let server: TrackedChild | undefined;
  try {
    const configs = sw.installed;
    ctx.progress.update('atp: starting the parameter server');
    server = await startServer(ctx, 'atp-ps', atpPsDemoArgs(configs.ps, ps, sw.wires[hosts.length]!), "atp's parameter server");
    interrupted(ctx.hooks.signal);
    const during = "while atp's workers were running";
    const run = { length: ctx.elements, seed: options.seed };
    const outcomes = await runWorkerPhase(ctx, {
      algorithm: 'atp',
      argvByRank: configs.workers.map((config, rank) => atpWorkerDemoArgs(config, hosts[rank]!, sw.wires[rank]!, run)),
      niceness: INA_WORKER_NICENESS,
      switchChild: sw.process.child,
      fatal: Promise.race([whenSwitchExits(sw.process.child, during), whenServerExits(server, PS, during)]),
    });
    const summary = serverSummary(await stopServer(ctx, server, PS));
    return { row: summariseRun('atp', options.tensorBytes, outcomes), server: summary };
  } finally {
    await ctx.group.stop([...(server ? [server] : []), sw.process.child]);
  }
}

/** What the PS aggregated, from the report it printed when stopped. */
function serverSummary(stdout: string): AtpServerSummary {
  try {
    return parseAtpServerReport(stdout);
  } catch (err) {
    throw new DemoError(DEMO_ERROR_CODES.worker, `${PS}'s report: ${(err as Error).message}`);
  }
}
