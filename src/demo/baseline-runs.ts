/**
 * The baselines in the demo, over TCP on 127.0.0.1 with no switch: ring
 * AllReduce (N `p4ina agent ring`), hierarchical AllReduce (N `p4ina agent
 * hierarchical-worker` in the racks of demoRacks), and the parameter server
 * (`p4ina agent ps-server` for one round, then N `ps-worker`).
 */
import { summariseRun, type DemoRow } from '../report/demo-results.js';
import { JSON_LISTENING, startAnnouncedChild } from './announced-child.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import { psServerArgs, psWorkerArgs, ringAgentArgs } from './demo-network.js';
import { demoRacks } from './demo-options.js';
import type { DemoRunContext } from './demo-run-context.js';
import { freeTcpPorts } from './free-ports.js';
import { runWorkerPhase } from './worker-phase.js';

const SERVER_START_TIMEOUT_MS = 30_000;

export async function runRing(ctx: DemoRunContext): Promise<DemoRow> {
  const run = { length: ctx.elements, seed: ctx.options.seed };
  const tcpPorts = await freeTcpPorts(ctx.hosts.length);
  const outcomes = await runWorkerPhase(ctx, { algorithm: 'ring', argvByRank: ctx.hosts.map((_, rank) => ringAgentArgs(rank, tcpPorts, run)) });
  return summariseRun('ring', ctx.options.tensorBytes, outcomes);
}

/** Arguments of `p4ina agent hierarchical-worker` for one rank, given every rank's TCP port and rack. */
export function hierarchicalAgentArgs(rank: number, tcpPorts: readonly number[], racks: readonly string[], run: { length: number; seed: number | string }): string[] {
  return [
    'hierarchical-worker',
    '--rank', String(rank),
    '--world', String(tcpPorts.length),
    '--peers', tcpPorts.map((p) => `127.0.0.1:${p}`).join(','),
    '--racks', racks.join(','),
    '--length', String(run.length),
    '--seed', String(run.seed),
    '--check',
    '--json',
  ];
}

export async function runHierarchical(ctx: DemoRunContext): Promise<DemoRow> {
  const run = { length: ctx.elements, seed: ctx.options.seed };
  const racks = demoRacks(ctx.options);
  const tcpPorts = await freeTcpPorts(ctx.hosts.length);
  const outcomes = await runWorkerPhase(ctx, { algorithm: 'hierarchical', argvByRank: ctx.hosts.map((_, rank) => hierarchicalAgentArgs(rank, tcpPorts, racks, run)) });
  return summariseRun('hierarchical', ctx.options.tensorBytes, outcomes);
}

export async function runParameterServer(ctx: DemoRunContext): Promise<DemoRow> {
  const n = ctx.hosts.length;
  const run = { length: ctx.elements, seed: ctx.options.seed };
  ctx.progress.update('ps: starting the parameter server');
  const server = await startAnnouncedChild(ctx.group, {
    name: 'ps-server',
    command: process.execPath,
    args: [ctx.cliEntry, 'agent', ...psServerArgs(n)],
    announcement: JSON_LISTENING,
    startTimeoutMs: SERVER_START_TIMEOUT_MS,
    signal: ctx.hooks.signal,
    what: "ps's parameter server",
    failed: (message) => new DemoError(DEMO_ERROR_CODES.worker, message),
  });
  try {
    // The server serves one round and exits by itself; a server that fails makes its workers fail.
    const outcomes = await runWorkerPhase(ctx, { algorithm: 'ps', argvByRank: ctx.hosts.map((_, rank) => psWorkerArgs(rank, n, server.address, run)) });
    return summariseRun('ps', ctx.options.tensorBytes, outcomes);
  } finally {
    await ctx.group.stop([server.child]);
  }
}
