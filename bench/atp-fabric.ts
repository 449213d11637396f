/**
 * One emulated atp.p4 switch in this process for the multi-job benchmark:
 * the loopback fabric (src/fabric, in-process mode: the switch `p4ina
 * switch` runs, with one UDP wire on 127.0.0.1 per host, its pipeline and
 * forwarding pushed by the real controller over gRPC), each ATP job
 * installed by a controller run on it, and the agents (AtpWorker,
 * AtpParameterServer) on the hosts' wires, configured from the
 * controller's plan (atpAgentConfigs) plus a pool base of our own for a
 * static split.
 */
import { pino } from 'pino';
import { layoutAtpJob } from '../src/agent/atp/atp-job-layout.js';
import type { AtpStats } from '../src/agent/atp/atp-stats.js';
import { AtpWorker } from '../src/agent/atp/atp-worker.js';
import { AtpParameterServer } from '../src/agent/atp/parameter-server.js';
import type { AtpPsStats } from '../src/agent/atp/ps-stats.js';
import { openAtpWire } from '../src/agent/atp/wire-args.js';
import { socketAddress } from '../src/agent/transport/index.js';
import { atpAgentConfigs, defineJob, parseTopology, type JobSpec } from '../src/controller/index.js';
import { ProgramCache, type AtpInstalledJob, type Installer } from '../src/controller/install/index.js';
import { inaProgram, LoopbackFabric } from '../src/fabric/index.js';
import { compilePipeline } from '../src/p4c/index.js';
import { atpSource } from '../src/run/package-paths.js';

const QUIET = pino({ level: 'silent' });
const SWITCH = { name: 's1', ip: '10.0.200.254', mac: '02:00:00:00:c0:fe' };
const PS_PORT = 0xbf00;

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
    private readonly fabric: LoopbackFabric,
    private readonly installer: Installer,
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
    const topology = parseTopology({
      description: 'p4ina bench: ATP jobs on one switch',
      hosts: Object.fromEntries(names.map((name, i) => [name, { ip: `10.0.1.${i + 1}/24`, mac: `02:00:00:00:01:${(i + 1).toString(16).padStart(2, '0')}` }])),
      switches: { [SWITCH.name]: { target: 'emulator', role: 'tor', ip: SWITCH.ip, mac: SWITCH.mac } },
      links: names.map((name, i) => ({ nodes: [name, `${SWITCH.name}-p${i + 1}`] })),
    });
    const fabric = await LoopbackFabric.start(topology, { mode: 'in-process', program: () => inaProgram(atpSource()), programs: options.programs, logger: QUIET, rpcTimeoutMs: 60_000 });
    try {
      return new AtpFabric(fabric, await fabric.controller(), options.values, options.window);
    } catch (err) {
      await fabric.close();
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

  /** Installs every job, then starts all their calls at once; settles when every job is done and its agents closed. */
  async runJobs(jobs: readonly AtpBenchJob[]): Promise<AtpJobOutcome[]> {
    const prepared: { server: AtpParameterServer; agents: AtpWorker[]; job: AtpBenchJob }[] = [];
    try {
      for (const job of jobs) {
        const spec = this.spec(job);
        const installed = (await this.installer.setupJob(spec)) as AtpInstalledJob;
        const { workers, ps } = atpAgentConfigs(spec, installed.plan!);
        const own = { address: ps.listenAddress, port: ps.listenPort };
        const psTransport = await openAtpWire(this.fabric.agentWire(ps.host), own, own);
        const layout = layoutAtpJob(ps.racks.map((r) => ({ aggregating: r.aggregating, workers: r.workers.map((w) => socketAddress(w.address, w.port, 'ATP bench')) })));
        const server = new AtpParameterServer({
          transport: psTransport,
          closeTransport: true,
          jobs: [{ jobId: ps.jobId, poolSize: ps.poolSize, poolBase: job.poolBase, contributors: layout.contributors, elementsPerPacket: ps.elementsPerPacket, maxWindow: ps.maxWindow, valueRange: ps.valueRange }],
        });
        const entry = { server, agents: [] as AtpWorker[], job };
        prepared.push(entry);
        for (const w of workers) {
          const transport = await openAtpWire(this.fabric.agentWire(w.host), { address: w.localAddress, port: w.localPort }, { address: w.psAddress, port: w.psPort });
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

  /** The controller run and the switch. */
  close(): Promise<void> {
    return this.fabric.close();
  }
}
