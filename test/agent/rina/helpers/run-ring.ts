/**
 * Runs autonomous Rina rings on the in-memory network in virtual time: the
 * event loop turns until no packet is in flight, and only then does the
 * clock move to the next deadline. Every timeout is then a real stall, and a
 * run is bounded by clock steps, not by a wall-clock wait.
 */
import { RinaWorker } from '../../../../src/agent/rina/rina-worker.js';
import type { RinaWorkerOptions } from '../../../../src/agent/rina/rina-options.js';
import type { RinaStats } from '../../../../src/agent/rina/rina-stats.js';
import type { AllReduceResult } from '../../../../src/agent/allreduce.js';
import { VirtualTime } from '../../atp/helpers/virtual-time.js';
import { MemoryNetwork, type Impairment } from './ring-network.js';
import { driveVirtual } from '../../helpers/drive-virtual.js';

/** Fast but bounded retransmissions for virtual time. */
export const VIRTUAL_TIMING = { timeoutMs: 10, backoff: { factor: 2, minTimeoutMs: 10, maxTimeoutMs: 80 }, maxRetries: 60 } as const;

export function runVirtual<T>(net: MemoryNetwork, time: VirtualTime, work: Promise<T>, maxSteps = 200_000): Promise<{ value: T; steps: number }> {
  return driveVirtual(net, time, work, maxSteps);
}

export interface AutonomousRing {
  readonly net: MemoryNetwork;
  readonly time: VirtualTime;
  readonly workers: RinaWorker[];
}

/** n autonomous workers in a ring on one in-memory network. */
export function autonomousRing(n: number, options: { impair?: Impairment; seed?: number | string; poolSize?: number; elementsPerPacket?: number; worker?: Partial<RinaWorkerOptions> } = {}): AutonomousRing {
  const net = new MemoryNetwork(options.impair, options.seed);
  const time = new VirtualTime();
  const hosts = Array.from({ length: n }, (_, i) => net.host(i));
  const ring = hosts.map((h) => ({ kind: 'worker' as const, workers: [h.address] }));
  const workers = hosts.map((transport, rank) => new RinaWorker({
    transport, jobId: 5, rank, ring, place: { position: rank, workerId: 0 }, poolSize: options.poolSize ?? 4,
    elementsPerPacket: options.elementsPerPacket ?? 8, clock: time, timers: time, ...VIRTUAL_TIMING, ...options.worker,
  }));
  return { net, time, workers };
}

/** Every worker reduces its tensor; resolves with each one's result in rank order. */
export async function allreduceAll(ring: AutonomousRing, tensors: readonly Float32Array[]): Promise<AllReduceResult<RinaStats>[]> {
  const { value } = await runVirtual(ring.net, ring.time, Promise.all(ring.workers.map((w, r) => w.allreduce(tensors[r]!))));
  return value;
}
