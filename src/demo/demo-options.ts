/**
 * The options of `p4ina demo` and their parser. Everything here is user
 * input: every problem is a DEMO_BAD_OPTION error naming the option.
 */
import { parseArgs } from 'node:util';
import { ATP_MAX_WINDOW, maxElementsPerPacket } from '../controller/index.js';
import { DEMO_ALGORITHMS, type DemoAlgorithm } from '../report/demo-results.js';
import { ATP_MAX_FAN_IN, MAX_POOL_SLOTS, SWITCHML_DEFAULT_ELEMENTS, SWITCHML_MAX_WORKERS } from '../wire/index.js';
import { UDP_WIRE_IO_CHOICES, type UdpWireIo } from '../switch/ports/udp-wire-io.js';
import { DEMO_ERROR_CODES, DemoError } from './demo-error.js';
import type { Sparsity } from '../agent/baseline/sparse-tensor.js';
import { parseSparsity, SPARSITY_OPTIONS } from '../agent/baseline/sparsity-args.js';
import { SPARSITY_PATTERNS } from '../agent/baseline/sparse-tensor.js';

export interface DemoOptions {
  /** What runs, in this order, one row each. */
  readonly algorithms: readonly DemoAlgorithm[];
  /** Worker processes per algorithm. */
  readonly workers: number;
  /** Bytes of each worker's float32 tensor (a multiple of 4). */
  readonly tensorBytes: number;
  /** Probability that the demo's wire relay drops a frame, each way (0 = no relay). */
  readonly loss: number;
  /** Seed of the tensors and of the loss. */
  readonly seed: number | string;
  /** Each worker's window: the SwitchML job's pool of slots, the ATP job's window positions. */
  readonly poolSize: number;
  /** int32 values per SwitchML packet: switchml.p4's SWITCHML_ELEMENTS, the job's elements_per_packet, the workers' --elements. */
  readonly switchMlElements: number;
  /** Print one JSON document instead of the table. */
  readonly json: boolean;
  /** Run the remaining algorithms when one failed, and report them all. */
  readonly keepGoing: boolean;
  /** Longest wait for one algorithm's workers, in ms. */
  readonly runTimeoutMs: number;
  /** Every algorithm's tensors block-sparse (the same tensors for all); undefined: dense. */
  readonly sparsity?: Sparsity;
  /** Hierarchical AllReduce's rack of each rank (worker h(r+1)); undefined: pairs of hosts (see demoRacks). */
  readonly racks?: readonly string[];
  /** UDP sockets of the switch's wires and the SwitchML workers (`--udp-io`); undefined: their default. */
  readonly udpIo?: UdpWireIo;
}

/** The most values switchml.p4 compiles with and a job spec takes: a 1500-byte MTU's worth. */
const SWITCHML_MAX_ELEMENTS = maxElementsPerPacket('switchml');
/**
 * The demo's values per SwitchML packet: 256 (1 KiB), not SwitchML's own 64.
 * The emulated switch pays per packet (I/O, parsing, replication) as much as
 * per value, and the loopback MTU is no limit; with 256 the demo's SwitchML
 * runs about twice as fast (bench/RESULTS.md, issue #15). `--elements 64` gives
 * the paper's packets.
 */
export const DEMO_SWITCHML_ELEMENTS = 256;

export const DEFAULT_DEMO_OPTIONS: DemoOptions = {
  algorithms: ['switchml', 'ring'],
  workers: 4,
  tensorBytes: 16 * 1024 * 1024,
  loss: 0,
  seed: 1,
  poolSize: 32,
  switchMlElements: DEMO_SWITCHML_ELEMENTS,
  json: false,
  keepGoing: false,
  runTimeoutMs: 600_000,
};

export const DEMO_USAGE = `usage: p4ina demo [options]

On loopback, without root: compiles p4/switchml.p4, starts an emulated switch whose
ports are UDP wires on 127.0.0.1, programs it over P4Runtime (forwarding and a
SwitchML job), then runs N worker processes that AllReduce seeded random tensors
through the switch, then the ring AllReduce baseline over TCP on the same tensors,
and prints a table of both. --algorithm chooses what runs: atp runs p4/atp.p4 on
its own switch with a parameter server (PS) on one more port; ps is the
parameter-server baseline over TCP; hierarchical is hierarchical AllReduce over TCP
(reduce in each rack, ring among the racks' leaders, broadcast), with racks of
processes on this one machine (--racks; by default pairs of hosts). omnireduce sends
only the non-zero blocks to a host aggregator on one more port of a switch running
p4/omnireduce.p4 (the paper's design); omnireduce-switch has that switch aggregate
instead (blocks of at most 128). Give --sparsity to make every algorithm's tensors
block-sparse, so that the table compares them on the same data.

options:
  --algorithm LIST   comma-separated, run in this order: ${DEMO_ALGORITHMS.join(', ')}
                     (default ${DEFAULT_DEMO_OPTIONS.algorithms.join(',')})
  --workers N        worker processes (1..${SWITCHML_MAX_WORKERS}, with atp 1..${ATP_MAX_FAN_IN}; default ${DEFAULT_DEMO_OPTIONS.workers})
  --tensor SIZE      bytes of float32 per worker: 16MiB, 512KiB, 1MB, or bytes (default 16MiB)
  --loss P           drop each frame on the wires with probability P (0..0.5, default 0),
                     seeded; the demo relays every wire through itself to do so
  --seed S           seed of the tensors and of the loss (default 1)
  --sparsity D       make every algorithm's tensors block-sparse: share D (0..1) of the blocks
                     all zero (0.9: one block in ten has values); dense by default
  --pattern P        which blocks carry values: ${SPARSITY_PATTERNS.join(', ')} (default random)
  --sparse-block B   elements per block (default: OmniReduce's block size, 256)
  --pool P           each worker's window: the SwitchML job's slots, the ATP job's window
                     positions (1..${MAX_POOL_SLOTS}, with atp 1..${ATP_MAX_WINDOW}; default ${DEFAULT_DEMO_OPTIONS.poolSize})
  --elements E       int32 values per SwitchML packet (1..${SWITCHML_MAX_ELEMENTS}; default ${DEMO_SWITCHML_ELEMENTS}; ${SWITCHML_DEFAULT_ELEMENTS} is SwitchML's own):
                     switchml.p4 is compiled with -DSWITCHML_ELEMENTS=E, and the job and
                     the workers use E; ${SWITCHML_MAX_ELEMENTS} is the most a 1500-byte MTU takes
  --racks LIST       with hierarchical: every worker's rack, in rank order, e.g. 0,0,0,1,1
                     (default pairs: h1 h2 | h3 h4 | …); each rack's first worker is its leader
  --udp-io IO        UDP sockets of the switch's wires and of the SwitchML workers:
                     ${UDP_WIRE_IO_CHOICES.join(' or ')} (p4ina switch/agent --udp-io; default: batched
                     where the udp_batch addon loads)
  --timeout SEC      longest wait for one algorithm's run (default ${DEFAULT_DEMO_OPTIONS.runTimeoutMs / 1000})
  --keep-going       run the remaining algorithms when one failed, and report them all
  --json             print one JSON document instead of the table
  -h, --help         show this help

Exit status: 0 every run exact and identical on all workers, 1 a run failed or was
not exact, 2 bad options. Progress goes to stderr; Ctrl-C stops every process.`;

const OPTIONS = {
  algorithm: { type: 'string' },
  workers: { type: 'string' },
  tensor: { type: 'string' },
  loss: { type: 'string' },
  seed: { type: 'string' },
  pool: { type: 'string' },
  elements: { type: 'string' },
  timeout: { type: 'string' },
  racks: { type: 'string' },
  'udp-io': { type: 'string' },
  ...SPARSITY_OPTIONS,
  'keep-going': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function bad(message: string): DemoError {
  return new DemoError(DEMO_ERROR_CODES.badOption, message);
}

const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1000, mb: 1000 ** 2, gb: 1000 ** 3, k: 1024, m: 1024 ** 2 };

/** "16MiB", "64 KiB", "1MB", "4096" → bytes; a whole number of float32 values, at most 1 GiB. */
export function parseTensorSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw bad(`--tensor takes a size such as 16MiB, 512KiB, 1MB or a number of bytes, not "${text}"`);
  const bytes = Number(m[1]) * unit;
  if (!Number.isSafeInteger(bytes) || bytes < 4 || bytes > 1024 ** 3) throw bad(`--tensor must be a whole number of bytes from 4 to 1GiB, got "${text}"`);
  if (bytes % 4 !== 0) throw bad(`--tensor must be a multiple of 4 bytes (float32 values), got ${bytes}`);
  return bytes;
}

function integer(raw: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw bad(`--${name} must be an integer in ${min}..${max}, got "${raw}"`);
  return n;
}

function probability(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const p = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(p >= 0 && p <= 0.5)) throw bad(`--loss must be a probability from 0 to 0.5 (e.g. 0.01 for 1%), got "${raw}"`);
  return p;
}

function seed(raw: string | undefined): number | string {
  if (raw === undefined) return DEFAULT_DEMO_OPTIONS.seed;
  const trimmed = raw.trim();
  if (trimmed === '') throw bad('--seed must not be empty');
  // The workers read "42" as the number 42; so does the demo, for its own loss stream.
  return /^-?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed)) ? Number(trimmed) : trimmed;
}

/** "atp,ring" → ['atp', 'ring']: known names, each once, in the order given. */
export function parseAlgorithms(raw: string | undefined): readonly DemoAlgorithm[] {
  if (raw === undefined) return DEFAULT_DEMO_OPTIONS.algorithms;
  const names = raw.split(',').map((name) => name.trim().toLowerCase());
  const known = new Set<string>(DEMO_ALGORITHMS);
  const unknown = names.find((name) => !known.has(name));
  if (unknown !== undefined) throw bad(`--algorithm takes a comma-separated list of ${DEMO_ALGORITHMS.join(', ')}; "${unknown}" is not one${unknown === '' ? ' (an empty name)' : ''}`);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw bad(`--algorithm lists ${twice} twice; give each once`);
  return names as DemoAlgorithm[];
}

/** The racks hierarchical AllReduce runs with: `options.racks`, or pairs of hosts (rank r in rack ⌊r/2⌋). */
export function demoRacks(options: Pick<DemoOptions, 'workers' | 'racks'>): readonly string[] {
  return options.racks ?? Array.from({ length: options.workers }, (_, rank) => String(Math.floor(rank / 2)));
}

function racks(raw: string | undefined, workers: number, algorithms: readonly DemoAlgorithm[]): readonly string[] | undefined {
  if (raw === undefined) return undefined;
  if (!algorithms.includes('hierarchical')) throw bad('--racks applies to hierarchical AllReduce only; add hierarchical to --algorithm or leave --racks out');
  const names = raw.split(',').map((name) => name.trim());
  const empty = names.indexOf('');
  if (empty >= 0) throw bad(`--racks entry ${empty} is empty; give every worker's rack, e.g. 0,0,1,1`);
  if (names.length !== workers) throw bad(`--racks lists ${names.length} rack(s) but there are ${workers} workers; give one per worker, in rank order`);
  return names;
}

/** Parses argv after "demo"; undefined means --help. Throws DEMO_BAD_OPTION. */
export function parseDemoArgs(argv: readonly string[]): DemoOptions | undefined {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw bad(err instanceof Error ? err.message : String(err));
  }
  if (values.help === true) return undefined;
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const tensor = text('tensor');
  const algorithms = parseAlgorithms(text('algorithm'));
  const workers = integer(text('workers'), 'workers', 1, SWITCHML_MAX_WORKERS, DEFAULT_DEMO_OPTIONS.workers);
  // One switch: ATP's level-0 fan-in is every worker, and fan-ins stop at 31 (5 bits).
  if (algorithms.includes('atp') && workers > ATP_MAX_FAN_IN) throw bad(`--workers must be at most ${ATP_MAX_FAN_IN} with atp (a switch aggregates at most ${ATP_MAX_FAN_IN} contributors), got ${workers}`);
  const poolSize = integer(text('pool'), 'pool', 1, MAX_POOL_SLOTS, DEFAULT_DEMO_OPTIONS.poolSize);
  // ATP's sequence numbers are 16 bits and its PS tells sequences apart within 2W of each other.
  if (algorithms.includes('atp') && poolSize > ATP_MAX_WINDOW) throw bad(`--pool must be at most ${ATP_MAX_WINDOW} with atp (its window positions), got ${poolSize}`);
  const rackList = racks(text('racks'), workers, algorithms);
  if (text('elements') !== undefined && !algorithms.includes('switchml')) throw bad('--elements applies to switchml only; add switchml to --algorithm or leave --elements out');
  const switchMlElements = integer(text('elements'), 'elements', 1, SWITCHML_MAX_ELEMENTS, DEFAULT_DEMO_OPTIONS.switchMlElements);
  const sparsity = parseSparsity(values, bad);
  const udpIo = text('udp-io');
  if (udpIo !== undefined && !(UDP_WIRE_IO_CHOICES as readonly string[]).includes(udpIo)) throw bad(`--udp-io takes ${UDP_WIRE_IO_CHOICES.join(' or ')}, not "${udpIo}"`);
  return {
    algorithms,
    workers,
    tensorBytes: tensor === undefined ? DEFAULT_DEMO_OPTIONS.tensorBytes : parseTensorSize(tensor),
    loss: probability(text('loss')),
    seed: seed(text('seed')),
    poolSize,
    switchMlElements,
    runTimeoutMs: integer(text('timeout'), 'timeout', 1, 86_400, DEFAULT_DEMO_OPTIONS.runTimeoutMs / 1000) * 1000,
    json: values.json === true,
    keepGoing: values['keep-going'] === true,
    ...(rackList ? { racks: rackList } : {}),
    ...(sparsity ? { sparsity } : {}),
    ...(udpIo !== undefined ? { udpIo: udpIo as UdpWireIo } : {}),
  };
}
