/**
 * Views derived from a topology that the controller, the planner and the
 * testbeds ask for by name: where a host attaches, what is on each port of
 * a switch, who neighbours whom, and the racks (a ToR and its hosts). All
 * lists are in a fixed order (ports ascending, names in natural order).
 */
import { ControllerError, ControllerErrorCode as C } from './errors.js';
import { compareNames, sortNames } from './names.js';
import { TopologyGraph } from './topology-graph.js';
import { otherEnd, ownEnd, type LinkEnd, type Topology, type TopologyLink, type TopologySwitch } from './topology.js';

export interface HostAttachment {
  readonly host: string;
  /** The host's ToR. */
  readonly switch: string;
  /** The ToR's port the host is on. */
  readonly port: number;
  readonly link: TopologyLink;
}

export interface SwitchPort {
  readonly port: number;
  /** What is at the other end of the cable. */
  readonly peer: LinkEnd;
  readonly link: TopologyLink;
}

export interface RackHost {
  readonly host: string;
  readonly port: number;
}

export interface Rack {
  readonly name: string;
  readonly tor: string;
  /** The ToR can aggregate. */
  readonly ina: boolean;
  /** The rack's hosts by ToR port. */
  readonly hosts: readonly RackHost[];
}

function requireSwitch(topology: Topology, name: string): TopologySwitch {
  const sw = topology.switches.get(name);
  if (!sw) throw ControllerError.of(C.TOPOLOGY_NO_SUCH_NODE, '$.switches', `the topology has no switch "${name}"`);
  return sw;
}

/** The ToR and port a host hangs off (hosts are single-homed). */
export function hostAttachment(topology: Topology, host: string): HostAttachment {
  if (!topology.hosts.has(host)) throw ControllerError.of(C.TOPOLOGY_NO_SUCH_NODE, '$.hosts', `the topology has no host "${host}"`);
  const [edge] = TopologyGraph.of(topology).adjacency(host);
  return { host, switch: edge!.peer, port: edge!.peerPort, link: edge!.link };
}

/** Every linked port of a switch, ascending. */
export function switchPorts(topology: Topology, name: string): SwitchPort[] {
  requireSwitch(topology, name);
  return topology.links
    .filter((l) => l.a.node === name || l.b.node === name)
    .map((link) => ({ port: ownEnd(link, name).port, peer: otherEnd(link, name), link }))
    .sort((x, y) => x.port - y.port);
}

/** The distinct nodes one link away, in natural order. */
export function neighbours(topology: Topology, node: string): string[] {
  return sortNames(new Set(TopologyGraph.of(topology).adjacency(node).map((a) => a.peer)));
}

/** Every ToR with its hosts, by ToR name (a ToR without hosts is an empty rack). */
export function racks(topology: Topology): Rack[] {
  return [...topology.switches.values()]
    .filter((sw) => sw.role === 'tor')
    .sort((x, y) => compareNames(x.name, y.name))
    .map((tor) => ({
      name: tor.rack ?? tor.name,
      tor: tor.name,
      ina: tor.ina,
      hosts: switchPorts(topology, tor.name)
        .filter((p) => p.peer.kind === 'host')
        .map((p) => ({ host: p.peer.node, port: p.port })),
    }));
}

/** The rack a host is in. */
export function rackOfHost(topology: Topology, host: string): Rack {
  const tor = hostAttachment(topology, host).switch;
  return racks(topology).find((r) => r.tor === tor)!;
}
