/**
 * In-memory wires: two ports joined by a function call, for unit tests and
 * the in-memory deployment mode. Each direction is an `ImpairedLink`
 * (src/util/impaired-link.ts): a queue drained on the next turn of the event
 * loop, with optional seeded loss, duplication and reordering that replay
 * exactly from the seed.
 */
import { ImpairedLink, type LinkImpairments } from '../../util/impaired-link.js';
import { BasePort } from './port.js';

/** Seeded loss, duplication and reordering of one wire; the same seed replays the same decisions. */
export type Impairments = LinkImpairments;

export interface MemoryWireOptions {
  readonly impairments?: Impairments;
  /** Frames waiting for delivery per direction before sends are dropped (default 4096). */
  readonly queueLimit?: number;
}

/** What the impairments did in one direction, for tests and logs. */
export interface ImpairmentCounters {
  readonly lost: number;
  readonly duplicated: number;
  readonly reordered: number;
  /** Frames that reached the end of the wire before anything was attached there. */
  readonly unattached: number;
}

export interface MemoryEndpoint {
  readonly number: number;
  readonly name: string;
}

/**
 * One direction of a wire: an impaired link (shared with the agents'
 * in-memory transports) delivering to the receiving port. Made by
 * createMemoryWire and MemoryHub.
 */
export class MemoryLink {
  /** The receiving end; frames sent before it is attached vanish, as into an unplugged cable. */
  target: MemoryPort | undefined;
  private unattached = 0;
  private readonly link: ImpairedLink;

  /** `streamLabel` names this direction so that its random stream depends only on the seed and the label. */
  constructor(options: MemoryWireOptions, streamLabel: string) {
    this.link = new ImpairedLink(options.impairments, options.queueLimit ?? 4096, streamLabel, (frame) => {
      if (this.target === undefined) this.unattached++;
      else this.target.deliver(frame);
    });
  }

  get stats(): ImpairmentCounters {
    const { lost, duplicated, reordered } = this.link.stats;
    return { lost, duplicated, reordered, unattached: this.unattached };
  }

  get idle(): boolean {
    return this.link.idle;
  }

  /** Queues a frame; false when the queue is full. */
  offer(frame: Buffer): boolean {
    return this.link.offer(frame);
  }
}

/** One end of an in-memory wire. */
export class MemoryPort extends BasePort {
  private link: MemoryLink | undefined;

  constructor(endpoint: MemoryEndpoint) {
    super(endpoint.number, endpoint.name, 'memory');
  }

  /** What the impairments did to frames sent from this end. */
  get impairments(): Readonly<ImpairmentCounters> {
    return this.link?.stats ?? { lost: 0, duplicated: 0, reordered: 0, unattached: 0 };
  }

  /** True when nothing sent from this end is still waiting for delivery. */
  get idle(): boolean {
    return this.link?.idle ?? true;
  }

  send(frame: Buffer): boolean {
    const link = this.link;
    if (this.closed || link === undefined) {
      this.counters.drops++;
      return false;
    }
    // A wire copies: the sender may reuse its buffer, the receiver may rewrite
    // what it gets, and neither sees the other's changes.
    if (!link.offer(Buffer.from(frame))) {
      this.counters.drops++;
      return false;
    }
    this.counters.framesOut++;
    this.counters.bytesOut += frame.length;
    return true;
  }

  /** Called by the link on the receiving side. */
  deliver(frame: Buffer): void {
    if (this.closed) {
      this.counters.drops++;
      return;
    }
    this.receive(frame);
  }

  /** Wires this end to send into `link` (createMemoryWire and MemoryHub do this). */
  connect(link: MemoryLink): void {
    this.link = link;
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

/** Two ports joined to each other. Each direction draws from its own stream derived from the seed. */
export function createMemoryWire(a: MemoryEndpoint, b: MemoryEndpoint, options: MemoryWireOptions = {}): [MemoryPort, MemoryPort] {
  const portA = new MemoryPort(a);
  const portB = new MemoryPort(b);
  const ab = new MemoryLink(options, `${a.name}#${a.number}>${b.name}#${b.number}`);
  const ba = new MemoryLink(options, `${b.name}#${b.number}>${a.name}#${a.number}`);
  ab.target = portB;
  ba.target = portA;
  portA.connect(ab);
  portB.connect(ba);
  return [portA, portB];
}

/**
 * Resolves once every given port has nothing in flight (bounded: gives up
 * after `maxTurns` event-loop turns and resolves false, e.g. when two ends
 * echo frames forever).
 */
export async function settleMemoryPorts(ports: readonly MemoryPort[], maxTurns = 10_000): Promise<boolean> {
  for (let turn = 0; turn < maxTurns; turn++) {
    if (ports.every((p) => p.idle)) return true;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return ports.every((p) => p.idle);
}
