/**
 * Runs an OmniReduce job (workers and host aggregator shards) on the
 * in-memory network in virtual time: the event loop turns until no packet is
 * in flight, and only then does the clock move to the next deadline, so every
 * timeout is a real stall and a run is bounded by clock steps.
 */
import { OmniReduceAggregator } from '../../../../src/agent/omnireduce/omnireduce-aggregator.js';
import type { AggregatorShard, OmniReduceWorkerOptions } from '../../../../src/agent/omnireduce/omnireduce-options.js';
import { OmniReduceWorker } from '../../../../src/agent/omnireduce/omnireduce-worker.js';
import { VirtualTime } from '../../atp/helpers/virtual-time.js';
import { SourcedNetwork, type Impairment, type TestHost } from './sourced-network.js';
import { driveVirtual } from '../../helpers/drive-virtual.js';

/** Fast but bounded retransmissions for virtual time. */
export const VIRTUAL_TIMING = { timeoutMs: 10, backoff: { factor: 2, minTimeoutMs: 10, maxTimeoutMs: 80 }, maxRetries: 30 } as const;

export interface JobSpec {
  readonly workers: number;
  readonly blockSize: number;
  /** Slots per shard, one entry per shard. */
  readonly shards: readonly number[];
  readonly impair?: Impairment;
  readonly seed?: number | string;
  readonly worker?: Partial<OmniReduceWorkerOptions>;
}

export interface Job {
  readonly net: SourcedNetwork;
  readonly time: VirtualTime;
  readonly workerHosts: TestHost[];
  readonly workers: OmniReduceWorker[];
  readonly aggregators: OmniReduceAggregator[];
  /** The shards' hosts, in the order of `spec.shards`. */
  readonly shardHosts: TestHost[];
}

export function makeJob(spec: JobSpec): Job {
  const net = new SourcedNetwork(spec.impair, spec.seed);
  const time = new VirtualTime();
  const workerHosts = Array.from({ length: spec.workers }, () => net.host());
  const addresses = workerHosts.map((h) => h.address);
  let firstSlot = 0;
  const shards: AggregatorShard[] = [];
  const shardHosts: TestHost[] = [];
  const aggregators = spec.shards.map((slotCount) => {
    const host = net.host();
    shardHosts.push(host);
    shards.push({ address: host.address, firstSlot, slotCount });
    const aggregator = new OmniReduceAggregator({ transport: host, workers: addresses, firstSlot, slotCount, blockSize: spec.blockSize });
    firstSlot += slotCount;
    return aggregator;
  });
  const workers = workerHosts.map((transport, rank) => new OmniReduceWorker({
    transport, rank, worldSize: spec.workers, aggregators: shards, blockSize: spec.blockSize, clock: time, timers: time, ...VIRTUAL_TIMING, ...spec.worker,
  }));
  return { net, time, workerHosts, workers, aggregators, shardHosts };
}

export function runVirtual<T>(net: SourcedNetwork, time: VirtualTime, work: Promise<T>, maxSteps = 100_000): Promise<{ value: T; steps: number }> {
  return driveVirtual(net, time, work, maxSteps);
}
