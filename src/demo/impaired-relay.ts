/**
 * A seeded impaired UDP wire: the relay sits in the middle of one UDP wire
 * (two sockets on 127.0.0.1, one facing the agent and one facing the switch
 * port) and passes each direction through an ImpairedLink (loss, duplication,
 * reordering within a batch, from a stream seeded by (seed, wire, direction)),
 * then, optionally, holds a seeded share of the frames for 1..maxDelayMs ms,
 * which reorders them across batches with a bounded delay. Neither the
 * switch's UDP-wire ports nor the agents' transports impair anything
 * themselves, so the demo (`--loss`) and the end-to-end tests put this in
 * between.
 *
 * Tests can also look at every frame and drop chosen ones (`intercept`, run
 * before the impairments), and put a crafted frame on the wire as if one end
 * had sent it (`inject`).
 */
import { createSocket, type Socket } from 'node:dgram';
import { ImpairedLink, type LinkImpairments } from '../util/impaired-link.js';
import { SeededRandom } from '../util/seeded-random.js';

const LOOPBACK = '127.0.0.1';
/** Frames queued per direction per event-loop turn before the relay drops them (counted as overflow). */
export const QUEUE_LIMIT = 4096;

/** `up`: from the agent to the switch port; `down`: back. */
export type RelayDirection = 'up' | 'down';

export interface RelayEnds {
  /** The socket agents send to (their wire peer). */
  readonly agentFacingPort: number;
  /** The socket the switch port sends to (its wire peer). */
  readonly switchFacingPort: number;
}

/** One direction's impairments: ImpairedLink's, plus a bounded extra delay. */
export interface RelayImpairments extends Omit<LinkImpairments, 'seed'> {
  /** Probability that a frame is held back for 1..maxDelayMs ms after the link. */
  readonly delay?: number;
  /** The longest hold in ms (default 5). */
  readonly maxDelayMs?: number;
}

export interface ImpairedRelayOptions {
  /** Names the wire in the random streams' labels. */
  readonly wire: string;
  /** The agent's own socket port on 127.0.0.1. */
  readonly agentPort: number;
  /** The switch port's own socket port on 127.0.0.1. */
  readonly switchPort: number;
  readonly seed: number | string;
  readonly up?: RelayImpairments;
  readonly down?: RelayImpairments;
  /** Sees every frame from either end before the impairments; returning false drops it. */
  readonly intercept?: (frame: Buffer, direction: RelayDirection) => boolean;
}

export interface ImpairedRelayCounters {
  /** Frames received from the two ends. */
  readonly relayed: number;
  /** Lost by the impairments, or by a full queue. */
  readonly lost: number;
  readonly duplicated: number;
  readonly reordered: number;
  readonly delayed: number;
  /** Dropped by `intercept`. */
  readonly intercepted: number;
}

function probability(p: number | undefined, what: string): number {
  const value = p ?? 0;
  if (!(value >= 0 && value <= 1)) throw new RangeError(`${what} must be a probability in 0..1, not ${p}`);
  return value;
}

/** One direction: the link, then the optional delay stage, then the socket. */
class RelayPath {
  readonly link: ImpairedLink;
  delayed = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly rng: SeededRandom | undefined;
  private readonly delay: number;
  private readonly maxDelayMs: number;

  constructor(impairments: RelayImpairments | undefined, seed: number | string, label: string, send: (frame: Buffer) => void) {
    this.delay = probability(impairments?.delay, 'delay');
    this.maxDelayMs = impairments?.maxDelayMs ?? 5;
    if (!Number.isInteger(this.maxDelayMs) || this.maxDelayMs < 1) throw new RangeError(`maxDelayMs must be a positive integer, not ${impairments?.maxDelayMs}`);
    this.rng = this.delay > 0 ? new SeededRandom(seed).derive(`${label}-delay`) : undefined;
    const afterLink = (frame: Buffer): void => {
      if (this.rng === undefined || !this.rng.chance(this.delay)) {
        send(frame);
        return;
      }
      this.delayed++;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        send(frame);
      }, 1 + this.rng.nextInt(this.maxDelayMs));
      this.timers.add(timer);
    };
    this.link = new ImpairedLink(impairments === undefined ? undefined : { ...impairments, seed }, QUEUE_LIMIT, label, afterLink);
  }

  /** Drops what is held back (the relay is closing). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

export class ImpairedRelay implements RelayEnds {
  private relayedFrames = 0;
  private interceptedFrames = 0;

  private constructor(
    private readonly agentSide: Socket,
    private readonly switchSide: Socket,
    private readonly options: ImpairedRelayOptions,
    private readonly up: RelayPath,
    private readonly down: RelayPath,
  ) {}

  get agentFacingPort(): number {
    return this.agentSide.address().port;
  }

  get switchFacingPort(): number {
    return this.switchSide.address().port;
  }

  get counters(): ImpairedRelayCounters {
    const u = this.up.link.stats;
    const d = this.down.link.stats;
    return {
      relayed: this.relayedFrames,
      lost: u.lost + d.lost + u.overflowed + d.overflowed,
      duplicated: u.duplicated + d.duplicated,
      reordered: u.reordered + d.reordered,
      delayed: this.up.delayed + this.down.delayed,
      intercepted: this.interceptedFrames,
    };
  }

  /** Opens both sockets; frames from anyone but the expected end are ignored. */
  static async open(options: ImpairedRelayOptions): Promise<ImpairedRelay> {
    const agentSide = await bound();
    let switchSide: Socket;
    try {
      switchSide = await bound();
    } catch (err) {
      agentSide.close();
      throw err;
    }
    const send = (socket: Socket, port: number) => (frame: Buffer) => socket.send(frame, port, LOOPBACK, () => {});
    let up: RelayPath;
    let down: RelayPath;
    try {
      up = new RelayPath(options.up, options.seed, `demo-wire-${options.wire}-up`, send(switchSide, options.switchPort));
      down = new RelayPath(options.down, options.seed, `demo-wire-${options.wire}-down`, send(agentSide, options.agentPort));
    } catch (err) {
      agentSide.close();
      switchSide.close();
      throw err;
    }
    const relay = new ImpairedRelay(agentSide, switchSide, options, up, down);
    agentSide.on('message', (frame, from) => {
      if (from.port === options.agentPort && from.address === LOOPBACK) relay.pass(frame, 'up');
    });
    switchSide.on('message', (frame, from) => {
      if (from.port === options.switchPort && from.address === LOOPBACK) relay.pass(frame, 'down');
    });
    return relay;
  }

  /** Sends a frame on towards the other end, as if `direction`'s sender had sent it (no intercept, no impairments). */
  inject(frame: Buffer, direction: RelayDirection): void {
    if (direction === 'up') this.switchSide.send(frame, this.options.switchPort, LOOPBACK, () => {});
    else this.agentSide.send(frame, this.options.agentPort, LOOPBACK, () => {});
  }

  close(): Promise<void> {
    this.up.stop();
    this.down.stop();
    const closeOne = (s: Socket) =>
      new Promise<void>((resolve) => {
        try {
          s.close(() => resolve());
        } catch {
          resolve(); // already closed
        }
      });
    return Promise.all([closeOne(this.agentSide), closeOne(this.switchSide)]).then(() => undefined);
  }

  private pass(frame: Buffer, direction: RelayDirection): void {
    this.relayedFrames++;
    if (this.options.intercept && !this.options.intercept(frame, direction)) {
      this.interceptedFrames++;
      return;
    }
    (direction === 'up' ? this.up : this.down).link.offer(frame);
  }
}

function bound(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, LOOPBACK, () => {
      socket.removeListener('error', reject);
      socket.on('error', () => {}); // a send to a peer that went away is not the relay's failure
      resolve(socket);
    });
  });
}
