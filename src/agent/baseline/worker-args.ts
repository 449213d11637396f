/**
 * Command-line options shared by the baseline worker entries (ring worker,
 * parameter-server worker). Everything here is user input, so every problem
 * is a BASELINE_BAD_CONFIG error that names the option and says what is
 * allowed.
 */
import { parseArgs } from 'node:util';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IO_TIMEOUT_MS, DEFAULT_JOB_ID, DEFAULT_PIECE_ELEMENTS, MAX_PIECE_ELEMENTS, MAX_TENSOR_ELEMENTS } from './defaults.js';
import { MAX_JOB_ID_BYTES } from './frame.js';
import type { Sparsity } from './sparse-tensor.js';
import { parseSparsity, SPARSITY_OPTIONS, SPARSITY_USAGE } from './sparsity-args.js';

export interface WorkerArgs {
  readonly rank: number;
  readonly worldSize: number;
  readonly jobId: string;
  /** Elements of the tensor each rank reduces. */
  readonly length: number;
  /** Seed of the tensors (rank r's tensor is seededTensor(length, seed, r)); an integer when the text is one. */
  readonly seed: number | string;
  /** Block-sparse input (workerTensor); undefined: dense. */
  readonly sparsity: Sparsity | undefined;
  readonly iterations: number;
  readonly pieceElements: number;
  readonly connectTimeoutMs: number;
  readonly ioTimeoutMs: number;
  /** Print one JSON line instead of text. */
  readonly json: boolean;
  /** Also rebuild every rank's tensor and compare the result with the float64 reference. */
  readonly check: boolean;
}

/** node:util parseArgs option specs for the shared options. */
export const WORKER_OPTIONS = {
  rank: { type: 'string' },
  world: { type: 'string' },
  job: { type: 'string' },
  length: { type: 'string' },
  seed: { type: 'string' },
  ...SPARSITY_OPTIONS,
  iterations: { type: 'string' },
  'piece-elements': { type: 'string' },
  'connect-timeout': { type: 'string' },
  'io-timeout': { type: 'string' },
  json: { type: 'boolean' },
  check: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const WORKER_USAGE = `  --rank R              this worker's rank, 0..N-1 (required)
  --world N             number of workers (required)
  --job ID              job id, the same on every worker (default "${DEFAULT_JOB_ID}")
  --length E            float32 elements per tensor (default 1048576)
  --seed S              seed of the random tensors (default 1)
${SPARSITY_USAGE}
  --iterations K        allreduce calls to make (default 1)
  --piece-elements P    values per frame (default ${DEFAULT_PIECE_ELEMENTS})
  --connect-timeout MS  set-up deadline (default ${DEFAULT_CONNECT_TIMEOUT_MS})
  --io-timeout MS       fail a call when nothing moves for this long (default ${DEFAULT_IO_TIMEOUT_MS})
  --check               compare the result with the float64 reference
  --json                print one JSON line`;

export function badConfig(message: string): BaselineError {
  return new BaselineError(BASELINE_ERROR_CODES.badConfig, message);
}

/** Parses argv with the shared options plus `extra`; throws BASELINE_BAD_CONFIG on unknown or malformed options. */
export function parseWorkerArgv<E extends Record<string, { type: 'string' | 'boolean'; short?: string }>>(
  argv: readonly string[],
  extra: E,
): Record<string, string | boolean | undefined> {
  try {
    const { values } = parseArgs({ args: [...argv], options: { ...WORKER_OPTIONS, ...extra }, strict: true, allowPositionals: false });
    return values as Record<string, string | boolean | undefined>;
  } catch (err) {
    throw new BaselineError(BASELINE_ERROR_CODES.badConfig, err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** An integer option in [min, max]; `fallback` when absent, an error when required and absent. */
export function integerOption(values: Record<string, string | boolean | undefined>, name: string, min: number, max: number, fallback?: number): number {
  const raw = values[name];
  if (raw === undefined || raw === true || raw === false) {
    if (fallback === undefined) throw badConfig(`--${name} is required`);
    return fallback;
  }
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw badConfig(`--${name} must be an integer in ${min}..${max}, got "${raw}"`);
  return value;
}

/** The shared options; `maxWorld` is the algorithm's limit on --world. */
export function workerArgs(values: Record<string, string | boolean | undefined>, maxWorld: number): WorkerArgs {
  const worldSize = integerOption(values, 'world', 1, maxWorld);
  const jobId = typeof values.job === 'string' ? values.job : DEFAULT_JOB_ID;
  const jobBytes = Buffer.byteLength(jobId, 'utf8');
  if (jobBytes < 1 || jobBytes > MAX_JOB_ID_BYTES) throw badConfig(`--job must be 1..${MAX_JOB_ID_BYTES} bytes, got ${jobBytes}`);
  return {
    rank: integerOption(values, 'rank', 0, worldSize - 1),
    worldSize,
    jobId,
    length: integerOption(values, 'length', 0, MAX_TENSOR_ELEMENTS, 1024 * 1024),
    seed: seedOption(values.seed),
    sparsity: parseSparsity(values, badConfig),
    iterations: integerOption(values, 'iterations', 1, 1_000_000, 1),
    pieceElements: integerOption(values, 'piece-elements', 1, MAX_PIECE_ELEMENTS, DEFAULT_PIECE_ELEMENTS),
    connectTimeoutMs: integerOption(values, 'connect-timeout', 1, 2_147_483_647, DEFAULT_CONNECT_TIMEOUT_MS),
    ioTimeoutMs: integerOption(values, 'io-timeout', 1, 2_147_483_647, DEFAULT_IO_TIMEOUT_MS),
    json: values.json === true,
    check: values.check === true,
  };
}

/** "42" is the number 42 (so the CLI and library callers passing 42 get the same tensors); other text is hashed. */
function seedOption(raw: string | boolean | undefined): number | string {
  if (typeof raw !== 'string') return 1;
  const trimmed = raw.trim();
  if (/^-?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed))) return Number(trimmed);
  if (trimmed === '') throw badConfig('--seed must not be empty');
  return trimmed;
}
