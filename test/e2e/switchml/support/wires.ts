/**
 * The UDP wires between the hosts and the switch ports on 127.0.0.1, each
 * with an ImpairedRelay in the middle when the test asks for impairments or
 * wants to watch or drop frames (src/demo/impaired-relay.ts). The switch
 * port's and the agent's socket ports stay fixed for the life of the wires, so
 * a restarted switch plugs into the same wires.
 */
import type { WirePorts } from '../../../../src/demo/demo-network.js';
import { testUdpPorts } from '../../../helpers/test-ports.js';
import { ImpairedRelay, type RelayDirection, type RelayImpairments } from '../../../../src/demo/impaired-relay.js';
import type { E2eHost } from './network.js';

export interface WireOptions {
  /** Seeds every relay (each wire and direction draws its own stream). */
  readonly seed?: number | string;
  readonly up?: RelayImpairments;
  readonly down?: RelayImpairments;
  /** Put a relay on every wire even without impairments (to watch, drop or inject frames). */
  readonly relay?: boolean;
  /** Sees every frame of a host's wire; false drops it. */
  readonly intercept?: (host: E2eHost, frame: Buffer, direction: RelayDirection) => boolean;
}

export class Wires {
  private constructor(
    readonly hosts: readonly E2eHost[],
    readonly ports: readonly WirePorts[],
    /** By host index; undefined without a relay. */
    readonly relays: readonly (ImpairedRelay | undefined)[],
  ) {}

  static async open(hosts: readonly E2eHost[], options: WireOptions = {}): Promise<Wires> {
    const free = await testUdpPorts(2 * hosts.length);
    const ports: WirePorts[] = [];
    const relays: (ImpairedRelay | undefined)[] = [];
    const wires = new Wires(hosts, ports, relays);
    const relayed = options.relay === true || options.up !== undefined || options.down !== undefined || options.intercept !== undefined;
    try {
      for (const [i, host] of hosts.entries()) {
        const switchSocket = free[2 * i]!;
        const agentSocket = free[2 * i + 1]!;
        if (!relayed) {
          relays.push(undefined);
          ports.push({ switchSocket, agentSocket, switchPeer: agentSocket, agentPeer: switchSocket });
          continue;
        }
        const intercept = options.intercept;
        const relay = await ImpairedRelay.open({
          wire: host.name,
          agentPort: agentSocket,
          switchPort: switchSocket,
          seed: options.seed ?? 1,
          ...(options.up ? { up: options.up } : {}),
          ...(options.down ? { down: options.down } : {}),
          ...(intercept ? { intercept: (frame: Buffer, direction: RelayDirection) => intercept(host, frame, direction) } : {}),
        });
        relays.push(relay);
        ports.push({ switchSocket, agentSocket, switchPeer: relay.switchFacingPort, agentPeer: relay.agentFacingPort });
      }
    } catch (err) {
      await wires.close();
      throw err;
    }
    return wires;
  }

  /** `-i PORT@udp:…` specs of the switch's ports. */
  switchPortSpecs(): string[] {
    return this.hosts.map((h, i) => `${h.switchPort}@udp:127.0.0.1:${this.ports[i]!.switchSocket}:127.0.0.1:${this.ports[i]!.switchPeer}`);
  }

  relayOf(host: E2eHost): ImpairedRelay {
    const relay = this.relays[this.hosts.indexOf(host)];
    if (!relay) throw new Error(`${host.name}'s wire has no relay; open the wires with relay: true`);
    return relay;
  }

  close(): Promise<void> {
    return Promise.allSettled(this.relays.map((r) => r?.close())).then(() => undefined);
  }
}
