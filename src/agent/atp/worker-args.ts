/**
 * The ATP worker's options as a program takes them (`p4ina agent
 * atp-worker`): the parsed form, which a CLI or the demo builds from a job
 * spec, and the argv parser. Every problem is ATP_BAD_CONFIG naming the option.
 */
import { ATP_HEADER_LENGTH, ATP_PORTS } from '../../wire/index.js';
import { DEFAULT_MAX_PAYLOAD } from '../transport/index.js';
import { ATP_DEFAULT_ELEMENTS, ATP_DEFAULT_WINDOW, ATP_MAX_CONTRIBUTORS, ATP_MAX_POOL, ATP_MAX_WINDOW, ATP_MAX_WORKERS } from './atp-limits.js';
import type { AtpPlacement } from './atp-options.js';
import { checkPlacement } from './atp-options.js';
import { ATP_DEFAULT_VALUE_RANGE } from './atp-scale.js';
import type { Sparsity } from '../baseline/sparse-tensor.js';
import { parseSparsity, SPARSITY_OPTIONS, SPARSITY_USAGE } from '../baseline/sparsity-args.js';
import { bad, endpoint, integer, optionalInteger, parseValues, positiveNumber, required, seed, text } from './cli-values.js';
import { ATP_ECN_IP_USAGE, ATP_WIRE_OPTIONS, ATP_WIRE_USAGE, parseAtpWire, type AtpWire } from './wire-args.js';

export interface AtpWorkerMainOptions extends AtpPlacement {
  /** This worker's address and UDP port (with switches on the path, a port in the ATP block). */
  readonly localAddress: string;
  readonly localPort: number;
  /** The parameter server's address and port. */
  readonly psAddress: string;
  readonly psPort: number;
  /** A UDP wire to a switch port; undefined: the kernel's UDP. */
  readonly wire?: AtpWire;
  /** Read CE marks on the ACKs' IPv4 headers with a raw socket on the kernel's UDP (on a wire they are always read). */
  readonly ecnIp?: boolean;
  readonly jobId: number;
  readonly rank: number;
  readonly worldSize: number;
  readonly poolSize: number;
  /** The job's first aggregator (default 0). */
  readonly poolBase?: number;
  readonly elementsPerPacket?: number;
  readonly maxWindow?: number;
  readonly initialWindow?: number;
  readonly valueRange?: number;
  readonly firstSequence?: number;
  /** Which timing defaults to start from (default loopback); `timeoutMs` and `maxRetries` override them. */
  readonly timing?: 'loopback' | 'mininet';
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  /** Elements of the seeded tensor; worker r reduces seededTensor(length, seed, r). */
  readonly length: number;
  readonly seed: number | string;
  /** Block-sparse input (the same tensors an OmniReduce job reduces); undefined: dense. */
  readonly sparsity?: Sparsity;
  readonly iterations: number;
  readonly check: boolean;
  readonly json: boolean;
}

/** What fits a 1500-byte MTU over the kernel's UDP. */
export const ATP_MAX_CLI_ELEMENTS = Math.floor((DEFAULT_MAX_PAYLOAD - ATP_HEADER_LENGTH) / 4);

export const ATP_WORKER_USAGE = `usage: atp-worker --local ADDR:PORT --ps ADDR[:PORT] --job J --rank R --workers N --pool P
                  --bitmap1-bit B --fan-in1 F1 [--bitmap0-bit b --fan-in0 F0] [options]
  --local ADDR:PORT     this worker's UDP address (with switches on the path, a port in ${ATP_PORTS.first}..${ATP_PORTS.last},
                        which switches recognise ACKs by)
  --ps ADDR[:PORT]      the parameter server (default port ${ATP_PORTS.first}); every packet goes there
${ATP_WIRE_USAGE}
${ATP_ECN_IP_USAGE}
  --job J               job id (1..65535; 0 would read as a free aggregator's tag)
  --rank R              this worker's rank, 0..N-1
  --workers N           workers in the job (1..${ATP_MAX_WORKERS}): fixes the scale
  --pool P              aggregators in the switches' shared pool (1..${ATP_MAX_POOL})
  --pool-base B         the job's part of the pool starts at aggregator B (default 0; a static split), as the PS has it
  --bitmap1-bit B       this worker's rack's bit at level 1 (its own, when its ToR does not aggregate)
  --fan-in1 F1          level-1 contributors: aggregating racks plus workers of other racks (1..${ATP_MAX_CONTRIBUTORS})
  --bitmap0-bit b       this worker's bit in its rack, when its ToR aggregates for the job ...
  --fan-in0 F0          ... and the job's workers in the rack (1..${ATP_MAX_CONTRIBUTORS})
  --elements E          values per packet, as the P4 program was compiled (default ${ATP_DEFAULT_ELEMENTS}, at most ${ATP_MAX_CLI_ELEMENTS})
  --window W            window positions, the same on every worker and the PS (default ${ATP_DEFAULT_WINDOW})
  --initial-window K    packets outstanding at the start (default min(16, W)); ECN marks then steer it
  --range R             the job's value range: larger values go as float32 (default ${ATP_DEFAULT_VALUE_RANGE};
                        the seeded tensors reach ±256, so 256 keeps them all fixed point)
  --first-sequence S    the first sequence number (default 0), as the PS has it
  --timing T            loopback (default) or mininet timeouts
  --timeout MS          resend timeout until the first round trip is measured
  --max-retries K       resends of one packet before failing
  --length L            float32 elements per tensor (default 1048576)
  --seed S              seed of the tensors (default 1)
${SPARSITY_USAGE}
  --iterations K        allreduce calls (default 1)
  --check               compare with the float64 reference
  --json                print one JSON line`;

const OPTIONS = {
  ...ATP_WIRE_OPTIONS,
  'ecn-ip': { type: 'boolean' },
  local: { type: 'string' },
  ps: { type: 'string' },
  job: { type: 'string' },
  rank: { type: 'string' },
  workers: { type: 'string' },
  pool: { type: 'string' },
  'pool-base': { type: 'string' },
  'bitmap0-bit': { type: 'string' },
  'bitmap1-bit': { type: 'string' },
  'fan-in0': { type: 'string' },
  'fan-in1': { type: 'string' },
  elements: { type: 'string' },
  window: { type: 'string' },
  'initial-window': { type: 'string' },
  range: { type: 'string' },
  'first-sequence': { type: 'string' },
  timing: { type: 'string' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
  length: { type: 'string' },
  seed: { type: 'string' },
  ...SPARSITY_OPTIONS,
  iterations: { type: 'string' },
  check: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses argv; throws ATP_BAD_CONFIG. Returns undefined for --help. */
export function parseAtpWorkerArgs(argv: readonly string[]): AtpWorkerMainOptions | undefined {
  const values = parseValues(argv, OPTIONS);
  if (values.help === true) return undefined;
  const local = endpoint(required(values, 'local', '(this worker’s ADDRESS:PORT)'), 'local', { allowZeroPort: true });
  const ps = endpoint(required(values, 'ps', '(the parameter server’s ADDRESS[:PORT])'), 'ps', { defaultPort: ATP_PORTS.first });
  const worldSize = integer(values, 'workers', 1, ATP_MAX_WORKERS);
  const timing = text(values, 'timing') ?? 'loopback';
  if (timing !== 'loopback' && timing !== 'mininet') throw bad(`--timing must be loopback or mininet, got "${timing}"`);
  const hasBitmap0 = text(values, 'bitmap0-bit') !== undefined;
  if (hasBitmap0 !== (text(values, 'fan-in0') !== undefined)) throw bad('--bitmap0-bit and --fan-in0 go together: give both when the worker’s ToR aggregates for the job, neither when it does not');
  const placement = {
    bitmap0Bit: hasBitmap0 ? integer(values, 'bitmap0-bit', 0, ATP_MAX_CONTRIBUTORS - 1) : undefined,
    bitmap1Bit: integer(values, 'bitmap1-bit', 0, ATP_MAX_CONTRIBUTORS - 1),
    fanIn0: hasBitmap0 ? integer(values, 'fan-in0', 1, ATP_MAX_CONTRIBUTORS) : 0,
    fanIn1: integer(values, 'fan-in1', 1, ATP_MAX_CONTRIBUTORS),
  };
  try {
    checkPlacement(placement);
  } catch (err) {
    throw bad(`the level bits do not fit: ${(err as Error).message}`);
  }
  const maxWindow = integer(values, 'window', 1, ATP_MAX_WINDOW, ATP_DEFAULT_WINDOW);
  return {
    ...placement,
    localAddress: local.address,
    localPort: local.port,
    psAddress: ps.address,
    psPort: ps.port,
    wire: parseAtpWire(values, { ...local, option: 'local' }),
    ecnIp: values['ecn-ip'] === true,
    jobId: integer(values, 'job', 1, 0xffff),
    rank: integer(values, 'rank', 0, worldSize - 1),
    worldSize,
    poolSize: integer(values, 'pool', 1, ATP_MAX_POOL),
    // The part must end inside the largest pool.
    poolBase: integer(values, 'pool-base', 0, ATP_MAX_POOL - integer(values, 'pool', 1, ATP_MAX_POOL), 0),
    elementsPerPacket: integer(values, 'elements', 1, ATP_MAX_CLI_ELEMENTS, ATP_DEFAULT_ELEMENTS),
    maxWindow,
    initialWindow: optionalInteger(values, 'initial-window', 1, maxWindow),
    valueRange: positiveNumber(values, 'range', ATP_DEFAULT_VALUE_RANGE),
    firstSequence: integer(values, 'first-sequence', 0, 0xffff, 0),
    timing,
    timeoutMs: optionalInteger(values, 'timeout', 1, 2_147_483_647),
    maxRetries: optionalInteger(values, 'max-retries', 0, 1_000_000),
    length: integer(values, 'length', 0, 0xffff_ffff, 1024 * 1024),
    seed: seed(values),
    sparsity: parseSparsity(values, bad),
    iterations: integer(values, 'iterations', 1, 1_000_000, 1),
    check: values.check === true,
    json: values.json === true,
  };
}
