/**
 * The parameter-server baseline as processes: one server and N workers.
 *
 *   node ps-main.js --role server --world 4 --listen 127.0.0.1:5000 [--rounds K]
 *   node ps-main.js --role worker --rank 1 --world 4 --server 127.0.0.1:5000 [--json] …
 *
 * The server prints the address it listens on (useful with port 0) and
 * serves until interrupted, or until K rounds are done with --rounds. A worker
 * reduces its seeded tensor and prints a report, like the ring worker.
 * Exit status: 0 done, 1 the run failed, 2 bad arguments.
 */
import { DEFAULT_JOB_ID, DEFAULT_PIECE_ELEMENTS, MAX_PIECE_ELEMENTS } from './defaults.js';
import { abortedError } from './dial.js';
import { parseEndpoint, type Endpoint } from './endpoint.js';
import { MAX_JOB_ID_BYTES } from './frame.js';
import { MAX_PS_WORKERS, ParameterServer } from './parameter-server.js';
import { ParameterServerWorker, type ParameterServerStats } from './ps-worker.js';
import { badConfig, integerOption, parseWorkerArgv, WORKER_USAGE, workerArgs, type WorkerArgs } from './worker-args.js';
import { CONSOLE_IO, describeError, isProcessEntry, runAsProcess, type MainIo } from './worker-process.js';
import { formatWorkerReport, runWorkerIterations, type WorkerReport } from './worker-run.js';

export const PS_USAGE = `usage: ps --role server --world N --listen HOST:PORT [--rounds K] [--job ID] [--piece-elements P] [--json]
       ps --role worker --rank R --world N --server HOST:PORT [options]
  --server HOST:PORT    the parameter server (workers; required)
${WORKER_USAGE}`;

export interface PsServerArgs {
  readonly role: 'server';
  readonly worldSize: number;
  readonly listen: Endpoint;
  readonly jobId: string;
  readonly pieceElements: number;
  /** Stop after this many rounds; undefined: serve until interrupted. */
  readonly rounds: number | undefined;
  readonly json: boolean;
}

export interface PsWorkerArgs extends WorkerArgs {
  readonly role: 'worker';
  readonly server: Endpoint;
}

const EXTRA_OPTIONS = { role: { type: 'string' }, listen: { type: 'string' }, server: { type: 'string' }, rounds: { type: 'string' } } as const;

/** Parses the command line; throws BASELINE_BAD_CONFIG. Returns undefined for --help. */
export function parsePsArgs(argv: readonly string[]): PsServerArgs | PsWorkerArgs | undefined {
  const values = parseWorkerArgv(argv, EXTRA_OPTIONS);
  if (values.help === true) return undefined;
  if (values.role === 'worker') {
    if (typeof values.server !== 'string') throw badConfig('--server is required for a worker');
    return { ...workerArgs(values, MAX_PS_WORKERS), role: 'worker', server: parseEndpoint(values.server, '--server') };
  }
  if (values.role !== 'server') throw badConfig('--role must be "server" or "worker"');
  if (typeof values.listen !== 'string') throw badConfig('--listen is required for the server (port 0 picks a free one)');
  const jobId = typeof values.job === 'string' ? values.job : DEFAULT_JOB_ID;
  const jobBytes = Buffer.byteLength(jobId, 'utf8');
  if (jobBytes < 1 || jobBytes > MAX_JOB_ID_BYTES) throw badConfig(`--job must be 1..${MAX_JOB_ID_BYTES} bytes, got ${jobBytes}`);
  return {
    role: 'server',
    worldSize: integerOption(values, 'world', 1, MAX_PS_WORKERS),
    listen: parseEndpoint(values.listen, '--listen'),
    jobId,
    pieceElements: integerOption(values, 'piece-elements', 1, MAX_PIECE_ELEMENTS, DEFAULT_PIECE_ELEMENTS),
    rounds: values.rounds === undefined ? undefined : integerOption(values, 'rounds', 1, 1_000_000_000),
    json: values.json === true,
  };
}

/** Serves until `signal` aborts or `args.rounds` rounds are done; `onListening` gets the bound address. */
export async function runPsServer(args: PsServerArgs, signal: AbortSignal | undefined, onListening: (address: string) => void): Promise<number> {
  let stop: () => void = () => {};
  const done = new Promise<void>((resolve) => (stop = resolve));
  const server = await ParameterServer.start({
    host: args.listen.host,
    port: args.listen.port,
    worldSize: args.worldSize,
    jobId: args.jobId,
    pieceElements: args.pieceElements,
    onRound: (rounds) => {
      if (args.rounds !== undefined && rounds >= args.rounds) stop();
    },
  });
  const onAbort = (): void => stop();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) stop();
  try {
    onListening(server.address);
    await done;
    return server.rounds;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await server.close();
  }
}

/** Connects to the server, runs the iterations, disconnects. */
export async function runPsWorker(args: PsWorkerArgs, signal?: AbortSignal): Promise<WorkerReport<ParameterServerStats>> {
  const worker = await ParameterServerWorker.connect({
    rank: args.rank,
    worldSize: args.worldSize,
    server: args.server,
    jobId: args.jobId,
    pieceElements: args.pieceElements,
    connectTimeoutMs: args.connectTimeoutMs,
    ioTimeoutMs: args.ioTimeoutMs,
    signal,
  });
  try {
    return await runWorkerIterations('parameter-server', worker, args, signal);
  } finally {
    await worker.close();
  }
}

/** The whole command; resolves to the exit status. */
export async function psMain(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  let args: PsServerArgs | PsWorkerArgs | undefined;
  try {
    args = parsePsArgs(argv);
  } catch (err) {
    io.err(describeError(err));
    io.err(PS_USAGE);
    return 2;
  }
  if (!args) {
    io.out(PS_USAGE);
    return 0;
  }
  const json = args.json;
  try {
    if (args.role === 'server') {
      const rounds = await runPsServer(args, signal, (address) => io.out(json ? JSON.stringify({ listening: address }) : `parameter server listening on ${address}`));
      if (signal?.aborted && args.rounds !== undefined && rounds < args.rounds) throw abortedError(signal, 'the parameter server');
      io.out(json ? JSON.stringify({ rounds }) : `parameter server done after ${rounds} round(s)`);
    } else {
      const report = await runPsWorker(args, signal);
      io.out(json ? JSON.stringify(report) : formatWorkerReport(report));
    }
    return 0;
  } catch (err) {
    io.err(describeError(err));
    return 1;
  }
}

if (isProcessEntry(import.meta.url)) runAsProcess(psMain);
