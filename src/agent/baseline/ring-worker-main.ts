/**
 * One ring AllReduce worker as a process, for `p4ina agent` and the demo:
 *
 *   node ring-worker-main.js --rank 1 --world 4 --peers h0:4000,h1:4000,h2:4000,h3:4000 [--json] …
 *
 * It listens on its own entry of --peers, forms the ring, reduces its seeded
 * tensor and prints a report. Exit status: 0 done, 1 the run failed (the
 * typed error's code and message on stderr), 2 bad arguments. SIGINT and
 * SIGTERM abort cleanly.
 */
import { parseEndpointList, type Endpoint } from './endpoint.js';
import { RingAllReduce, MAX_RING_SIZE, type RingStats } from './ring-allreduce.js';
import { badConfig, parseWorkerArgv, WORKER_USAGE, workerArgs, type WorkerArgs } from './worker-args.js';
import { CONSOLE_IO, describeError, isProcessEntry, runAsProcess, type MainIo } from './worker-process.js';
import { formatWorkerReport, runWorkerIterations, type WorkerReport } from './worker-run.js';

export interface RingWorkerArgs extends WorkerArgs {
  /** Every rank's address, by rank. */
  readonly peers: readonly Endpoint[];
}

export const RING_WORKER_USAGE = `usage: ring-worker --rank R --world N --peers HOST:PORT,… [options]
  --peers LIST          every rank's host:port, in rank order (required)
${WORKER_USAGE}`;

/** Parses the command line; throws BASELINE_BAD_CONFIG. Returns undefined for --help. */
export function parseRingWorkerArgs(argv: readonly string[]): RingWorkerArgs | undefined {
  const values = parseWorkerArgv(argv, { peers: { type: 'string' } });
  if (values.help === true) return undefined;
  const args = workerArgs(values, MAX_RING_SIZE);
  if (typeof values.peers !== 'string') throw badConfig('--peers is required');
  const peers = parseEndpointList(values.peers, '--peers');
  if (peers.length !== args.worldSize) throw badConfig(`--peers lists ${peers.length} address(es) but --world is ${args.worldSize}; give one per rank`);
  return { ...args, peers };
}

/** Forms the ring, runs the iterations, closes the ring. */
export async function runRingWorker(args: RingWorkerArgs, signal?: AbortSignal): Promise<WorkerReport<RingStats>> {
  const ring = await RingAllReduce.connect({
    rank: args.rank,
    worldSize: args.worldSize,
    peers: args.peers,
    jobId: args.jobId,
    pieceElements: args.pieceElements,
    connectTimeoutMs: args.connectTimeoutMs,
    ioTimeoutMs: args.ioTimeoutMs,
    signal,
  });
  try {
    return await runWorkerIterations('ring', ring, args, signal);
  } finally {
    await ring.close();
  }
}

/** The whole command; resolves to the exit status. */
export async function ringWorkerMain(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  let args: RingWorkerArgs | undefined;
  try {
    args = parseRingWorkerArgs(argv);
  } catch (err) {
    io.err(describeError(err));
    io.err(RING_WORKER_USAGE);
    return 2;
  }
  if (!args) {
    io.out(RING_WORKER_USAGE);
    return 0;
  }
  try {
    const report = await runRingWorker(args, signal);
    io.out(args.json ? JSON.stringify(report) : formatWorkerReport(report));
    return 0;
  } catch (err) {
    io.err(describeError(err));
    return 1;
  }
}

if (isProcessEntry(import.meta.url)) runAsProcess(ringWorkerMain);
