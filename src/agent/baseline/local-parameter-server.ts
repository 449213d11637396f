/**
 * A parameter server and its n workers in this process, on 127.0.0.1, for
 * tests and the demo: start the server on a free port (or `port`), connect
 * every worker, run one allreduce, close everything.
 */
import { allOrRootCause, allreduceEverywhere, type LocalRunResult } from './local-run.js';
import { ParameterServer } from './parameter-server.js';
import { ParameterServerWorker, type ParameterServerStats } from './ps-worker.js';

export interface LocalParameterServerOptions {
  readonly worldSize: number;
  /** One tensor per worker, all of one length. */
  readonly tensors: readonly Float32Array[];
  /** The server's port; default: one the system chooses. */
  readonly port?: number;
  readonly host?: string;
  readonly jobId?: string;
  readonly pieceElements?: number;
  readonly connectTimeoutMs?: number;
  readonly ioTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface LocalParameterServer {
  readonly server: ParameterServer;
  readonly workers: ParameterServerWorker[];
  /** Closes the workers, then the server. */
  close(): Promise<void>;
}

/** Starts a server and connects n workers to it; the caller runs the calls and calls close(). */
export async function connectLocalParameterServer(options: Omit<LocalParameterServerOptions, 'tensors'>): Promise<LocalParameterServer> {
  const { worldSize } = options;
  const server = await ParameterServer.start({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    worldSize,
    jobId: options.jobId,
    pieceElements: options.pieceElements,
  });
  try {
    const workers = await allOrRootCause(
      Array.from({ length: worldSize }, (_, rank) =>
        ParameterServerWorker.connect({
          rank,
          worldSize,
          server: server.endpoint,
          jobId: options.jobId,
          pieceElements: options.pieceElements,
          connectTimeoutMs: options.connectTimeoutMs,
          ioTimeoutMs: options.ioTimeoutMs,
          signal: options.signal,
        }),
      ),
      (connected) => Promise.all(connected.map((worker) => worker.close())).then(() => undefined),
    );
    return {
      server,
      workers,
      close: async () => {
        await Promise.all(workers.map((worker) => worker.close()));
        await server.close();
      },
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}

/** Starts a local server and workers, runs one allreduce of `tensors` (one per worker), closes everything. */
export async function runLocalParameterServer(options: LocalParameterServerOptions): Promise<LocalRunResult<ParameterServerStats>> {
  if (options.tensors.length !== options.worldSize) {
    throw new RangeError(`need one tensor per worker: ${options.worldSize} workers, ${options.tensors.length} tensors`);
  }
  const local = await connectLocalParameterServer(options);
  try {
    return await allreduceEverywhere(local.workers, options.tensors, options.signal);
  } finally {
    await local.server.close();
  }
}
