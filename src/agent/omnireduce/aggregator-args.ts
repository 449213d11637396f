/**
 * The OmniReduce host aggregator's command line (`p4ina agent
 * omnireduce-aggregator`): where it listens (the kernel's UDP, or a UDP wire
 * to a switch port as the ATP parameter server has it), the job's workers in
 * rank order, the slots this shard owns and the block size. Every problem is
 * OMNIREDUCE_BAD_CONFIG naming the option.
 */
import { endpoint, integer, parseValues, required, type Values } from '../atp/cli-values.js';
import { ATP_WIRE_OPTIONS, ATP_WIRE_USAGE, parseAtpWire, type AtpWire } from '../atp/wire-args.js';
import { formatSocketAddress, socketAddress, type SocketAddress } from '../transport/index.js';
import { asBadConfig, bad, BLOCK_SIZE_USAGE, blockSize } from './cli-args.js';
import { addressKey } from './sourced-transport.js';

/** Slots in the 15-bit slot field. */
const SLOT_FIELD = 0x8000;

export interface OmniReduceAggregatorMainOptions {
  readonly listenAddress: string;
  readonly listenPort: number;
  /** A UDP wire to a switch port; undefined: the kernel's UDP. */
  readonly wire: AtpWire | undefined;
  /** The job's workers in rank order: where replies go, and whom messages are taken from. */
  readonly workers: readonly SocketAddress[];
  readonly firstSlot: number;
  readonly slotCount: number;
  readonly blockSize: number;
  readonly json: boolean;
}

export const OMNIREDUCE_AGGREGATOR_USAGE = `usage: omnireduce-aggregator --listen ADDR:PORT --workers ADDR:PORT,... --slots N [options]
  --listen ADDR:PORT    where this shard receives (the address workers name in --aggregator; port 0: any, over the kernel's UDP)
${ATP_WIRE_USAGE}
  --workers LIST        the job's workers in rank order, ADDR:PORT each (comma-separated, or --workers repeated):
                        messages from anyone else are dropped
  --first-slot F        the first slot this shard owns (default 0)
  --slots N             how many slots it owns, F..F+N-1 (the workers' --aggregator ADDR:PORT@F+N)
${BLOCK_SIZE_USAGE}
  --json                print {"listening":"ADDR:PORT"} first and the report as one JSON line
Serves until SIGINT or SIGTERM, then prints what it did.`;

const OPTIONS = {
  ...ATP_WIRE_OPTIONS,
  listen: { type: 'string' },
  workers: { type: 'string', multiple: true },
  'first-slot': { type: 'string' },
  slots: { type: 'string' },
  'block-size': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function workers(values: Values): SocketAddress[] {
  const raw = values.workers;
  const items = (Array.isArray(raw) ? raw : []).flatMap((list) => list.split(',')).map((item) => item.trim());
  if (items.length === 0 || items.some((item) => item === '')) throw bad('--workers is required: the job\'s workers in rank order, ADDR:PORT,...');
  const seen = new Set<string>();
  return items.map((item) => {
    const { address, port } = endpoint(item, 'workers');
    const a = socketAddress(address, port, '--workers');
    if (seen.has(addressKey(a))) throw bad(`--workers lists ${formatSocketAddress(a)} twice; each worker needs its own address and port`);
    seen.add(addressKey(a));
    return a;
  });
}

function parse(values: Values): OmniReduceAggregatorMainOptions | undefined {
  if (values.help === true) return undefined;
  const listen = endpoint(required(values, 'listen', '(ADDRESS:PORT; port 0 picks a free one)'), 'listen', { allowZeroPort: true });
  const firstSlot = integer(values, 'first-slot', 0, SLOT_FIELD - 1, 0);
  const own = socketAddress(listen.address, listen.port, '--listen', true);
  const job = workers(values);
  // Replies go from this socket (or wire, which carries IPv4) to every worker.
  const other = job.find((w) => w.family !== own.family);
  if (other !== undefined) throw bad(`--workers: ${formatSocketAddress(other)} is not of --listen's IP family (IPv${own.family}); replies could not reach it`);
  return {
    listenAddress: listen.address,
    listenPort: listen.port,
    wire: parseAtpWire(values, { ...listen, option: 'listen' }),
    workers: job,
    firstSlot,
    slotCount: integer(values, 'slots', 1, SLOT_FIELD - firstSlot),
    blockSize: blockSize(values),
    json: values.json === true,
  };
}

/** Parses argv; throws OMNIREDUCE_BAD_CONFIG. Returns undefined for --help. */
export function parseOmniReduceAggregatorArgs(argv: readonly string[]): OmniReduceAggregatorMainOptions | undefined {
  return asBadConfig(() => parse(parseValues(argv, OPTIONS)));
}
