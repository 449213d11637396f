/**
 * Hierarchical AllReduce in a loopback sweep: `p4ina agent
 * hierarchical-worker` processes over TCP on 127.0.0.1, in the planner's
 * racks (rollout-hierarchical.ts). TCP cannot cross the fabric's UDP wires,
 * so on loopback these runs do not go through the emulated switches (the
 * cell's `runs` says so); in Mininet they cross the same links and switches
 * as every other algorithm.
 */
import { defineJob, planRollout } from '../controller/index.js';
import { hierarchicalAgentArgs } from '../demo/baseline-runs.js';
import { freeTcpPorts } from '../demo/free-ports.js';
import { runWorkers } from '../demo/worker-runs.js';
import type { RunOutcome } from './rollout-cells.js';
import type { FabricRun } from './fabric-atp-run.js';
import { runOutcome } from './worker-outcomes.js';

const OFF_FABRIC = 'TCP on 127.0.0.1, off the switches';

export async function runHierarchicalOnHosts(run: FabricRun): Promise<RunOutcome> {
  const spec = defineJob({ id: 2, algorithm: 'hierarchical', workers: run.workers.map((host, rank) => ({ rank, host, udpPort: 9000 })) });
  const plan = planRollout(run.fabric.topology, spec);
  const racks = plan.workers.map((w) => w.rack);
  const ports = await freeTcpPorts(run.workers.length);
  const argv = run.workers.map((_, rank) => hierarchicalAgentArgs(rank, ports, racks, { length: run.elements, seed: run.seed }));
  const outcomes = await runWorkers(run.group, { label: 'rollout-hierarchical', cliEntry: run.cliEntry, argvByRank: argv, timeoutMs: run.timeoutMs, signal: run.signal });
  return runOutcome(`hierarchical, ${new Set(racks).size} racks (${OFF_FABRIC})`, outcomes);
}
