/**
 * The SwitchML worker's options as a program takes them: the parsed form
 * (`SwitchMlWorkerMainOptions`, what a CLI builds from a job spec) and an
 * argv parser for running the worker as a process. Everything here is user
 * input: every problem is a SWITCHML_BAD_CONFIG error naming the option.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { parseArgs } from 'node:util';
import { MAX_POOL_SLOTS, SWITCHML_DEFAULT_ELEMENTS, SWITCHML_MAX_WORKERS, SWITCHML_PORTS } from '../../wire/index.js';
import type { WireHostAddress } from '../transport/index.js';
import { SWITCHML_ERROR_CODES, SwitchMlError } from './switchml-error.js';
import { parseSparsity, SPARSITY_OPTIONS, SPARSITY_USAGE } from '../baseline/sparsity-args.js';
import type { Sparsity } from '../baseline/sparse-tensor.js';

/** How the worker reaches the switch. */
export type SwitchMlTransportSpec =
  /** The kernel's UDP: bind the worker's address and port, send to the switch's. */
  | { readonly kind: 'udp'; readonly localAddress: string; readonly localPort: number; readonly switchAddress: string; readonly switchPort: number }
  /** A UDP wire to a switch port, with this host's and the switch's static addresses. */
  | {
      readonly kind: 'wire';
      readonly localAddress?: string;
      readonly localPort?: number;
      readonly peerAddress?: string;
      readonly peerPort: number;
      readonly host: WireHostAddress;
      readonly remote: WireHostAddress;
      readonly udpChecksum?: boolean;
    };

export interface SwitchMlWorkerMainOptions {
  readonly transport: SwitchMlTransportSpec;
  readonly jobId: number;
  readonly workerId: number;
  readonly numWorkers: number;
  readonly poolSize: number;
  readonly elementsPerPacket?: number;
  /** Which timing defaults to start from (default loopback); `timeoutMs` and `maxRetries` override them. */
  readonly timing?: 'loopback' | 'mininet';
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  readonly epoch?: number;
  /** Elements of the seeded tensor; worker r reduces seededTensor(length, seed, r). */
  readonly length: number;
  readonly seed: number | string;
  /** Block-sparse input (the same tensors an OmniReduce job reduces); undefined: dense. */
  readonly sparsity?: Sparsity;
  readonly iterations: number;
  readonly check: boolean;
  readonly json: boolean;
}

export const SWITCHML_WORKER_USAGE = `usage: switchml-worker --transport udp|wire --job J --worker W --workers N --pool P [options]
  --transport udp       the kernel's UDP: --local ADDR:PORT (this worker) --switch ADDR:PORT (default port ${SWITCHML_PORTS.first})
  --transport wire      a UDP wire: --peer ADDR:PORT (the switch port's socket) [--local ADDR:PORT]
                        --mac MAC --ip IP --udp-port PORT (this host)
                        --switch-mac MAC --switch-ip IP [--switch-udp-port PORT] (the switch, static)
                        [--no-udp-checksum]
  --job J               job id from the controller (0..65535)
  --worker W            this worker's id, 0..N-1
  --workers N           workers in the job (1..${SWITCHML_MAX_WORKERS})
  --pool P              the job's pool size = window (1..${MAX_POOL_SLOTS})
  --elements E          values per packet, as the P4 program was compiled (default ${SWITCHML_DEFAULT_ELEMENTS})
  --timing T            loopback (default) or mininet timeouts
  --timeout MS          retransmission timeout until the first round trip is measured
  --max-retries K       retransmissions of one packet before failing
  --epoch E             epoch of the first call (0..255, default 0)
  --length L            float32 elements per tensor (default 1048576)
  --seed S              seed of the tensors (default 1)
${SPARSITY_USAGE}
  --iterations K        allreduce calls (default 1)
  --check               compare with the float64 reference
  --json                print one JSON line`;

const OPTIONS = {
  transport: { type: 'string' },
  local: { type: 'string' },
  switch: { type: 'string' },
  peer: { type: 'string' },
  mac: { type: 'string' },
  ip: { type: 'string' },
  'udp-port': { type: 'string' },
  'switch-mac': { type: 'string' },
  'switch-ip': { type: 'string' },
  'switch-udp-port': { type: 'string' },
  'no-udp-checksum': { type: 'boolean' },
  job: { type: 'string' },
  worker: { type: 'string' },
  workers: { type: 'string' },
  pool: { type: 'string' },
  elements: { type: 'string' },
  timing: { type: 'string' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
  epoch: { type: 'string' },
  length: { type: 'string' },
  seed: { type: 'string' },
  ...SPARSITY_OPTIONS,
  iterations: { type: 'string' },
  check: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = Record<string, string | boolean | undefined>;

function bad(message: string): SwitchMlError {
  return new SwitchMlError(SWITCHML_ERROR_CODES.badConfig, message);
}

function text(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v.trim() : undefined;
}

function required(values: Values, name: string, why: string): string {
  const v = text(values, name);
  if (v === undefined || v === '') throw bad(`--${name} is required ${why}`);
  return v;
}

function integer(values: Values, name: string, min: number, max: number, fallback?: number): number {
  const raw = text(values, name);
  if (raw === undefined) {
    if (fallback === undefined) throw bad(`--${name} is required`);
    return fallback;
  }
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw bad(`--${name} must be an integer in ${min}..${max}, got "${raw}"`);
  return n;
}

/** "ADDR:PORT" or "[IPv6]:PORT" with an IP literal. */
function endpoint(raw: string, name: string, allowZeroPort: boolean): { address: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(raw);
  const address = m ? m[1]!.replace(/^\[(.*)\]$/, '$1') : '';
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(isIPv4(address) || isIPv6(address)) || !(port >= (allowZeroPort ? 0 : 1) && port <= 65535)) {
    throw bad(`--${name} must be ADDRESS:PORT with an IP literal and a port in ${allowZeroPort ? 0 : 1}..65535, got "${raw}"`);
  }
  return { address, port };
}

function transportSpec(values: Values): SwitchMlTransportSpec {
  const kind = required(values, 'transport', '(udp or wire)');
  if (kind === 'udp') {
    const local = endpoint(required(values, 'local', 'with --transport udp (this worker’s ADDRESS:PORT)'), 'local', true);
    const raw = required(values, 'switch', 'with --transport udp (the switch’s ADDRESS[:PORT])');
    const sw = endpoint(/:\d+$/.test(raw) ? raw : `${raw}:${SWITCHML_PORTS.first}`, 'switch', false);
    return { kind: 'udp', localAddress: local.address, localPort: local.port, switchAddress: sw.address, switchPort: sw.port };
  }
  if (kind !== 'wire') throw bad(`--transport must be udp or wire, got "${kind}"`);
  const peer = endpoint(required(values, 'peer', 'with --transport wire (the switch port’s ADDRESS:PORT)'), 'peer', false);
  const localRaw = text(values, 'local');
  const local = localRaw === undefined ? undefined : endpoint(localRaw, 'local', true);
  return {
    kind: 'wire',
    localAddress: local?.address,
    localPort: local?.port,
    peerAddress: peer.address,
    peerPort: peer.port,
    host: { mac: required(values, 'mac', 'with --transport wire'), ip: required(values, 'ip', 'with --transport wire'), udpPort: integer(values, 'udp-port', 1, 65535) },
    remote: {
      mac: required(values, 'switch-mac', 'with --transport wire (the agent does not ARP)'),
      ip: required(values, 'switch-ip', 'with --transport wire'),
      udpPort: integer(values, 'switch-udp-port', SWITCHML_PORTS.first, SWITCHML_PORTS.last, SWITCHML_PORTS.first),
    },
    udpChecksum: values['no-udp-checksum'] !== true,
  };
}

/** Parses argv; throws SWITCHML_BAD_CONFIG. Returns undefined for --help. */
export function parseSwitchMlWorkerArgs(argv: readonly string[]): SwitchMlWorkerMainOptions | undefined {
  let values: Values;
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values as Values;
  } catch (err) {
    throw new SwitchMlError(SWITCHML_ERROR_CODES.badConfig, err instanceof Error ? err.message : String(err), { cause: err });
  }
  if (values.help === true) return undefined;
  const numWorkers = integer(values, 'workers', 1, SWITCHML_MAX_WORKERS);
  const timing = text(values, 'timing') ?? 'loopback';
  if (timing !== 'loopback' && timing !== 'mininet') throw bad(`--timing must be loopback or mininet, got "${timing}"`);
  const seedText = text(values, 'seed') ?? '1';
  if (seedText === '') throw bad('--seed must not be empty');
  return {
    transport: transportSpec(values),
    jobId: integer(values, 'job', 0, 0xffff),
    workerId: integer(values, 'worker', 0, numWorkers - 1),
    numWorkers,
    poolSize: integer(values, 'pool', 1, MAX_POOL_SLOTS),
    elementsPerPacket: integer(values, 'elements', 1, 0xffff, SWITCHML_DEFAULT_ELEMENTS),
    timing,
    timeoutMs: text(values, 'timeout') === undefined ? undefined : integer(values, 'timeout', 1, 2_147_483_647),
    maxRetries: text(values, 'max-retries') === undefined ? undefined : integer(values, 'max-retries', 0, 1_000_000),
    epoch: integer(values, 'epoch', 0, 255, 0),
    length: integer(values, 'length', 0, 0xffff_ffff, 1024 * 1024),
    seed: /^-?\d+$/.test(seedText) && Number.isSafeInteger(Number(seedText)) ? Number(seedText) : seedText,
    sparsity: parseSparsity(values, bad),
    iterations: integer(values, 'iterations', 1, 1_000_000, 1),
    check: values.check === true,
    json: values.json === true,
  };
}
