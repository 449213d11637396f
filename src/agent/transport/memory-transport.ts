/**
 * Two transports joined in memory, for unit tests and the in-memory mode
 * (design §3): what one end sends, the other receives on a later turn of the
 * event loop, through an ImpairedLink per direction with optional seeded
 * loss, duplication and reordering. A test "network" joins a worker's end to
 * a switch model's end; see test/agent/switchml/helpers.
 */
import { BaseTransport } from './base-transport.js';
import { sendLength } from './datagram-transport.js';
import { ImpairedLink, type LinkImpairments, type LinkStats } from '../../util/impaired-link.js';

export interface MemoryTransportPairOptions {
  /** What happens to datagrams from the first end to the second (default: nothing). */
  readonly aToB?: LinkImpairments;
  /** What happens to datagrams from the second end to the first. */
  readonly bToA?: LinkImpairments;
  /** Datagrams waiting for delivery per direction before sends are dropped (default 4096). */
  readonly queueLimit?: number;
  /** The largest payload (default 65507, what UDP over IPv4 can carry). */
  readonly maxPayload?: number;
  /** Names of the two ends, for logs and the impairment streams (default "a" and "b"). */
  readonly names?: readonly [string, string];
}

export class MemoryTransport extends BaseTransport {
  private link: ImpairedLink | undefined;

  /** Made in pairs by createMemoryTransportPair. */
  constructor(name: string, maxPayload: number) {
    super(name, maxPayload);
  }

  /** What the impairments did to datagrams sent from this end. */
  get linkStats(): Readonly<LinkStats> {
    return this.link?.stats ?? { lost: 0, duplicated: 0, reordered: 0, overflowed: 0 };
  }

  /** True when nothing sent from this end is waiting for delivery. */
  get idle(): boolean {
    return this.link?.idle ?? true;
  }

  send(payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    const link = this.link;
    // The copy is the in-memory "wire": the sender may reuse its buffer at once.
    if (this.closed || link === undefined || !link.offer(Buffer.from(payload.subarray(0, n)))) {
      this.counters.sendDrops++;
      return false;
    }
    this.counters.datagramsOut++;
    this.counters.bytesOut += n;
    return true;
  }

  /** Sends from this end go into `link` (createMemoryTransportPair wires this). */
  connect(link: ImpairedLink): void {
    this.link = link;
  }

  /** The link's delivery into this end. */
  readonly receive = (frame: Buffer): void => this.deliver(frame, 0, frame.length);

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

/** Two transports, each receiving what the other sends. */
export function createMemoryTransportPair(options: MemoryTransportPairOptions = {}): [MemoryTransport, MemoryTransport] {
  const [nameA, nameB] = options.names ?? ['a', 'b'];
  const maxPayload = options.maxPayload ?? 65_507;
  if (!Number.isInteger(maxPayload) || maxPayload < 1) throw new RangeError(`maxPayload must be a positive integer, not ${maxPayload}`);
  const queueLimit = options.queueLimit ?? 4096;
  const a = new MemoryTransport(`memory ${nameA}`, maxPayload);
  const b = new MemoryTransport(`memory ${nameB}`, maxPayload);
  a.connect(new ImpairedLink(options.aToB, queueLimit, `${nameA}>${nameB}`, b.receive));
  b.connect(new ImpairedLink(options.bToA, queueLimit, `${nameB}>${nameA}`, a.receive));
  return [a, b];
}

/**
 * Resolves true once no given transport has anything in flight, or false
 * after `maxTurns` turns of the event loop (two ends that answer each other
 * for ever never settle).
 */
export async function settleMemoryTransports(transports: readonly MemoryTransport[], maxTurns = 10_000): Promise<boolean> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (transports.every((t) => t.idle)) return true;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return transports.every((t) => t.idle);
}
