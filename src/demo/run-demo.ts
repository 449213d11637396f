/**
 * The demo's orchestration (design §3, loopback mode): each algorithm of
 * `--algorithm` in turn, on the same seeded tensors, one row each —
 * SwitchML (switchml-run.ts) and ATP (atp-run.ts) each through their own
 * emulated switch, programmed over P4Runtime by the controller; the ring,
 * hierarchical and parameter-server baselines over TCP (baseline-runs.ts).
 *
 * Everything it starts — child processes, relay sockets, the controller's
 * gRPC channel, the temp directories — is released in `finally`, whether the
 * run worked, failed, or was aborted through `signal` (Ctrl-C). When the demo
 * is killed outright (kill -9), its children stop by themselves (their
 * lifelines, src/run/lifeline.ts); a switch's temp directory is removed as
 * soon as the switch is programmed, and one left by a demo killed earlier is
 * removed by the next run (temp-dir.ts).
 */
import { HierarchicalLayout } from '../agent/baseline/hierarchical-layout.js';
import { P4inaError } from '../errors/p4ina-error.js';
import { failedRun, type DemoAlgorithm, type DemoRow } from '../report/demo-results.js';
import { builtCliEntry } from '../run/package-paths.js';
import { runAtp } from './atp-run.js';
import type { AtpServerSummary } from './atp-server-report.js';
import { runHierarchical, runParameterServer, runRing } from './baseline-runs.js';
import { ChildGroup } from './child-group.js';
import { DEMO_ERROR_CODES } from './demo-error.js';
import { demoHosts } from './demo-network.js';
import { demoRacks, type DemoOptions } from './demo-options.js';
import { interrupted, type DemoHooks, type DemoRunContext } from './demo-run-context.js';
import type { LossyRelay } from './lossy-relay.js';
import { SILENT_PROGRESS } from './progress.js';
import { runSwitchMl } from './switchml-run.js';
import { runOmniReduce } from './omnireduce-run.js';

export type { DemoHooks, DemoRunEvent } from './demo-run-context.js';

export interface DemoOutcome {
  /** One per algorithm, in the order asked for. */
  readonly rows: readonly DemoRow[];
  /** Frames the loss relays dropped (0 without --loss). */
  readonly framesLost: number;
  /** With atp: where its result packets were aggregated, from its parameter server. */
  readonly atp?: AtpServerSummary;
  /** With hierarchical: its racks' hosts, in ring order, each rack's leader first. */
  readonly hierarchical?: { readonly racks: readonly (readonly string[])[] };
}

export async function runDemo(options: DemoOptions, hooks: DemoHooks = {}): Promise<DemoOutcome> {
  const group = hooks.children ?? new ChildGroup();
  const relays: LossyRelay[] = [];
  const ctx: DemoRunContext = {
    options,
    hooks,
    group,
    cliEntry: hooks.cliEntry ?? builtCliEntry(),
    progress: hooks.progress ?? SILENT_PROGRESS,
    hosts: demoHosts(options.workers),
    elements: options.tensorBytes / 4,
    relays,
  };
  const rows: DemoRow[] = [];
  let atp: AtpServerSummary | undefined;
  let hierarchical: DemoOutcome['hierarchical'];
  const runOne = async (algorithm: DemoAlgorithm): Promise<DemoRow> => {
    switch (algorithm) {
      case 'switchml':
        return runSwitchMl(ctx);
      case 'atp': {
        const run = await runAtp(ctx);
        atp = run.server;
        return run.row;
      }
      case 'omnireduce':
        return runOmniReduce(ctx, 'hosts');
      case 'omnireduce-switch':
        return runOmniReduce(ctx, 'switch');
      case 'ps':
        return runParameterServer(ctx);
      case 'hierarchical':
        hierarchical = { racks: new HierarchicalLayout(demoRacks(options)).racks.map((rack) => rack.ranks.map((rank) => ctx.hosts[rank]!.name)) };
        return runHierarchical(ctx);
      case 'ring':
        return runRing(ctx);
    }
  };
  try {
    for (const algorithm of options.algorithms) {
      interrupted(hooks.signal);
      try {
        rows.push(await runOne(algorithm));
      } catch (err) {
        if (!options.keepGoing || !P4inaError.is(err) || err.code === DEMO_ERROR_CODES.interrupted) throw err;
        rows.push(failedRun(algorithm, options.workers, options.tensorBytes, err.message));
      }
    }
    return { rows, framesLost: relays.reduce((sum, r) => sum + r.counters.lost, 0), ...(atp ? { atp } : {}), ...(hierarchical ? { hierarchical } : {}) };
  } finally {
    ctx.progress.update('cleaning up');
    ctx.progress.done();
    await (hooks.children ? group.stopAll() : group.close());
    await Promise.all(relays.map((r) => r.close()));
  }
}
