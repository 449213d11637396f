/**
 * A whole ring in this process, for tests and the demo: n workers on
 * 127.0.0.1, each on a port the system chooses (or basePort + rank), running
 * one allreduce. Listeners are bound first and their actual ports shared, as
 * separate processes would learn them from a peer list.
 */
import { allOrRootCause, allreduceEverywhere, type LocalRunResult } from './local-run.js';
import { Listener } from './listener.js';
import { RingAllReduce, type RingStats } from './ring-allreduce.js';

export interface LocalRingOptions {
  readonly worldSize: number;
  /** One tensor per rank, all of one length. */
  readonly tensors: readonly Float32Array[];
  /** Rank r listens on basePort + r; default: ports the system chooses. */
  readonly basePort?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  readonly jobId?: string;
  readonly pieceElements?: number;
  readonly connectTimeoutMs?: number;
  readonly ioTimeoutMs?: number;
  /** Aborts set-up and the call on every rank. */
  readonly signal?: AbortSignal;
}

/** Binds n listeners and forms the ring; the caller runs the calls and closes every instance. */
export async function connectLocalRing(options: Omit<LocalRingOptions, 'tensors'>): Promise<RingAllReduce[]> {
  const { worldSize } = options;
  if (!Number.isInteger(worldSize) || worldSize < 1) throw new RangeError(`world size must be an integer >= 1, got ${worldSize}`);
  const host = options.host ?? '127.0.0.1';
  const listeners = await allOrRootCause(
    Array.from({ length: worldSize }, (_, rank) => Listener.bind({ host, port: options.basePort === undefined ? 0 : options.basePort + rank })),
    (bound) => Promise.all(bound.map((listener) => listener.close())).then(() => undefined),
  );
  const peers = listeners.map((listener) => listener.endpoint);
  return allOrRootCause(
    listeners.map((listener, rank) =>
      RingAllReduce.connect({
        rank,
        worldSize,
        peers,
        listener,
        jobId: options.jobId,
        pieceElements: options.pieceElements,
        connectTimeoutMs: options.connectTimeoutMs,
        ioTimeoutMs: options.ioTimeoutMs,
        signal: options.signal,
      }),
    ),
    (formed) => Promise.all(formed.map((ring) => ring.close())).then(() => undefined),
  );
}

/** Forms a local ring, runs one allreduce of `tensors` (one per rank) and closes the ring. */
export async function runLocalRing(options: LocalRingOptions): Promise<LocalRunResult<RingStats>> {
  if (options.tensors.length !== options.worldSize) {
    throw new RangeError(`need one tensor per rank: ${options.worldSize} ranks, ${options.tensors.length} tensors`);
  }
  const rings = await connectLocalRing(options);
  return allreduceEverywhere(rings, options.tensors, options.signal);
}
