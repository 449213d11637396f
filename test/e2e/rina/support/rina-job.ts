/**
 * One Rina job end to end on a Fabric: its plan from the controller
 * (Installer.planFor → planRina), its entries on every INA ToR of the plan
 * (Installer.setupJob → rina-job.ts: slots and group allocated, written in
 * the documented order), and one RinaWorker per worker on its host's UDP
 * wire, configured from the plan (ringFromPlan, placeInPlan). Everything the
 * run opened is closed before it returns.
 */
import { ringFromPlan, placeInPlan } from '../../../../src/agent/rina/ring-config.js';
import { RinaWorker } from '../../../../src/agent/rina/rina-worker.js';
import type { RinaStats } from '../../../../src/agent/rina/rina-stats.js';
import { socketAddress, type UdpWireTransport } from '../../../../src/agent/transport/index.js';
import { defineJob, type JobSpec, type RolloutPlan } from '../../../../src/controller/index.js';
import type { Installer } from '../../../../src/controller/install/index.js';
import { ipv4ToText } from '../../../../src/wire/index.js';
import { counter } from '../../../../src/p4runtime/index.js';
import type { Fabric } from './fabric.js';
import { VALUES } from './fabric.js';

export const RINA_PORT = 0xbf10;

export function rinaJob(id: number, hosts: readonly string[], poolSize: number): JobSpec {
  return defineJob({ id, algorithm: 'rina', workers: hosts.map((host, rank) => ({ rank, host, udpPort: RINA_PORT + rank })), poolSize, elementsPerPacket: VALUES });
}

/**
 * Sets the job up at every INA ToR of the plan with the controller's
 * installer; a plan with no INA rack (a ring of autonomous workers) needs
 * nothing on the switches.
 */
export async function installRina(installer: Installer, spec: JobSpec, plan: RolloutPlan): Promise<void> {
  if (plan.aggregationPoints.length > 0) await installer.setupJob(spec, plan);
}

export interface RinaRunOutcome {
  readonly results: Float32Array[][];
  readonly stats: RinaStats[][];
}

export interface RinaRunOptions {
  /** Agent settings for every worker (timing). */
  readonly worker?: { readonly timeoutMs?: number; readonly maxRetries?: number; readonly backoff?: { minTimeoutMs?: number; maxTimeoutMs?: number } };
}

/** Every worker reduces its tensor of each call in turn; results[call][rank]. */
export async function runRina(fabric: Fabric, spec: JobSpec, plan: RolloutPlan, calls: readonly (readonly Float32Array[])[], options: RinaRunOptions = {}): Promise<RinaRunOutcome> {
  const ring = ringFromPlan(plan.ring!, (rank) => {
    const host = fabric.topology.hosts.get(plan.workers[rank]!.host)!;
    return socketAddress(ipv4ToText(host.ip), spec.workers[rank]!.udpPort, 'Rina e2e');
  });
  const transports: UdpWireTransport[] = [];
  const workers: RinaWorker[] = [];
  try {
    for (const w of spec.workers) {
      const transport = await fabric.openWire(plan.workers[w.rank]!.host, w.udpPort);
      transports.push(transport);
      workers.push(new RinaWorker({
        transport, jobId: spec.id, rank: w.rank, ring, place: placeInPlan(plan.ring!, w.rank), poolSize: spec.poolSize,
        elementsPerPacket: VALUES, ...options.worker,
      }));
    }
    const results: Float32Array[][] = [];
    const stats: RinaStats[][] = [];
    for (const tensors of calls) {
      const done = await Promise.all(workers.map((w, rank) => w.allreduce(tensors[rank]!)));
      results.push(done.map((d) => d.result));
      stats.push(done.map((d) => d.stats));
    }
    return { results, stats };
  } finally {
    await Promise.allSettled(workers.map((w) => w.close()));
    await Promise.allSettled(transports.map((t) => t.close()));
  }
}

/** A packet counter of a switch, cell by cell. */
export async function counterCells(installer: Installer, sw: string, name: string): Promise<number[]> {
  const cells = await installer.sessions.get(sw)!.readAll(counter(name));
  const out: number[] = [];
  for (const c of cells) out[c.index ?? 0] = Number(c.data?.packetCount ?? 0);
  return Array.from(out, (v) => v ?? 0);
}
