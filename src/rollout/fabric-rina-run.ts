/**
 * One Rina run on the loopback fabric: the controller plans the ring for the
 * stage (an INA rack is one member whose agent is its lowest rank; the other
 * workers are members of their own) and installs the job at the INA ToRs,
 * then one `p4ina agent rina-worker --transport wire` per worker with the
 * ring from the plan. With no INA rack the plan is a plain ring of
 * autonomous workers, over the same agents and through the same switches:
 * that is also how the sweep runs `ring` on loopback, so that ring, Rina and
 * ATP cross the same emulated switches (TCP cannot cross the UDP wires).
 */
import { defineJob, rinaWorkerCommands, type JobSpec } from '../controller/index.js';
import { runWorkers } from '../demo/worker-runs.js';
import { RINA_PORTS } from '../wire/index.js';
import type { RunOutcome } from './rollout-cells.js';
import type { FabricRun } from './fabric-atp-run.js';
import { runOutcome } from './worker-outcomes.js';

const JOB_ID = 4;
/** Slots per INA ToR: each member's window of packets. */
const POOL = 64;

function ringJob(algorithm: 'rina' | 'ring', workers: readonly string[]): JobSpec {
  return defineJob({ id: JOB_ID, name: `rollout-${algorithm}`, algorithm, workers: workers.map((host, rank) => ({ rank, host, udpPort: RINA_PORTS.first + 1 })), poolSize: POOL });
}

export function runRinaOnFabric(run: FabricRun): Promise<RunOutcome> {
  return runRingOfAgents(run, 'rina');
}

/** Ring AllReduce as Rina's autonomous members: UDP with ACKs and retransmission, through the fabric. */
export function runUdpRingOnFabric(run: FabricRun): Promise<RunOutcome> {
  return runRingOfAgents(run, 'ring');
}

async function runRingOfAgents(run: FabricRun, algorithm: 'rina' | 'ring'): Promise<RunOutcome> {
  const spec = ringJob(algorithm, run.workers);
  const installer = await run.fabric.controller();
  try {
    const plan = installer.planFor(spec);
    const installed = plan.aggregationPoints.length > 0;
    if (installed) await installer.setupJob(spec, plan);
    try {
      const argv = rinaWorkerCommands(spec, plan, run.fabric.topology).map((w) => [
        'rina-worker',
        ...w.args,
        ...run.fabric.wireArgs(w.host),
        '--length', String(run.elements),
        '--seed', String(run.seed),
        '--check',
        '--json',
      ]);
      const outcomes = await runWorkers(run.group, { label: 'rollout-rina', cliEntry: run.cliEntry, argvByRank: argv, timeoutMs: run.timeoutMs, signal: run.signal });
      const racks = plan.ring!.filter((m) => m.kind === 'rack').length;
      const what = racks ? `rina, ring of ${plan.ring!.length} (${racks} INA rack${racks > 1 ? 's' : ''})` : `${algorithm === 'rina' ? 'rina = ' : ''}ring of ${plan.ring!.length} (UDP, through the switches)`;
      return runOutcome(what, outcomes);
    } finally {
      if (installed) await installer.teardownJob(spec.id);
    }
  } finally {
    await installer.close();
  }
}
