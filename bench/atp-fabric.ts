/**
 * One emulated atp.p4 switch in this process for the multi-job benchmark,
 * set up the way test/e2e/atp does it (its own code, not imported from
 * test/): launchSwitch (SwitchDevice and its P4Runtime server on 127.0.0.1)
 * with one UDP wire on 127.0.0.1 per host, the real controller (Installer
 * over gRPC) pushing the pipeline, forwarding and each ATP job, and the
 * agents (AtpWorker, AtpParameterServer) on the hosts' wires, configured
 * from the controller's plan (atpAgentConfigs) plus a pool base of our own
 * for a static split.
 */
import { pino } from 'pino';
import { layoutAtpJob } from '../src/agent/atp/atp-job-layout.js';
import type { AtpStats } from '../src/agent/atp/atp-stats.js';
import { AtpWorker } from '../src/agent/atp/atp-worker.js';
import { AtpParameterServer } from '../src/agent/atp/parameter-server.js';
import type { AtpPsStats } from '../src/agent/atp/ps-stats.js';
import { socketAddress, UdpWireTransport } from '../src/agent/transport/index.js';
import { atpAgentConfigs, defineJob, parseTopology, type JobSpec } from '../src/controller/index.js';
import { Installer, ProgramCache, type AtpInstalledJob } from '../src/controller/install/index.js';
import { freeUdpPorts } from '../src/demo/free-ports.js';
import { compilePipeline } from '../src/p4c/index.js';
import { atpSource } from '../src/run/package-paths.js';
import { launchSwitch, type LaunchedSwitch } from '../src/switch/device/switch-launcher.js';

const QUIET = pino({ level: 'silent' });
const SWITCH = { name: 's1', ip: '10.0.200.254', mac: '02:00:00:00:c0:fe' };
const PS_PORT = 0xbf00;

interface HostWire {
  readonly ip: string;
  readonly mac: string;
  /** The agent's socket and the switch port's socket it talks to. */
  readonly agentSocket: number;
  readonly switchSocket: number;
}

export interface AtpBenchJob {
  readonly id: number;
  /** Aggregators the job hashes over, from `poolBase`. */
  readonly poolSize: number;
  readonly poolBase: number;
  /** One tensor per worker. */
  readonly tensors: readonly Float32Array[];
}

export interface AtpJobOutcome {
  readonly results: Float32Array[];
  readonly workerStats: AtpStats[];
  readonly ps: AtpPsStats;
  /** From the first worker's call starting to the last one's ending, ms. */
  readonly elapsedMs: number;
}

/** A programs cache shared by every fabric of a run, so atp.p4 compiles once. */
export function atpPrograms(aggregators: number, values: number): ProgramCache {
  return new ProgramCache({ defines: [`ATP_VALUES=${values}`, `ATP_AGGREGATORS=${aggregators}`], compiler: compilePipeline });
}

const hostName = (job: number, rank: number | 'ps'): string => (rank === 'ps' ? `j${job}ps` : `j${job}w${rank}`);

export class AtpFabric {
  private constructor(
    private readonly installer: Installer,
    private readonly launched: LaunchedSwitch,
    private readonly wires: ReadonlyMap<string, HostWire>,
    private readonly values: number,
    private readonly window: number,
  ) {}

  /** One switch with `workers` workers and a PS for each of `jobs` jobs (ids 1..jobs), forwarding installed. */
  static async start(options: { jobs: number; workers: number; programs: ProgramCache; values: number; window: number }): Promise<AtpFabric> {
    const names: string[] = [];
    for (let j = 1; j <= options.jobs; j++) {
      for (let r = 0; r < options.workers; r++) names.push(hostName(j, r));
      names.push(hostName(j, 'ps'));
    }
    const sockets = await freeUdpPorts(2 * names.length);
    const wires = new Map<string, HostWire>();
    const ports: string[] = [];
    names.forEach((name, i) => {
      const n = i + 1;
      const wire = { ip: `10.0.1.${n}`, mac: `02:00:00:00:01:${n.toString(16).padStart(2, '0')}`, agentSocket: sockets[2 * i]!, switchSocket: sockets[2 * i + 1]! };
      wires.set(name, wire);
      ports.push(`${n}@udp:127.0.0.1:${wire.switchSocket}:127.0.0.1:${wire.agentSocket}`);
    });
    const launched = await launchSwitch({ deviceId: 0, ports, server: { address: '127.0.0.1:0' } });
    try {
      const topology = parseTopology({
        description: 'p4ina bench: ATP jobs on one switch',
        hosts: Object.fromEntries(names.map((name) => [name, { ip: `${wires.get(name)!.ip}/24`, mac: wires.get(name)!.mac }])),
        switches: {
          [SWITCH.name]: { target: 'emulator', grpc: `127.0.0.1:${launched.grpcPort}`, device_id: 0, program: { p4: atpSource() }, ina: true, role: 'tor', ip: SWITCH.ip, mac: SWITCH.mac },
        },
        links: names.map((name, i) => ({ nodes: [name, `${SWITCH.name}-p${i + 1}`] })),
      });
      const installer = await Installer.connect(topology, { programs: options.programs, logger: QUIET, rpcTimeoutMs: 60_000 });
      try {
        await installer.installForwarding();
      } catch (err) {
        await installer.close();
        throw err;
      }
      return new AtpFabric(installer, launched, wires, options.values, options.window);
    } catch (err) {
      await launched.stop();
      throw err;
    }
  }

  private spec(job: AtpBenchJob): JobSpec {
    return defineJob({
      id: job.id,
      algorithm: 'atp',
      workers: job.tensors.map((_, rank) => ({ rank, host: hostName(job.id, rank), udpPort: PS_PORT + 1 + rank })),
      parameterServer: { host: hostName(job.id, 'ps'), udpPort: PS_PORT },
      poolSize: job.poolSize,
      elementsPerPacket: this.values,
      // The seeded tensors reach ±256: a value range of 256 keeps every value fixed point (src/demo does the same).
      atp: { window: this.window, valueRange: 256 },
    });
  }

  private wire(host: string): HostWire {
    const w = this.wires.get(host);
    if (!w) throw new Error(`no host ${host} in the fabric`);
    return w;
  }

  /** Installs every job, then starts all their calls at once; settles when every job is done and its agents closed. */
  async runJobs(jobs: readonly AtpBenchJob[]): Promise<AtpJobOutcome[]> {
    const prepared: { server: AtpParameterServer; agents: AtpWorker[]; job: AtpBenchJob }[] = [];
    try {
      for (const job of jobs) {
        const spec = this.spec(job);
        const installed = (await this.installer.setupJob(spec)) as AtpInstalledJob;
        const { workers, ps } = atpAgentConfigs(spec, installed.plan!);
        const psWire = this.wire(ps.host);
        const psTransport = await UdpWireTransport.open({
          localAddress: '127.0.0.1',
          localPort: psWire.agentSocket,
          peerAddress: '127.0.0.1',
          peerPort: psWire.switchSocket,
          host: { mac: psWire.mac, ip: ps.listenAddress, udpPort: ps.listenPort },
          remote: { mac: SWITCH.mac, ip: ps.listenAddress, udpPort: ps.listenPort },
        });
        const layout = layoutAtpJob(ps.racks.map((r) => ({ aggregating: r.aggregating, workers: r.workers.map((w) => socketAddress(w.address, w.port, 'ATP bench')) })));
        const server = new AtpParameterServer({
          transport: psTransport,
          closeTransport: true,
          jobs: [{ jobId: ps.jobId, poolSize: ps.poolSize, poolBase: job.poolBase, contributors: layout.contributors, elementsPerPacket: ps.elementsPerPacket, maxWindow: ps.maxWindow, valueRange: ps.valueRange }],
        });
        const entry = { server, agents: [] as AtpWorker[], job };
        prepared.push(entry);
        for (const w of workers) {
          const wire = this.wire(w.host);
          const transport = await UdpWireTransport.open({
            localAddress: '127.0.0.1',
            localPort: wire.agentSocket,
            peerAddress: '127.0.0.1',
            peerPort: wire.switchSocket,
            host: { mac: wire.mac, ip: w.localAddress, udpPort: w.localPort },
            remote: { mac: SWITCH.mac, ip: w.psAddress, udpPort: w.psPort },
          });
          entry.agents.push(new AtpWorker({ ...w, poolBase: job.poolBase, transport, closeTransport: true }));
        }
      }
      return await Promise.all(
        prepared.map(async ({ server, agents, job }): Promise<AtpJobOutcome> => {
          const start = performance.now();
          const done = await Promise.all(agents.map((a, rank) => a.allreduce(job.tensors[rank]!)));
          return { results: done.map((d) => d.result), workerStats: done.map((d) => d.stats), ps: { ...server.stats }, elapsedMs: performance.now() - start };
        }),
      );
    } finally {
      await Promise.allSettled(prepared.flatMap(({ server, agents }) => [...agents.map((a) => a.close()), server.close()]));
      // The fabric is thrown away after the run: a failed teardown must not hide the run's own outcome.
      for (const { job } of prepared) await this.installer.teardownJob(job.id).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.installer.close().catch(() => undefined);
    await this.launched.stop();
  }
}
