/**
 * Seeded loss on a UDP wire, for `p4ina demo --loss P`: an ImpairedRelay
 * (impaired-relay.ts) that only loses frames, each with probability P, from
 * a stream seeded by (seed, wire, direction), so the same run loses the same
 * frames' positions every time.
 */
import { ImpairedRelay, type RelayEnds } from './impaired-relay.js';


export interface RelayCounters {
  readonly relayed: number;
  readonly lost: number;
}

export class LossyRelay implements RelayEnds {
  private constructor(private readonly relay: ImpairedRelay) {}

  get agentFacingPort(): number {
    return this.relay.agentFacingPort;
  }

  get switchFacingPort(): number {
    return this.relay.switchFacingPort;
  }

  get counters(): RelayCounters {
    const { relayed, lost } = this.relay.counters;
    return { relayed, lost };
  }

  /**
   * Opens both sockets; frames from anyone but the expected end are ignored.
   * `agentPort` and `switchPort` are the two ends' own sockets on 127.0.0.1.
   */
  static async open(wire: string, agentPort: number, switchPort: number, loss: number, seed: number | string): Promise<LossyRelay> {
    const impairments = { loss };
    return new LossyRelay(await ImpairedRelay.open({ wire, agentPort, switchPort, seed, up: impairments, down: impairments }));
  }

  close(): Promise<void> {
    return this.relay.close();
  }
}
