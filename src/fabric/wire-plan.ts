/**
 * Every cable of a topology as a UDP wire on 127.0.0.1 (design §3, loopback
 * mode): a link takes two sockets, one per end, and each end sends to the
 * other's. A host's end is its agent's socket; a switch's end is the
 * `PORT@udp:127.0.0.1:LOCAL:127.0.0.1:PEER` port of `p4ina switch`. A host's
 * cable may have a relay in the middle (throughRelays). Pure:
 * the sockets' port numbers come from the caller.
 */
import type { LinkEnd, Topology } from '../controller/index.js';
import type { RelayEnds } from '../demo/impaired-relay.js';

export const LOOPBACK = '127.0.0.1';

/** One switch port's wire. */
export interface SwitchPortWire {
  readonly port: number;
  /** This port's socket. */
  readonly local: number;
  /** The socket at the other end of the cable: an agent's or another switch port's. */
  readonly peer: number;
  /** The link's bandwidth, the port's egress rate (undefined: unshaped). */
  readonly bandwidthMbps: number | undefined;
}

/** A host's cable: its agent's socket and its ToR port's socket. */
export interface HostSockets {
  readonly switch: string;
  readonly port: number;
  readonly agentSocket: number;
  readonly switchSocket: number;
  /** Where the agent sends: the ToR port's socket, or the relay in the middle of the cable. */
  readonly agentPeer: number;
}

export interface WirePlan {
  /** By switch name, ports in link order. */
  readonly switchPorts: ReadonlyMap<string, readonly SwitchPortWire[]>;
  readonly hosts: ReadonlyMap<string, HostSockets>;
}

/** How many sockets a topology's wires take. */
export function socketsNeeded(topology: Topology): number {
  return 2 * topology.links.length;
}

/** Link i takes sockets 2i (its first end) and 2i + 1 (its second end). */
export function planWires(topology: Topology, sockets: readonly number[]): WirePlan {
  if (sockets.length < socketsNeeded(topology)) throw new Error(`planWires: ${socketsNeeded(topology)} sockets needed, ${sockets.length} given`);
  const switchPorts = new Map<string, SwitchPortWire[]>([...topology.switches.keys()].map((name) => [name, []]));
  const hosts = new Map<string, HostSockets>();
  topology.links.forEach((link, i) => {
    const ends: readonly [LinkEnd, number][] = [
      [link.a, sockets[2 * i]!],
      [link.b, sockets[2 * i + 1]!],
    ];
    for (const [j, [end, local]] of ends.entries()) {
      const [other, peer] = ends[1 - j]!;
      if (end.kind === 'switch') switchPorts.get(end.node)!.push({ port: end.port, local, peer, bandwidthMbps: link.bandwidthMbps });
      else hosts.set(end.node, { switch: other.node, port: other.port, agentSocket: local, switchSocket: peer, agentPeer: peer });
    }
  });
  return { switchPorts, hosts };
}

/** The plan with a relay in the middle of each host's cable that `relays` names: both ends send to it. */
export function throughRelays(plan: WirePlan, relays: ReadonlyMap<string, RelayEnds>): WirePlan {
  const hosts = new Map(plan.hosts);
  const switchPorts = new Map([...plan.switchPorts].map(([name, ports]) => [name, [...ports]]));
  for (const [host, relay] of relays) {
    const s = plan.hosts.get(host);
    if (!s) throw new Error(`throughRelays: the plan has no host ${host}`);
    hosts.set(host, { ...s, agentPeer: relay.agentFacingPort });
    const ports = switchPorts.get(s.switch)!;
    const i = ports.findIndex((p) => p.port === s.port);
    ports[i] = { ...ports[i]!, peer: relay.switchFacingPort };
  }
  return { switchPorts, hosts };
}

/** `p4ina switch`'s `-i` value of a port's wire. */
export function interfaceSpec(wire: SwitchPortWire): string {
  return `${wire.port}@udp:${LOOPBACK}:${wire.local}:${LOOPBACK}:${wire.peer}`;
}
