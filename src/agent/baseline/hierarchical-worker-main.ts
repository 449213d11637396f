/**
 * One hierarchical AllReduce worker as a process, for `p4ina agent` and the demo:
 *
 *   node hierarchical-worker-main.js --rank 1 --world 5 --peers h0:4000,… --racks 0,0,1,1,1 [--json] …
 *
 * Like the ring worker, plus --racks, every rank's rack in rank order (any
 * names; the controller's plan gives rack names such as r1). Rank r listens
 * on its own entry of --peers: a leader for its ring predecessor, a member
 * for its leader. Exit status: 0 done, 1 the run failed (the typed error's
 * code and message on stderr), 2 bad arguments. SIGINT and SIGTERM abort
 * cleanly.
 */
import { parseEndpointList, type Endpoint } from './endpoint.js';
import { DEFAULT_SEGMENT_PIECES, HierarchicalAllReduce, MAX_SEGMENT_PIECES, type HierarchicalStats } from './hierarchical-allreduce.js';
import { MAX_RING_SIZE } from './ring-allreduce.js';
import { badConfig, integerOption, parseWorkerArgv, WORKER_USAGE, workerArgs, type WorkerArgs } from './worker-args.js';
import { CONSOLE_IO, describeError, isProcessEntry, runAsProcess, type MainIo } from './worker-process.js';
import { formatWorkerReport, runWorkerIterations, type WorkerReport } from './worker-run.js';

export interface HierarchicalWorkerArgs extends WorkerArgs {
  /** Every rank's address, by rank. */
  readonly peers: readonly Endpoint[];
  /** Every rank's rack name, by rank. */
  readonly racks: readonly string[];
  readonly segmentPieces: number;
}

export const HIERARCHICAL_WORKER_USAGE = `usage: hierarchical-worker --rank R --world N --peers HOST:PORT,… --racks LIST [options]
  --peers LIST          every rank's host:port, in rank order (required)
  --racks LIST          every rank's rack, in rank order, e.g. 0,0,1,1,1 (required); each rack's
                        lowest rank is its leader, and the leaders form the ring
  --segment-pieces K    pieces the leaders put through the ring at a time (default ${DEFAULT_SEGMENT_PIECES})
${WORKER_USAGE}`;

/** "0,0,1" → ['0', '0', '1']: one non-empty name per rank. */
function parseRackList(text: string, worldSize: number): string[] {
  const names = text.split(',').map((name) => name.trim());
  const empty = names.indexOf('');
  if (empty >= 0) throw badConfig(`--racks entry ${empty} is empty; give every rank's rack, e.g. 0,0,1,1`);
  if (names.length !== worldSize) throw badConfig(`--racks lists ${names.length} rack(s) but --world is ${worldSize}; give one per rank`);
  return names;
}

/** Parses the command line; throws BASELINE_BAD_CONFIG. Returns undefined for --help. */
export function parseHierarchicalWorkerArgs(argv: readonly string[]): HierarchicalWorkerArgs | undefined {
  const values = parseWorkerArgv(argv, { peers: { type: 'string' }, racks: { type: 'string' }, 'segment-pieces': { type: 'string' } });
  if (values.help === true) return undefined;
  const args = workerArgs(values, MAX_RING_SIZE);
  if (typeof values.peers !== 'string') throw badConfig('--peers is required');
  const peers = parseEndpointList(values.peers, '--peers');
  if (peers.length !== args.worldSize) throw badConfig(`--peers lists ${peers.length} address(es) but --world is ${args.worldSize}; give one per rank`);
  if (typeof values.racks !== 'string') throw badConfig('--racks is required (every rank\'s rack, e.g. 0,0,1,1)');
  const racks = parseRackList(values.racks, args.worldSize);
  const segmentPieces = integerOption(values, 'segment-pieces', 1, MAX_SEGMENT_PIECES, DEFAULT_SEGMENT_PIECES);
  return { ...args, peers, racks, segmentPieces };
}

/** Connects, runs the iterations, closes. */
export async function runHierarchicalWorker(args: HierarchicalWorkerArgs, signal?: AbortSignal): Promise<WorkerReport<HierarchicalStats>> {
  const worker = await HierarchicalAllReduce.connect({
    rank: args.rank,
    worldSize: args.worldSize,
    peers: args.peers,
    racks: args.racks,
    jobId: args.jobId,
    pieceElements: args.pieceElements,
    segmentPieces: args.segmentPieces,
    connectTimeoutMs: args.connectTimeoutMs,
    ioTimeoutMs: args.ioTimeoutMs,
    signal,
  });
  try {
    return await runWorkerIterations('hierarchical', worker, args, signal);
  } finally {
    await worker.close();
  }
}

/** The whole command; resolves to the exit status. */
export async function hierarchicalWorkerMain(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  let args: HierarchicalWorkerArgs | undefined;
  try {
    args = parseHierarchicalWorkerArgs(argv);
  } catch (err) {
    io.err(describeError(err));
    io.err(HIERARCHICAL_WORKER_USAGE);
    return 2;
  }
  if (!args) {
    io.out(HIERARCHICAL_WORKER_USAGE);
    return 0;
  }
  try {
    const report = await runHierarchicalWorker(args, signal);
    io.out(args.json ? JSON.stringify(report) : formatWorkerReport(report));
    return 0;
  } catch (err) {
    io.err(describeError(err));
    return 1;
  }
}

if (isProcessEntry(import.meta.url)) runAsProcess(hierarchicalWorkerMain);
