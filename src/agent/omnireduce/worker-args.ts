/**
 * The OmniReduce worker's command line (`p4ina agent omnireduce-worker`):
 * this worker's address and rank, the aggregator shards and the slots each
 * owns, the block size and zero threshold, the transport (the kernel's UDP,
 * or a UDP wire to a switch port as the ATP agents have it), the input
 * (the seeded tensor, block-sparse with --sparsity) and the run. Every
 * problem is OMNIREDUCE_BAD_CONFIG naming the option.
 */
import { endpoint, integer, optionalInteger, parseValues, required, seed, text, type Values } from '../atp/cli-values.js';
import { ATP_WIRE_OPTIONS, ATP_WIRE_USAGE, parseAtpWire, type AtpWire } from '../atp/wire-args.js';
import { parseSparsity, SPARSITY_OPTIONS, SPARSITY_USAGE } from '../baseline/sparsity-args.js';
import type { Sparsity } from '../baseline/sparse-tensor.js';
import { socketAddress } from '../transport/index.js';
import { asBadConfig, bad, BLOCK_SIZE_USAGE, blockSize } from './cli-args.js';
import { slotOwners, type AggregatorShard } from './omnireduce-options.js';

export interface OmniReduceWorkerMainOptions {
  /** This worker's address and UDP port: the aggregators know it by them. */
  readonly localAddress: string;
  readonly localPort: number;
  /** A UDP wire to a switch port; undefined: the kernel's UDP. */
  readonly wire: AtpWire | undefined;
  readonly rank: number;
  readonly worldSize: number;
  /** The shards, covering slots 0..S−1. */
  readonly aggregators: readonly AggregatorShard[];
  readonly blockSize: number;
  readonly zeroThreshold: number;
  /** Which blocks of the seeded tensor are zero; undefined: the dense tensor. */
  readonly sparsity: Sparsity | undefined;
  readonly timing: 'loopback' | 'mininet';
  readonly timeoutMs: number | undefined;
  readonly maxRetries: number | undefined;
  readonly length: number;
  readonly seed: number | string;
  readonly iterations: number;
  readonly check: boolean;
  readonly json: boolean;
}

export const OMNIREDUCE_WORKER_USAGE = `usage: omnireduce-worker --local ADDR:PORT --rank R --workers N --aggregator ADDR:PORT@F+N [--aggregator ...] [options]
  --local ADDR:PORT     this worker's address and UDP port, as the aggregators list it in their --workers
  --rank R              this worker's rank, 0..N-1 (its seeded tensor)
  --workers N           workers in the job: fixes the scale, the same on every worker
  --aggregator A@F+N    an aggregator shard at ADDR:PORT owning slots F..F+N-1; repeat it (or comma-separate) for
                        every shard, the ranges together covering 0..S-1; block b goes to slot b mod S
${ATP_WIRE_USAGE}
${BLOCK_SIZE_USAGE}
  --zero-threshold T    skip a block whose every |x| ≤ T (default 0: only all-zero blocks, lossless; above 0 lossy)
${SPARSITY_USAGE}
                        (here --sparse-block defaults to --block-size, so zero blocks are whole OmniReduce blocks)
  --timing T            loopback (default) or mininet timeouts
  --timeout MS          retransmission timeout until the first round trip is measured
  --max-retries K       retransmissions of one message before failing with OMNIREDUCE_TIMEOUT
  --length L            float32 elements per tensor (default 1048576)
  --seed S              seed of the tensors (default 1)
  --iterations K        allreduce calls (default 1)
  --check               compare with the float64 reference
  --json                print one JSON line`;

const OPTIONS = {
  ...ATP_WIRE_OPTIONS,
  ...SPARSITY_OPTIONS,
  local: { type: 'string' },
  rank: { type: 'string' },
  workers: { type: 'string' },
  aggregator: { type: 'string', multiple: true },
  'block-size': { type: 'string' },
  'zero-threshold': { type: 'string' },
  timing: { type: 'string' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
  length: { type: 'string' },
  seed: { type: 'string' },
  iterations: { type: 'string' },
  check: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function shards(values: Values): AggregatorShard[] {
  const raw = values.aggregator;
  const items = (Array.isArray(raw) ? raw : []).flatMap((list) => list.split(',')).map((item) => item.trim());
  if (items.length === 0) throw bad('--aggregator is required: ADDR:PORT@FIRST+COUNT for each aggregator shard');
  const out = items.map((item) => {
    const m = /^(.+)@(\d{1,5})\+(\d{1,5})$/.exec(item);
    if (!m) throw bad(`--aggregator must be ADDR:PORT@FIRST+COUNT (the shard and the slots it owns), got "${item}"`);
    const { address, port } = endpoint(m[1]!, 'aggregator');
    return { address: socketAddress(address, port, '--aggregator'), firstSlot: Number(m[2]), slotCount: Number(m[3]) };
  });
  try {
    slotOwners(out);
  } catch (err) {
    throw bad(`--aggregator: ${(err as Error).message}`);
  }
  return out;
}

function zeroThreshold(values: Values): number {
  const raw = text(values, 'zero-threshold');
  if (raw === undefined) return 0;
  const t = /^\d+(\.\d*)?([eE][+-]?\d+)?$|^\.\d+([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(t)) throw bad(`--zero-threshold must be a number ≥ 0, got "${raw}"`);
  return t;
}

function parse(values: Values): OmniReduceWorkerMainOptions | undefined {
  if (values.help === true) return undefined;
  const local = endpoint(required(values, 'local', '(this worker\'s ADDRESS:PORT, as the aggregators list it)'), 'local');
  const worldSize = integer(values, 'workers', 1, 0xffff);
  const aggregators = shards(values);
  const other = aggregators.find((a) => a.address.family !== socketAddress(local.address, local.port, '--local').family);
  if (other !== undefined) throw bad(`--aggregator ${other.address.address} is not of --local's IP family`);
  const block = blockSize(values);
  const timing = text(values, 'timing') ?? 'loopback';
  if (timing !== 'loopback' && timing !== 'mininet') throw bad(`--timing must be loopback or mininet, got "${timing}"`);
  return {
    localAddress: local.address,
    localPort: local.port,
    wire: parseAtpWire(values, { ...local, option: 'local' }),
    rank: integer(values, 'rank', 0, worldSize - 1),
    worldSize,
    aggregators,
    blockSize: block,
    zeroThreshold: zeroThreshold(values),
    sparsity: parseSparsity(values, bad, block),
    timing,
    timeoutMs: optionalInteger(values, 'timeout', 1, 2_147_483_647),
    maxRetries: optionalInteger(values, 'max-retries', 0, 1_000_000),
    length: integer(values, 'length', 0, 0xffff_ffff, 1024 * 1024),
    seed: seed(values),
    iterations: integer(values, 'iterations', 1, 1_000_000, 1),
    check: values.check === true,
    json: values.json === true,
  };
}

/** Parses argv; throws OMNIREDUCE_BAD_CONFIG. Returns undefined for --help. */
export function parseOmniReduceWorkerArgs(argv: readonly string[]): OmniReduceWorkerMainOptions | undefined {
  return asBadConfig(() => parse(parseValues(argv, OPTIONS)));
}
