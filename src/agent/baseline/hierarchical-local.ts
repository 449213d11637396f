/**
 * A whole hierarchical job in this process, for tests and benchmarks: one
 * worker per entry of `racks` on 127.0.0.1, each on a port the system
 * chooses, running one allreduce. Listeners are bound first and their actual
 * ports shared, as separate processes would learn them from a peer list.
 */
import { HierarchicalAllReduce, type HierarchicalStats } from './hierarchical-allreduce.js';
import { Listener } from './listener.js';
import { allOrRootCause, allreduceEverywhere, type LocalRunResult } from './local-run.js';

export interface LocalHierarchicalOptions {
  /** Every rank's rack, by rank; its length is the world size. */
  readonly racks: readonly (string | number)[];
  /** One tensor per rank, all of one length. */
  readonly tensors: readonly Float32Array[];
  /** Default 127.0.0.1. */
  readonly host?: string;
  readonly jobId?: string;
  readonly pieceElements?: number;
  readonly segmentPieces?: number;
  readonly connectTimeoutMs?: number;
  readonly ioTimeoutMs?: number;
  /** Aborts set-up and the call on every rank. */
  readonly signal?: AbortSignal;
}

/** Binds a listener per rank and connects every rank; the caller runs the calls and closes every instance. */
export async function connectLocalHierarchical(options: Omit<LocalHierarchicalOptions, 'tensors'>): Promise<HierarchicalAllReduce[]> {
  const worldSize = options.racks.length;
  if (worldSize < 1) throw new RangeError('need at least one rank');
  const host = options.host ?? '127.0.0.1';
  const listeners = await allOrRootCause(
    Array.from({ length: worldSize }, () => Listener.bind({ host, port: 0 })),
    (bound) => Promise.all(bound.map((listener) => listener.close())).then(() => undefined),
  );
  const peers = listeners.map((listener) => listener.endpoint);
  return allOrRootCause(
    listeners.map((listener, rank) =>
      HierarchicalAllReduce.connect({
        rank,
        worldSize,
        peers,
        racks: options.racks,
        listener,
        jobId: options.jobId,
        pieceElements: options.pieceElements,
        segmentPieces: options.segmentPieces,
        connectTimeoutMs: options.connectTimeoutMs,
        ioTimeoutMs: options.ioTimeoutMs,
        signal: options.signal,
      }),
    ),
    (formed) => Promise.all(formed.map((instance) => instance.close())).then(() => undefined),
  );
}

/** Connects a local hierarchical job, runs one allreduce of `tensors` (one per rank) and closes it. */
export async function runLocalHierarchical(options: LocalHierarchicalOptions): Promise<LocalRunResult<HierarchicalStats>> {
  if (options.tensors.length !== options.racks.length) {
    throw new RangeError(`need one tensor per rank: ${options.racks.length} ranks, ${options.tensors.length} tensors`);
  }
  const instances = await connectLocalHierarchical(options);
  return allreduceEverywhere(instances, options.tensors, options.signal);
}
