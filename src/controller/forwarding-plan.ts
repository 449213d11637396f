/**
 * The entries a controller installs for ordinary traffic, as data. For every
 * P4Runtime switch, and every destination (each host, and each switch that
 * has its own address, since INA packets are addressed to their aggregator):
 *
 *   l2-unicast       destination MAC → the port towards it
 *   ipv4-host-route  destination IPv4/32 → port and next-hop MAC, where L3
 *                    applies (the switch has its own MAC and IP: routing
 *                    rewrites the source MAC to the switch's)
 *
 * plus the switch's own address and flooding for broadcasts (ARP): a
 * multicast group of the ports on a spanning tree of the switches (and every
 * host port), so a broadcast reaches everyone once and never loops, even on
 * a leaf-spine with several spines. Entries are by *role*; the installer maps
 * roles to the table and action names of docs/p4-programs.md.
 *
 * Next-hop MAC of a route: the destination's own MAC when the next hop is the
 * destination, or when the next switch only bridges (it forwards by that
 * MAC); the next switch's MAC when it routes.
 */
import { BROADCAST_MAC } from '../wire/index.js';
import { DEFAULT_FLOOD_GROUP } from './capacity-limits.js';
import { compareNames } from './names.js';
import { TopologyGraph } from './topology-graph.js';
import { isProgrammable, type Topology, type TopologySwitch } from './topology.js';

export type ForwardingEntry =
  | { readonly role: 'switch-address'; readonly mac: number; readonly ip: number }
  | { readonly role: 'flood-group'; readonly group: number; readonly ports: readonly number[] }
  | { readonly role: 'l2-flood'; readonly dstMac: number; readonly group: number }
  | { readonly role: 'l2-unicast'; readonly destination: string; readonly dstMac: number; readonly port: number }
  | {
      readonly role: 'ipv4-host-route';
      readonly destination: string;
      readonly dstIp: number;
      readonly prefixLength: 32;
      readonly port: number;
      readonly nextHopMac: number;
    };

export interface SwitchForwardingPlan {
  readonly switch: string;
  readonly deviceId: number;
  /** L3 applies here (the switch has its own address), so the plan has routes. */
  readonly routes: boolean;
  /** In install order: address, flood group, flood entry, then per destination by name. */
  readonly entries: readonly ForwardingEntry[];
}

export interface ForwardingPlanOptions {
  /** The multicast group for flooding (default DEFAULT_FLOOD_GROUP, inside the reserved flood range). */
  readonly floodGroup?: number;
}

function routes(sw: TopologySwitch | undefined): boolean {
  return sw !== undefined && isProgrammable(sw) && sw.mac !== undefined && sw.ip !== undefined;
}

/**
 * The ports of each switch that flooding uses: every host port, and the
 * switch-to-switch links of a breadth-first spanning tree rooted at the
 * highest-tier switch (core, then spine, then ToR; then by name).
 */
export function floodPorts(topology: Topology): Map<string, number[]> {
  const graph = TopologyGraph.of(topology);
  const tier = { core: 0, spine: 1, tor: 2 };
  const ports = new Map<string, number[]>([...topology.switches.keys()].map((n) => [n, []]));
  const switches = [...topology.switches.values()].sort((x, y) => tier[x.role] - tier[y.role] || compareNames(x.name, y.name));
  if (switches.length === 0) return ports;
  const visited = new Set([switches[0]!.name]);
  const queue = [switches[0]!.name];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const a of graph.adjacency(node)) {
      if (a.peerKind === 'host') ports.get(node)!.push(a.localPort);
      else if (!visited.has(a.peer)) {
        visited.add(a.peer);
        queue.push(a.peer);
        ports.get(node)!.push(a.localPort);
        ports.get(a.peer)!.push(a.peerPort);
      }
    }
  }
  for (const list of ports.values()) list.sort((x, y) => x - y);
  return ports;
}

interface Destination {
  readonly name: string;
  readonly mac: number;
  readonly ip: number;
}

function destinations(topology: Topology): Destination[] {
  const out: Destination[] = [...topology.hosts.values()].map((h) => ({ name: h.name, mac: h.mac, ip: h.ip }));
  for (const sw of topology.switches.values()) {
    if (sw.mac !== undefined && sw.ip !== undefined) out.push({ name: sw.name, mac: sw.mac, ip: sw.ip });
  }
  return out.sort((x, y) => compareNames(x.name, y.name));
}

/** The forwarding plan of every P4Runtime switch, by switch name. */
export function forwardingPlan(topology: Topology, options: ForwardingPlanOptions = {}): SwitchForwardingPlan[] {
  const group = options.floodGroup ?? DEFAULT_FLOOD_GROUP;
  if (!Number.isInteger(group) || group < 1 || group > 0xffff) throw new RangeError(`floodGroup must be an integer in 1..65535, not ${group}`);
  const graph = TopologyGraph.of(topology);
  const flood = floodPorts(topology);
  const targets = destinations(topology);
  const plans: SwitchForwardingPlan[] = [];
  for (const sw of [...topology.switches.values()].sort((x, y) => compareNames(x.name, y.name))) {
    if (!isProgrammable(sw)) continue;
    const l3 = routes(sw);
    const entries: ForwardingEntry[] = [];
    if (l3) entries.push({ role: 'switch-address', mac: sw.mac!, ip: sw.ip! });
    entries.push({ role: 'flood-group', group, ports: flood.get(sw.name)! });
    entries.push({ role: 'l2-flood', dstMac: BROADCAST_MAC, group });
    for (const d of targets) {
      if (d.name === sw.name) continue;
      const next = graph.nextHop(sw.name, d.name)!;
      entries.push({ role: 'l2-unicast', destination: d.name, dstMac: d.mac, port: next.localPort });
      if (!l3) continue;
      const nextSwitch = topology.switches.get(next.peer);
      const nextHopMac = next.peer !== d.name && routes(nextSwitch) ? nextSwitch!.mac! : d.mac;
      entries.push({ role: 'ipv4-host-route', destination: d.name, dstIp: d.ip, prefixLength: 32, port: next.localPort, nextHopMac });
    }
    plans.push({ switch: sw.name, deviceId: sw.deviceId!, routes: l3, entries });
  }
  return plans;
}
