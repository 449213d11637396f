/**
 * The impaired relays of a fabric, one per host link, opened before the
 * switches start: each ToR port is told its relay's port as its peer.
 */
import type { FabricImpairment, HostLinkCounters } from './fabric-impairment.js';
import { HostRelay } from './host-relay.js';
import type { HostSockets } from './wire-plan.js';

/**
 * The relays' sockets are the system's pick (port 0), made after the wire
 * ports were picked the same way and let go; a relay given one of those is
 * opened again, holding the bad one meanwhile so the next pick differs.
 */
const MAX_OPEN_TRIES = 8;

export class HostRelays {
  private constructor(private readonly relays: ReadonlyMap<string, HostRelay>) {}

  /**
   * A relay on each host's cable. `reserved` are the wire ports, not bound
   * yet. Throws what HostRelay.open throws, with every relay closed.
   */
  static async open(hosts: ReadonlyMap<string, HostSockets>, impairment: FabricImpairment, reserved: readonly number[]): Promise<HostRelays> {
    const wirePorts = new Set(reserved);
    const relays = new Map<string, HostRelay>();
    const discarded: HostRelay[] = [];
    try {
      for (const [host, s] of hosts) {
        for (let tries = 1; !relays.has(host); tries++) {
          const relay = await HostRelay.open(host, s.agentSocket, s.switchSocket, impairment);
          if (!wirePorts.has(relay.agentFacingPort) && !wirePorts.has(relay.switchFacingPort)) relays.set(host, relay);
          else if (tries < MAX_OPEN_TRIES) discarded.push(relay);
          else {
            await relay.close();
            throw new Error(`host ${host}'s relay was given a wire's port ${MAX_OPEN_TRIES} times`);
          }
        }
      }
    } catch (err) {
      await closeAll(relays.values());
      throw err;
    } finally {
      await closeAll(discarded);
    }
    return new HostRelays(relays);
  }

  /** Each host's relay, whose ports its cable's two ends send to. */
  get ends(): ReadonlyMap<string, HostRelay> {
    return this.relays;
  }

  /** Every relay's counters since the impairment was last set, by host. */
  counters(): Map<string, HostLinkCounters> {
    return new Map([...this.relays].map(([host, relay]) => [host, relay.counters]));
  }

  /** Changes every relay's impairment, or none of them when it is out of range (RangeError, TypeError). */
  set(impairment: FabricImpairment): void {
    const installs = [...this.relays.values()].map((relay) => relay.prepare(impairment));
    for (const install of installs) install();
  }

  close(): Promise<void> {
    return closeAll(this.relays.values());
  }
}

async function closeAll(relays: Iterable<HostRelay>): Promise<void> {
  await Promise.allSettled([...relays].map((r) => r.close()));
}
