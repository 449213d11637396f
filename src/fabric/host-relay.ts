/**
 * One host's cable of the loopback fabric with an impaired relay in the
 * middle: the agent sends to the relay's agent-facing socket, the ToR port to
 * its switch-facing socket, and each direction passes through an
 * ImpairedLink (src/util) drawing from its own seeded stream.
 *
 * The sockets are the demo's ImpairedRelay (src/demo/impaired-relay.ts),
 * opened without impairments of its own: its `intercept` hands every frame
 * to this relay's links, which send the survivors on with `inject`. The
 * relay's own impairments are fixed when it opens, and a new relay would
 * have new ports, while the ToR's port names its peer when the switch
 * starts; going through the hooks keeps the ports for the fabric's life and
 * lets setImpairment swap the links between runs.
 */
import { ImpairedRelay, QUEUE_LIMIT, type RelayEnds } from '../demo/impaired-relay.js';
import { ImpairedLink } from '../util/impaired-link.js';
import { impairmentStream, LINK_DIRECTIONS, type FabricImpairment, type HostLinkCounters, type LinkCounters, type LinkDirection } from './fabric-impairment.js';

/** One direction's link under the current impairment, and how many frames it was offered. */
interface ImpairedPath {
  readonly link: ImpairedLink;
  received: number;
}

export class HostRelay implements RelayEnds {
  private paths: Record<LinkDirection, ImpairedPath>;
  private sockets: ImpairedRelay | undefined;
  private closed = false;

  private constructor(
    readonly host: string,
    impairment: FabricImpairment,
  ) {
    this.paths = this.pathsFor(impairment);
  }

  /**
   * Opens the relay between the agent's socket `agentPort` and the ToR
   * port's socket `switchPort` (both on 127.0.0.1). Throws RangeError or
   * TypeError for an impairment out of range, before any socket is bound.
   */
  static async open(host: string, agentPort: number, switchPort: number, impairment: FabricImpairment): Promise<HostRelay> {
    const relay = new HostRelay(host, impairment);
    relay.sockets = await ImpairedRelay.open({
      wire: host,
      agentPort,
      switchPort,
      seed: impairment.seed,
      intercept: (frame, direction) => {
        relay.offer(frame, direction);
        return false;
      },
    });
    return relay;
  }

  get agentFacingPort(): number {
    return this.opened().agentFacingPort;
  }

  get switchFacingPort(): number {
    return this.opened().switchFacingPort;
  }

  /** Both directions' counters since the impairment was last set. */
  get counters(): HostLinkCounters {
    return { up: countersOf(this.paths.up), down: countersOf(this.paths.down) };
  }

  /**
   * Builds the links for `impairment` (streams started afresh from its seed,
   * counters from zero) and returns what puts them in place, so that a caller
   * changing many relays can check every one first; throws as open() does.
   * Frames still queued in the old links go out as those links decided.
   */
  prepare(impairment: FabricImpairment): () => void {
    const paths = this.pathsFor(impairment);
    return () => {
      this.paths = paths;
    };
  }

  close(): Promise<void> {
    this.closed = true;
    return this.sockets?.close() ?? Promise.resolve();
  }

  private pathsFor(impairment: FabricImpairment): Record<LinkDirection, ImpairedPath> {
    const pathFor = (direction: LinkDirection): ImpairedPath => ({
      link: new ImpairedLink(
        { seed: impairment.seed, loss: impairment.loss, duplicate: impairment.duplicate, reorder: impairment.reorder },
        QUEUE_LIMIT,
        impairmentStream(this.host, direction),
        (frame) => this.forward(frame, direction),
      ),
      received: 0,
    });
    const [up, down] = LINK_DIRECTIONS.map(pathFor);
    return { up: up!, down: down! };
  }

  private offer(frame: Buffer, direction: LinkDirection): void {
    const path = this.paths[direction];
    path.received++;
    path.link.offer(frame);
  }

  /** A link's delivery, a turn of the event loop after the frame came in: the sockets may have closed since. */
  private forward(frame: Buffer, direction: LinkDirection): void {
    if (!this.closed) this.sockets?.inject(frame, direction);
  }

  private opened(): ImpairedRelay {
    if (!this.sockets) throw new Error(`HostRelay ${this.host}: not open`);
    return this.sockets;
  }
}

function countersOf(path: ImpairedPath): LinkCounters {
  const { lost, overflowed, duplicated, reordered } = path.link.stats;
  return { received: path.received, lost, overflowed, duplicated, reordered };
}
