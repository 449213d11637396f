/**
 * One SwitchML run on the loopback fabric. SwitchML aggregates a job on one
 * switch that every worker's path crosses (rollout-switchml.ts); when the
 * stage has none (on a leaf-spine, only ToRs are upgraded, so a job across
 * racks never has one) the planner falls back, and the fallback runs here as
 * the job's `fallback` algorithm (ring) and says so in the cell.
 */
import { defineJob } from '../controller/index.js';
import { runWorkers } from '../demo/worker-runs.js';
import { SWITCHML_DEFAULT_ELEMENTS, SWITCHML_PORTS } from '../wire/index.js';
import type { RunOutcome } from './rollout-cells.js';
import type { FabricRun } from './fabric-atp-run.js';
import { runUdpRingOnFabric } from './fabric-rina-run.js';
import { runOutcome } from './worker-outcomes.js';

const JOB_ID = 3;
/** Workers' window of slots (the demo's default). */
const POOL = 32;

export async function runSwitchMlOnFabric(run: FabricRun): Promise<RunOutcome> {
  const spec = defineJob({
    id: JOB_ID,
    name: 'rollout-switchml',
    algorithm: 'switchml',
    workers: run.workers.map((host, rank) => ({ rank, host, udpPort: 40000 + rank })),
    poolSize: POOL,
    elementsPerPacket: SWITCHML_DEFAULT_ELEMENTS,
  });
  const installer = await run.fabric.controller();
  let plan;
  try {
    plan = installer.planFor(spec);
  } catch (err) {
    await installer.close();
    throw err;
  }
  const point = plan.aggregationPoints[0];
  if (plan.runs !== 'switchml' || point === undefined) {
    // The fallback's own controller takes the switches (one primary per election id).
    await installer.close();
    const ring = await runUdpRingOnFabric(run);
    return { ...ring, runs: `${plan.runs} as fallback, no INA switch on every path: ${ring.runs}` };
  }
  try {
    await installer.setupJob(spec, plan);
    try {
      const sw = run.fabric.topology.switches.get(point.switch)!;
      const argv = run.workers.map((name, rank) => {
        const host = run.fabric.host(name);
        return [
          'switchml',
          '--transport', 'wire',
          '--local', `${host.localAddress}:${host.localPort}`,
          '--peer', `${host.peerAddress}:${host.peerPort}`,
          '--mac', host.mac,
          '--ip', host.ip,
          '--udp-port', String(spec.workers[rank]!.udpPort),
          '--switch-mac', run.fabric.nextHopMac(name, point.switch),
          '--switch-ip', sw.ipText!,
          '--switch-udp-port', String(SWITCHML_PORTS.first),
          '--job', String(JOB_ID),
          '--worker', String(rank),
          '--workers', String(run.workers.length),
          '--pool', String(POOL),
          '--length', String(run.elements),
          '--seed', String(run.seed),
          '--check',
          '--json',
        ];
      });
      const outcomes = await runWorkers(run.group, { label: 'rollout-switchml', cliEntry: run.cliEntry, argvByRank: argv, timeoutMs: run.timeoutMs, signal: run.signal });
      return runOutcome(`switchml at ${point.switch}`, outcomes);
    } finally {
      await installer.teardownJob(spec.id);
    }
  } finally {
    await installer.close();
  }
}
