/**
 * Seeded loss on a UDP wire, for `p4ina demo --loss P`. Neither the switch's
 * UDP-wire ports nor the agents' transports can drop frames from the command
 * line, so the demo puts itself in the middle of each wire: two sockets on
 * 127.0.0.1, one facing the agent and one facing the switch port, and an
 * ImpairedLink per direction that drops each frame with probability P from a
 * stream seeded by (seed, wire, direction) — the same run loses the same
 * frames' positions every time.
 */
import { createSocket, type Socket } from 'node:dgram';
import { ImpairedLink } from '../util/impaired-link.js';

const LOOPBACK = '127.0.0.1';
/** Frames queued per direction per event-loop turn before the relay drops them (counted as overflow). */
const QUEUE_LIMIT = 4096;

export interface RelayEnds {
  /** The socket agents send to (their wire peer). */
  readonly agentFacingPort: number;
  /** The socket the switch port sends to (its wire peer). */
  readonly switchFacingPort: number;
}

export interface RelayCounters {
  readonly relayed: number;
  readonly lost: number;
}

export class LossyRelay implements RelayEnds {
  private relayedFrames = 0;

  private constructor(
    private readonly agentSide: Socket,
    private readonly switchSide: Socket,
    private readonly up: ImpairedLink,
    private readonly down: ImpairedLink,
  ) {}

  get agentFacingPort(): number {
    return this.agentSide.address().port;
  }

  get switchFacingPort(): number {
    return this.switchSide.address().port;
  }

  get counters(): RelayCounters {
    return { relayed: this.relayedFrames, lost: this.up.stats.lost + this.down.stats.lost + this.up.stats.overflowed + this.down.stats.overflowed };
  }

  /**
   * Opens both sockets; frames from anyone but the expected end are ignored.
   * `agentPort` and `switchPort` are the two ends' own sockets on 127.0.0.1.
   */
  static async open(wire: string, agentPort: number, switchPort: number, loss: number, seed: number | string): Promise<LossyRelay> {
    const agentSide = await bound();
    let switchSide: Socket;
    try {
      switchSide = await bound();
    } catch (err) {
      agentSide.close();
      throw err;
    }
    const send = (socket: Socket, port: number) => (frame: Buffer) => socket.send(frame, port, LOOPBACK, () => {});
    const up = new ImpairedLink({ seed, loss }, QUEUE_LIMIT, `demo-wire-${wire}-up`, send(switchSide, switchPort));
    const down = new ImpairedLink({ seed, loss }, QUEUE_LIMIT, `demo-wire-${wire}-down`, send(agentSide, agentPort));
    const relay = new LossyRelay(agentSide, switchSide, up, down);
    agentSide.on('message', (frame, from) => {
      if (from.port !== agentPort || from.address !== LOOPBACK) return;
      relay.relayedFrames++;
      up.offer(frame);
    });
    switchSide.on('message', (frame, from) => {
      if (from.port !== switchPort || from.address !== LOOPBACK) return;
      relay.relayedFrames++;
      down.offer(frame);
    });
    return relay;
  }

  close(): Promise<void> {
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
