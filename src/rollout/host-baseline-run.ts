/**
 * The host-only baselines in a loopback sweep: ring AllReduce and
 * hierarchical AllReduce as `p4ina agent` processes over TCP on 127.0.0.1.
 * TCP cannot cross the fabric's UDP wires, so on loopback these runs do not
 * go through the emulated switches (the cell's `runs` says so); in Mininet
 * they cross the same links and switches as every other algorithm. The
 * hierarchical racks are the planner's (rollout-hierarchical.ts).
 */
import { defineJob, planRollout } from '../controller/index.js';
import { hierarchicalAgentArgs } from '../demo/baseline-runs.js';
import { ringAgentArgs } from '../demo/demo-network.js';
import { freeTcpPorts } from '../demo/free-ports.js';
import { runWorkers } from '../demo/worker-runs.js';
import type { RunOutcome } from './rollout-cells.js';
import type { FabricRun } from './fabric-atp-run.js';
import { runOutcome } from './worker-outcomes.js';

const OFF_FABRIC = 'TCP on 127.0.0.1, off the switches';

export async function runRingOnHosts(run: FabricRun): Promise<RunOutcome> {
  const ports = await freeTcpPorts(run.workers.length);
  const argv = run.workers.map((_, rank) => ringAgentArgs(rank, ports, { length: run.elements, seed: run.seed }));
  const outcomes = await runWorkers(run.group, { label: 'rollout-ring', cliEntry: run.cliEntry, argvByRank: argv, timeoutMs: run.timeoutMs, signal: run.signal });
  return runOutcome(`ring (${OFF_FABRIC})`, outcomes);
}

export async function runHierarchicalOnHosts(run: FabricRun): Promise<RunOutcome> {
  const spec = defineJob({ id: 2, algorithm: 'hierarchical', workers: run.workers.map((host, rank) => ({ rank, host, udpPort: 9000 })) });
  const plan = planRollout(run.fabric.topology, spec);
  const racks = plan.workers.map((w) => w.rack);
  const ports = await freeTcpPorts(run.workers.length);
  const argv = run.workers.map((_, rank) => hierarchicalAgentArgs(rank, ports, racks, { length: run.elements, seed: run.seed }));
  const outcomes = await runWorkers(run.group, { label: 'rollout-hierarchical', cliEntry: run.cliEntry, argvByRank: argv, timeoutMs: run.timeoutMs, signal: run.signal });
  return runOutcome(`hierarchical, ${new Set(racks).size} racks (${OFF_FABRIC})`, outcomes);
}
