/**
 * The Rina worker's command line (`p4ina agent rina-worker`): the ring in
 * order, one `--member` per member (as the controller's plan gives it), this
 * worker's place, the job's constants, the transport (the kernel's UDP, or a
 * UDP wire to a switch port as the ATP agents have it) and the run. Every
 * problem is RINA_BAD_CONFIG naming the option.
 */
import { ATP_WIRE_OPTIONS, ATP_WIRE_USAGE, parseAtpWire, type AtpWire } from '../atp/wire-args.js';
import { endpoint, integer, optionalInteger, parseValues, seed, text, type Values } from '../atp/cli-values.js';
import { DEFAULT_MAX_PAYLOAD, socketAddress, type SocketAddress } from '../transport/index.js';
import { RINA_HEADER_LENGTH, RINA_PORTS } from '../../wire/index.js';
import { bad, checkRing, roleOf, worldSizeOf, type RinaMember, type RinaPlace } from './ring-config.js';
import { RinaError } from './rina-error.js';
import type { Sparsity } from '../baseline/sparse-tensor.js';
import { parseSparsity, SPARSITY_OPTIONS, SPARSITY_USAGE } from '../baseline/sparsity-args.js';
import { RINA_DEFAULT_ELEMENTS, RINA_MAX_POOL } from './rina-options.js';

export interface RinaWorkerMainOptions {
  readonly ring: readonly RinaMember[];
  readonly place: RinaPlace;
  /** An INA rack's agent: its ToR's address, where its own CONTRIBUTIONs go. */
  readonly torAddress: SocketAddress | undefined;
  readonly rank: number;
  /** A UDP wire to a switch port; undefined: the kernel's UDP, bound to this worker's ring address. */
  readonly wire: AtpWire | undefined;
  readonly jobId: number;
  readonly poolSize: number;
  readonly elementsPerPacket: number;
  readonly firstEpoch: number;
  readonly timing: 'loopback' | 'mininet';
  readonly timeoutMs: number | undefined;
  readonly maxRetries: number | undefined;
  /** After the last call, answer retransmissions until the ring is quiet this long (ms). */
  readonly drainMs: number | undefined;
  readonly length: number;
  readonly seed: number | string;
  /** Block-sparse input (the same tensors an OmniReduce job reduces); undefined: dense. */
  readonly sparsity: Sparsity | undefined;
  readonly iterations: number;
  readonly check: boolean;
  readonly json: boolean;
}

/** What fits a 1500-byte MTU over the kernel's UDP. */
const MAX_CLI_ELEMENTS = Math.floor((DEFAULT_MAX_PAYLOAD - RINA_HEADER_LENGTH) / 4);

export const RINA_WORKER_USAGE = `usage: rina-worker --member M [--member M]... --position P [--worker-id W] --rank R --job J --pool P [options]
  --member M            a ring member, in ring order: worker:ADDR:PORT (an autonomous worker) or
                        rack:ADDR:PORT[,ADDR:PORT]... (an INA rack: its agent first, then its workers by worker id);
                        ports in ${RINA_PORTS.first}..${RINA_PORTS.last}, which the ToRs recognise Rina by
  --position P          this worker's member, 0..members-1
  --worker-id W         this worker in its rack (default 0: the agent, or an autonomous worker)
  --rank R              this worker's rank in the job (its seeded tensor)
  --tor ADDR:PORT       an INA rack's agent: its ToR's address, where it sends its own contributions
                        (needed over the kernel's UDP, where a datagram to the host's own address stays in
                        the host; the port is the agent's own, in the Rina block)
${ATP_WIRE_USAGE}
  --job J               job id (0..65535), as the ToRs have it
  --pool P              the job's slots at every INA ToR (1..${RINA_MAX_POOL}): it fixes the window
  --elements E          values per packet, as rina_tor.p4 was compiled (default ${RINA_DEFAULT_ELEMENTS}, at most ${MAX_CLI_ELEMENTS})
  --first-epoch E       the first pass's epoch (default 1), the same on every member
  --timing T            loopback (default) or mininet timeouts
  --timeout MS          retransmission timeout until the first round trip is measured
  --max-retries K       retransmissions of one packet before failing
  --drain MS            after the last call, keep acknowledging until nothing came for MS (default: twice the longest wait)
  --length L            float32 elements per tensor (default 1048576)
  --seed S              seed of the tensors (default 1)
${SPARSITY_USAGE}
  --iterations K        allreduce calls (default 1)
  --check               compare with the float64 reference
  --json                print one JSON line`;

const OPTIONS = {
  ...ATP_WIRE_OPTIONS,
  member: { type: 'string', multiple: true },
  position: { type: 'string' },
  'worker-id': { type: 'string' },
  rank: { type: 'string' },
  tor: { type: 'string' },
  job: { type: 'string' },
  pool: { type: 'string' },
  elements: { type: 'string' },
  'first-epoch': { type: 'string' },
  timing: { type: 'string' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
  drain: { type: 'string' },
  length: { type: 'string' },
  seed: { type: 'string' },
  ...SPARSITY_OPTIONS,
  iterations: { type: 'string' },
  check: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function member(raw: string, index: number): RinaMember {
  const m = /^(rack|worker):(.+)$/.exec(raw.trim());
  if (!m) throw bad(`--member ${index + 1} must be worker:ADDR:PORT or rack:ADDR:PORT[,ADDR:PORT]..., got "${raw}"`);
  const workers = m[2]!.split(',').map((e) => {
    const { address, port } = endpoint(e.trim(), `member ${index + 1}`);
    return socketAddress(address, port, `--member ${index + 1}`);
  });
  return { kind: m[1] as 'rack' | 'worker', workers };
}

function parse(values: Values): RinaWorkerMainOptions | undefined {
  if (values.help === true) return undefined;
  const raw = values.member;
  const members = (Array.isArray(raw) ? raw : []).map(member);
  const ring = checkRing(members);
  const place = { position: integer(values, 'position', 0, ring.length - 1), workerId: integer(values, 'worker-id', 0, 31, 0) };
  const role = roleOf(ring, place);
  const torText = text(values, 'tor');
  if (torText !== undefined && role !== 'agent') throw bad('--tor is for an INA rack\'s agent (worker id 0 of a rack member)');
  const tor = torText === undefined ? undefined : endpoint(torText, 'tor');
  const own = ring[place.position]!.workers[place.workerId]!;
  const timing = text(values, 'timing') ?? 'loopback';
  if (timing !== 'loopback' && timing !== 'mininet') throw bad(`--timing must be loopback or mininet, got "${timing}"`);
  return {
    ring,
    place,
    torAddress: tor === undefined ? undefined : socketAddress(tor.address, tor.port, '--tor'),
    rank: integer(values, 'rank', 0, worldSizeOf(ring) - 1),
    wire: parseAtpWire(values, { address: own.address, port: own.port, option: `member ${place.position + 1}'s address` }),
    jobId: integer(values, 'job', 0, 0xffff),
    poolSize: integer(values, 'pool', 1, RINA_MAX_POOL),
    elementsPerPacket: integer(values, 'elements', 1, MAX_CLI_ELEMENTS, RINA_DEFAULT_ELEMENTS),
    firstEpoch: integer(values, 'first-epoch', 0, 255, 1),
    timing,
    timeoutMs: optionalInteger(values, 'timeout', 1, 2_147_483_647),
    maxRetries: optionalInteger(values, 'max-retries', 0, 1_000_000),
    drainMs: optionalInteger(values, 'drain', 0, 2_147_483_647),
    length: integer(values, 'length', 0, 0xffff_ffff, 1024 * 1024),
    seed: seed(values),
    sparsity: parseSparsity(values, bad),
    iterations: integer(values, 'iterations', 1, 1_000_000, 1),
    check: values.check === true,
    json: values.json === true,
  };
}

/** Parses argv; throws RINA_BAD_CONFIG. Returns undefined for --help. */
export function parseRinaWorkerArgs(argv: readonly string[]): RinaWorkerMainOptions | undefined {
  try {
    return parse(parseValues(argv, OPTIONS));
  } catch (err) {
    if (err instanceof RinaError) throw err;
    // The shared readers (cli-values.ts, wire-args.ts) throw the ATP agent's error type.
    throw bad(err instanceof Error ? err.message : String(err));
  }
}
