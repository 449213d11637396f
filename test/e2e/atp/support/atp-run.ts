/**
 * Runs one ATP job end to end on a Fabric: the controller's plan turned into
 * the agents' configurations (atpAgentConfigs), a parameter server
 * (AtpParameterServer) on its host's wire (UdpWireTransport, answering with
 * sendTo through the ToR), one AtpWorker per worker on its
 * wire (UdpWireTransport: frames to the ToR's MAC, addressed to the PS), and
 * every worker's allreduce at once. Everything the run opened is closed
 * before it returns.
 */
import { layoutAtpJob } from '../../../../src/agent/atp/atp-job-layout.js';
import type { AtpStats } from '../../../../src/agent/atp/atp-stats.js';
import { AtpWorker } from '../../../../src/agent/atp/atp-worker.js';
import { AtpParameterServer } from '../../../../src/agent/atp/parameter-server.js';
import type { AtpPsStats } from '../../../../src/agent/atp/ps-stats.js';
import { socketAddress, UdpWireTransport } from '../../../../src/agent/transport/index.js';
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
  const psWire = fabric.wire(ps.host);
  // The PS answers with sendTo; its own address stands in for send()'s destination, which it never uses.
  const psTransport = await UdpWireTransport.open({
    localAddress: '127.0.0.1',
    localPort: psWire.agentSocket,
    peerAddress: '127.0.0.1',
    peerPort: psWire.switchSocket,
    host: { mac: psWire.mac, ip: ps.listenAddress, udpPort: ps.listenPort },
    remote: { mac: psWire.gatewayMac, ip: ps.listenAddress, udpPort: ps.listenPort },
  });
  const layout = layoutAtpJob(ps.racks.map((r) => ({ aggregating: r.aggregating, workers: r.workers.map((w) => socketAddress(w.address, w.port, 'ATP e2e')) })));
  const server = new AtpParameterServer({
    transport: psTransport,
    closeTransport: true,
    jobs: [{ jobId: ps.jobId, poolSize: ps.poolSize, contributors: layout.contributors, elementsPerPacket: ps.elementsPerPacket, maxWindow: ps.maxWindow, valueRange: ps.valueRange }],
  });
  const agents: AtpWorker[] = [];
  try {
    for (const w of workers) {
      const wire = fabric.wire(w.host);
      const transport = await UdpWireTransport.open({
        localAddress: '127.0.0.1',
        localPort: wire.agentSocket,
        peerAddress: '127.0.0.1',
        peerPort: wire.switchSocket,
        host: { mac: wire.mac, ip: w.localAddress, udpPort: w.localPort },
        remote: { mac: wire.gatewayMac, ip: w.psAddress, udpPort: w.psPort },
      });
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
