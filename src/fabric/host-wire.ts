/**
 * A host's end of the fabric: the socket its agent binds, the ToR port's
 * socket it sends to, its addresses, and the MAC its frames go to. Agents on
 * a wire do no ARP (src/agent/transport/udp-wire-transport.ts): every frame
 * goes to the host's gateway, its ToR, which routes IPv4 when it has an
 * address (docs/topology.md, "The forwarding plan"). Under a ToR without an
 * address, frames go to the destination's own MAC and are bridged.
 */
import type { AtpWire } from '../agent/atp/wire-args.js';
import type { Topology } from '../controller/index.js';
import { ipv4ToText } from '../wire/index.js';
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';
import { LOOPBACK, type HostSockets } from './wire-plan.js';

export interface FabricHost {
  readonly name: string;
  /** Its IPv4 address (no prefix length) and MAC, as in frames. */
  readonly ip: string;
  readonly mac: string;
  /** Its ToR and the ToR's port. */
  readonly tor: string;
  readonly torPort: number;
  /** The agent's socket. */
  readonly localAddress: string;
  readonly localPort: number;
  /** Where the agent sends: the ToR port's socket, or the relay in front of it when the fabric impairs host links. */
  readonly peerAddress: string;
  readonly peerPort: number;
  /** The ToR's MAC, or undefined for a ToR without an address. */
  readonly gatewayMac: string | undefined;
}

export function fabricHosts(topology: Topology, sockets: ReadonlyMap<string, HostSockets>): Map<string, FabricHost> {
  const hosts = new Map<string, FabricHost>();
  for (const host of topology.hosts.values()) {
    const s = sockets.get(host.name);
    if (!s) throw new Error(`fabricHosts: host ${host.name} has no wire`);
    hosts.set(host.name, {
      name: host.name,
      ip: ipv4ToText(host.ip),
      mac: host.macText,
      tor: s.switch,
      torPort: s.port,
      localAddress: LOOPBACK,
      localPort: s.agentSocket,
      peerAddress: LOOPBACK,
      peerPort: s.agentPeer,
      gatewayMac: topology.switches.get(s.switch)?.macText,
    });
  }
  return hosts;
}

/**
 * The MAC a host's frames to `to` (a host or switch) go to: its gateway,
 * or without one, the destination's own MAC. Throws FabricError
 * (FABRIC_NO_GATEWAY, FABRIC_UNKNOWN_NODE).
 */
export function nextHopMac(topology: Topology, host: FabricHost, to?: string): string {
  if (host.gatewayMac !== undefined) return host.gatewayMac;
  if (to === undefined) {
    throw new FabricError(FABRIC_ERROR_CODES.noGateway, `host ${host.name}'s ToR ${host.tor} has no address, so its frames go to each destination's MAC: name the destination`);
  }
  const mac = topology.hosts.get(to)?.macText ?? topology.switches.get(to)?.macText;
  if (mac === undefined) throw new FabricError(FABRIC_ERROR_CODES.unknownNode, `the fabric has no host or switch with a MAC named "${to}"`);
  return mac;
}

/** The host's wire as the ATP agents take it (src/agent/atp/wire-args.ts), frames going to `gatewayMac`. */
export function agentWire(host: FabricHost, gatewayMac: string): AtpWire {
  return { localAddress: host.localAddress, localPort: host.localPort, peerAddress: host.peerAddress, peerPort: host.peerPort, mac: host.mac, gatewayMac };
}

/** `--transport wire` and its options, for `p4ina agent atp-worker|atp-ps`. */
export function wireArgs(wire: AtpWire): string[] {
  return [
    '--transport', 'wire',
    '--wire-local', `${wire.localAddress ?? LOOPBACK}:${wire.localPort ?? 0}`,
    '--peer', `${wire.peerAddress}:${wire.peerPort}`,
    '--mac', wire.mac,
    '--gateway-mac', wire.gatewayMac,
  ];
}
