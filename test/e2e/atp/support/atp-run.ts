/**
 * Runs one ATP job end to end on a Fabric: the controller's plan turned into
 * the agents' configurations (atpAgentConfigs), a parameter server
 * (AtpParameterServer) on its host's wire (the fabric's agentWire opened as
 * the agents' --transport wire does, answering with sendTo through the ToR),
 * one AtpWorker per worker on its wire (frames to the ToR's MAC, addressed
 * to the PS), and every worker's allreduce at once. Everything the run
 * opened is closed before it returns.
 */
import { layoutAtpJob } from '../../../../src/agent/atp/atp-job-layout.js';
import type { AtpStats } from '../../../../src/agent/atp/atp-stats.js';
import { AtpWorker } from '../../../../src/agent/atp/atp-worker.js';
import { AtpParameterServer } from '../../../../src/agent/atp/parameter-server.js';
import type { AtpPsStats } from '../../../../src/agent/atp/ps-stats.js';
import { openAtpWire } from '../../../../src/agent/atp/wire-args.js';
import { socketAddress } from '../../../../src/agent/transport/index.js';
import { atpAgentConfigs, type JobSpec, type RolloutPlan } from '../../../../src/controller/index.js';
import type { Fabric } from './fabric.js';

export interface AtpRunOutcome {
  readonly results: Float32Array[];
  readonly workerStats: AtpStats[];
  readonly ps: AtpPsStats;
}

export interface RunningAtpJob {
  readonly outcome: Promise<AtpRunOutcome>;
}

/** Starts the job's agents and every worker's call; the promise settles once all are done and closed. */
export async function startAtpJob(fabric: Fabric, spec: JobSpec, plan: RolloutPlan, tensors: readonly Float32Array[]): Promise<RunningAtpJob> {
  const { workers, ps } = atpAgentConfigs(spec, plan);
  const own = { address: ps.listenAddress, port: ps.listenPort };
  // The PS answers with sendTo; its own address stands in for send()'s destination, which it never uses.
  const psTransport = await openAtpWire(fabric.agentWire(ps.host), own, own);
  const layout = layoutAtpJob(ps.racks.map((r) => ({ aggregating: r.aggregating, workers: r.workers.map((w) => socketAddress(w.address, w.port, 'ATP e2e')) })));
  const server = new AtpParameterServer({
    transport: psTransport,
    closeTransport: true,
    jobs: [{ jobId: ps.jobId, poolSize: ps.poolSize, contributors: layout.contributors, elementsPerPacket: ps.elementsPerPacket, maxWindow: ps.maxWindow, valueRange: ps.valueRange }],
  });
  const agents: AtpWorker[] = [];
  try {
    for (const w of workers) {
      const transport = await openAtpWire(fabric.agentWire(w.host), { address: w.localAddress, port: w.localPort }, { address: w.psAddress, port: w.psPort });
      agents.push(new AtpWorker({ ...w, transport, closeTransport: true }));
    }
  } catch (err) {
    await Promise.allSettled([...agents.map((a) => a.close()), server.close()]);
    throw err;
  }
  const outcome = (async (): Promise<AtpRunOutcome> => {
    try {
      const done = await Promise.all(agents.map((a, rank) => a.allreduce(tensors[rank]!)));
      return { results: done.map((d) => d.result), workerStats: done.map((d) => d.stats), ps: { ...server.stats } };
    } finally {
      await Promise.allSettled([...agents.map((a) => a.close()), server.close()]);
    }
  })();
  return { outcome };
}
