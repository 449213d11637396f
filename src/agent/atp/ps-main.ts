/**
 * The ATP parameter server as a program (`p4ina agent atp-ps`): bind a
 * kernel UDP socket (or open a UDP wire to a switch port, `--transport
 * wire`), serve one job until interrupted (or, with --stop-after,
 * until that many sequences are done and the workers have been quiet for
 * --linger ms, so that late resends still get their ACK), then print what it
 * did. The first line says where it listens (useful with port 0).
 *
 *   p4ina agent atp-ps --listen 10.0.0.9:48896 --job 1 --pool 1024 \
 *     --rack ina:10.0.1.1:48896,10.0.1.2:48896 --rack legacy:10.0.2.1:48896
 *
 * Exit status: 0 done, 1 the run failed, 2 bad arguments.
 */
import { ATP_PORTS } from '../../wire/index.js';
import { CONSOLE_IO, isProcessEntry, runAsProcess, type MainIo } from '../baseline/worker-process.js';
import { agentCommand, type AgentProgram } from '../baseline/agent-program.js';
import { formatSocketAddress, KernelUdpAddressedTransport, socketAddress, snapshotTransportCounters, type Ipv4CeObserverCounters, type SocketAddress } from '../transport/index.js';
import { REAL_CLOCK, REAL_TIMERS, type AgentClock, type AgentTimers, type CancelTimer } from '../time.js';
import { layoutAtpJob, type AtpRack } from './atp-job-layout.js';
import { ATP_DEFAULT_ELEMENTS, ATP_DEFAULT_WINDOW, ATP_MAX_POOL, ATP_MAX_WINDOW } from './atp-limits.js';
import { ATP_DEFAULT_VALUE_RANGE } from './atp-scale.js';
import { bad, endpoint, integer, optionalInteger, parseValues, positiveNumber, required } from './cli-values.js';
import { AtpParameterServer } from './parameter-server.js';
import type { AtpPsStats } from './ps-stats.js';
import { ATP_ECN_IP_USAGE, ATP_WIRE_OPTIONS, ATP_WIRE_USAGE, openAtpWire, parseAtpWire, type AtpWire } from './wire-args.js';
import { ATP_MAX_CLI_ELEMENTS } from './worker-args.js';

export interface AtpPsMainOptions {
  readonly listenAddress: string;
  readonly listenPort: number;
  /** A UDP wire to a switch port; undefined: the kernel's UDP. */
  readonly wire?: AtpWire;
  /** Read CE marks on the pieces' IPv4 headers with a raw socket on the kernel's UDP (on a wire they are always read). */
  readonly ecnIp?: boolean;
  readonly jobId: number;
  readonly poolSize: number;
  /** The job's first aggregator (default 0). */
  readonly poolBase?: number;
  /** In `bitmap1` order: each aggregating rack is one contributor, each worker of another rack one. */
  readonly racks: readonly AtpRack<SocketAddress>[];
  readonly elementsPerPacket?: number;
  readonly maxWindow?: number;
  readonly valueRange?: number;
  readonly firstSequence?: number;
  readonly maxPieces?: number;
  /** Stop once this many sequences are complete and no datagram came for `lingerMs`. */
  readonly stopAfter?: number;
  readonly lingerMs: number;
  readonly json: boolean;
}

export const ATP_PS_USAGE = `usage: atp-ps --listen ADDR:PORT --job J --pool P --rack ina:ADDR:PORT,… [--rack legacy:ADDR:PORT,…] [options]
  --listen ADDR:PORT    where the PS receives (the address workers send to; port ${ATP_PORTS.first} by convention, 0: any)
${ATP_WIRE_USAGE}
${ATP_ECN_IP_USAGE}
  --job J               job id (1..65535; 0 would read as a free aggregator's tag)
  --pool P              aggregators in the switches' shared pool (1..${ATP_MAX_POOL})
  --pool-base B         the job's part of the pool starts at aggregator B (default 0; a static split), as the workers has it
  --rack KIND:LIST      a rack of the job, in order (bitmap1 bits follow): ina: its ToR aggregates for the job
                        (one ACK to its first worker, which the ToR multicasts), legacy: it does not (one ACK
                        per worker); LIST is the workers' ADDR:PORT in rank order, comma-separated
  --elements E          values per packet (default ${ATP_DEFAULT_ELEMENTS})
  --window W            window positions, as the workers have it (default ${ATP_DEFAULT_WINDOW})
  --range R             the job's value range, as the workers have it (default ${ATP_DEFAULT_VALUE_RANGE})
  --first-sequence S    the workers' first sequence number (default 0)
  --max-pieces K        distinct pieces kept per sequence (default: workers + 32)
  --stop-after N        stop after N sequences, once the workers have been quiet for --linger ms
  --linger MS           (default 1000)
  --json                print the report as one JSON line`;

const OPTIONS = {
  ...ATP_WIRE_OPTIONS,
  'ecn-ip': { type: 'boolean' },
  listen: { type: 'string' },
  job: { type: 'string' },
  pool: { type: 'string' },
  'pool-base': { type: 'string' },
  rack: { type: 'string', multiple: true },
  elements: { type: 'string' },
  window: { type: 'string' },
  range: { type: 'string' },
  'first-sequence': { type: 'string' },
  'max-pieces': { type: 'string' },
  'stop-after': { type: 'string' },
  linger: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseRack(raw: string): AtpRack<SocketAddress> {
  const colon = raw.indexOf(':');
  const kind = colon === -1 ? '' : raw.slice(0, colon);
  if (kind !== 'ina' && kind !== 'legacy') throw bad(`--rack must be ina:LIST or legacy:LIST, got "${raw}"`);
  const workers = raw
    .slice(colon + 1)
    .split(',')
    .map((item) => {
      const e = endpoint(item.trim(), 'rack');
      return socketAddress(e.address, e.port, '--rack');
    });
  return { aggregating: kind === 'ina', workers };
}

/** Parses argv; throws ATP_BAD_CONFIG. Returns undefined for --help. */
export function parseAtpPsArgs(argv: readonly string[]): AtpPsMainOptions | undefined {
  const values = parseValues(argv, OPTIONS);
  if (values.help === true) return undefined;
  const listen = endpoint(required(values, 'listen', '(ADDRESS:PORT; port 0 picks a free one)'), 'listen', { allowZeroPort: true });
  const rackArgs = Array.isArray(values.rack) ? values.rack : [];
  if (rackArgs.length === 0) throw bad('at least one --rack is required');
  const racks = rackArgs.map(parseRack);
  try {
    layoutAtpJob(racks);
  } catch (err) {
    throw bad(`the racks do not fit ATP's header: ${(err as Error).message}`);
  }
  const workers = racks.reduce((n, r) => n + r.workers.length, 0);
  return {
    listenAddress: listen.address,
    listenPort: listen.port,
    wire: parseAtpWire(values, { ...listen, option: 'listen' }),
    ecnIp: values['ecn-ip'] === true,
    jobId: integer(values, 'job', 1, 0xffff),
    poolSize: integer(values, 'pool', 1, ATP_MAX_POOL),
    // The part must end inside the largest pool.
    poolBase: integer(values, 'pool-base', 0, ATP_MAX_POOL - integer(values, 'pool', 1, ATP_MAX_POOL), 0),
    racks,
    elementsPerPacket: integer(values, 'elements', 1, ATP_MAX_CLI_ELEMENTS, ATP_DEFAULT_ELEMENTS),
    maxWindow: integer(values, 'window', 1, ATP_MAX_WINDOW, ATP_DEFAULT_WINDOW),
    valueRange: positiveNumber(values, 'range', ATP_DEFAULT_VALUE_RANGE),
    firstSequence: integer(values, 'first-sequence', 0, 0xffff, 0),
    maxPieces: optionalInteger(values, 'max-pieces', workers + 1, 1_000_000),
    stopAfter: optionalInteger(values, 'stop-after', 1, Number.MAX_SAFE_INTEGER),
    lingerMs: integer(values, 'linger', 0, 3_600_000, 1000),
    json: values.json === true,
  };
}

export interface AtpPsReport {
  readonly jobId: number;
  readonly listen: string;
  readonly stats: AtpPsStats;
  readonly transport: ReturnType<typeof snapshotTransportCounters>;
  /** With --ecn-ip on the kernel's UDP: what the IPv4 CE observer saw. */
  readonly ceObserver?: Ipv4CeObserverCounters;
}

/** How often a PS with --stop-after looks whether it is done. */
const POLL_MS = 20;

/** Serves until `signal` aborts, or until --stop-after is met; `onListening` gets the bound address. */
export async function runAtpPs(
  options: AtpPsMainOptions,
  signal: AbortSignal | undefined,
  onListening: (address: string) => void = () => {},
  time: { clock: AgentClock; timers: AgentTimers } = { clock: REAL_CLOCK, timers: REAL_TIMERS },
): Promise<AtpPsReport> {
  const own = { address: options.listenAddress, port: options.listenPort };
  // On a wire the PS answers everyone with sendTo; its own address stands in for send()'s destination, which it never uses.
  const transport = options.wire
    ? await openAtpWire(options.wire, own, own)
    : await KernelUdpAddressedTransport.open({ localAddress: own.address, localPort: own.port, observeCe: options.ecnIp === true });
  const layout = layoutAtpJob(options.racks);
  const ps = new AtpParameterServer({
    transport,
    ceMarks: transport,
    closeTransport: true,
    jobs: [
      {
        jobId: options.jobId,
        poolSize: options.poolSize,
        poolBase: options.poolBase,
        contributors: layout.contributors,
        elementsPerPacket: options.elementsPerPacket,
        maxWindow: options.maxWindow,
        valueRange: options.valueRange,
        firstSequence: options.firstSequence,
        maxPieces: options.maxPieces,
      },
    ],
  });
  // On a wire, where the PS is in the frames (its socket is only the wire's end).
  const listen = options.wire ? formatSocketAddress(socketAddress(own.address, own.port, '--listen')) : formatSocketAddress(transport.local);
  try {
    onListening(listen);
    await new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const stopAfter = options.stopAfter;
      let lastDatagrams = -1;
      let quietSince = 0;
      let cancel: CancelTimer | undefined;
      const poll = (): void => {
        const seen = ps.stats.datagrams;
        const now = time.clock.now();
        if (seen !== lastDatagrams) {
          lastDatagrams = seen;
          quietSince = now;
        }
        if (stopAfter !== undefined && ps.stats.completed >= stopAfter && now - quietSince >= options.lingerMs) stop();
        else cancel = time.timers.schedule(POLL_MS, poll);
      };
      const stop = (): void => {
        cancel?.();
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      if (stopAfter !== undefined) cancel = time.timers.schedule(POLL_MS, poll);
      signal?.addEventListener('abort', stop, { once: true });
    });
    const ceObserver = transport instanceof KernelUdpAddressedTransport ? transport.ceCounters : undefined;
    const report = { jobId: options.jobId, listen, stats: ps.stats, transport: snapshotTransportCounters(transport.counters) };
    return ceObserver === undefined ? report : { ...report, ceObserver };
  } finally {
    await ps.close();
  }
}

/** One human-readable line. */
export function formatAtpPsReport(r: AtpPsReport): string {
  const s = r.stats;
  return (
    `atp ps (job ${r.jobId}, ${r.listen}): ${s.completed} sequence(s), ${s.completedByOnePiece} summed by the switches, ` +
    `${s.completedInSoftware} by the PS from ${s.piecesSummed} piece(s); ${s.collisionPieces} collided, ${s.resendPieces} resent, ` +
    `${s.overflowPieces} float piece(s), ${s.ipCeMarks} CE-marked, ${s.aggregatorMoves} aggregator move(s), ${s.reAcks + s.markedReAcks} ACK(s) resent; ` +
    `dropped ${s.duplicatePieces} duplicate(s), ` +
    `${s.strayDrops} stray, ${s.outOfWindowDrops} out of window, ${s.overLimitDrops} over the piece limit`
  );
}

const PROGRAM: AgentProgram<AtpPsMainOptions, AtpPsReport> = {
  usage: ATP_PS_USAGE,
  parse: parseAtpPsArgs,
  run: (options, io, signal) => runAtpPs(options, signal, (address) => io.out(options.json ? JSON.stringify({ listening: address }) : `atp ps listening on ${address}`)),
  format: formatAtpPsReport,
};

/** The whole command from argv: 2 for bad arguments, 1 when the run fails, else 0. */
export function atpPsCommand(argv: readonly string[], io: MainIo = CONSOLE_IO, signal?: AbortSignal): Promise<number> {
  return agentCommand(PROGRAM, argv, io, signal);
}

if (isProcessEntry(import.meta.url)) runAsProcess(atpPsCommand);
