/**
 * The topology as a graph: who is adjacent through which ports, hop
 * distances, the number of shortest paths, and one chosen shortest path
 * between any two nodes. Paths are chosen hop by hop towards the destination
 * (at each node, the neighbour closer to the destination that comes first
 * by name, then by local port), so the choice depends only on (node,
 * destination): two paths to the same destination that meet stay together,
 * which is exactly what destination-based forwarding entries can express.
 *
 * Graphs are built once per Topology object and cached; Topology is
 * immutable, so the cache never goes stale.
 */
import { ControllerError, ControllerErrorCode as C } from './errors.js';
import { compareNames } from './names.js';
import { otherEnd, ownEnd, type Topology, type TopologyLink } from './topology.js';

/** A neighbour seen from one node: the link and both ports. */
export interface Adjacency {
  readonly peer: string;
  readonly peerKind: 'host' | 'switch';
  readonly localPort: number;
  readonly peerPort: number;
  readonly link: TopologyLink;
}

/** One node on a path, with the ports the path enters and leaves it by. */
export interface PathHop {
  readonly node: string;
  readonly kind: 'host' | 'switch';
  /** undefined at the path's first node. */
  readonly inPort: number | undefined;
  /** undefined at the path's last node. */
  readonly outPort: number | undefined;
}

export interface Path {
  readonly from: string;
  readonly to: string;
  readonly hops: readonly PathHop[];
  /** Node names, first to last. */
  readonly nodes: readonly string[];
  /** Number of links. */
  readonly length: number;
}

interface Reach {
  readonly distance: ReadonlyMap<string, number>;
  /** Number of distinct shortest paths (parallel links count separately). */
  readonly count: ReadonlyMap<string, number>;
}

const graphs = new WeakMap<Topology, TopologyGraph>();

export class TopologyGraph {
  private readonly adjacent = new Map<string, Adjacency[]>();
  private readonly reach = new Map<string, Reach>();

  private constructor(readonly topology: Topology) {
    for (const name of [...topology.hosts.keys(), ...topology.switches.keys()]) this.adjacent.set(name, []);
    for (const link of topology.links) {
      for (const node of [link.a.node, link.b.node]) {
        const peer = otherEnd(link, node);
        this.adjacent.get(node)!.push({ peer: peer.node, peerKind: peer.kind, localPort: ownEnd(link, node).port, peerPort: peer.port, link });
      }
    }
    for (const list of this.adjacent.values()) list.sort((x, y) => compareNames(x.peer, y.peer) || x.localPort - y.localPort);
  }

  static of(topology: Topology): TopologyGraph {
    let graph = graphs.get(topology);
    if (!graph) {
      graph = new TopologyGraph(topology);
      graphs.set(topology, graph);
    }
    return graph;
  }

  has(node: string): boolean {
    return this.adjacent.has(node);
  }

  requireNode(node: string): void {
    if (!this.has(node)) throw ControllerError.of(C.TOPOLOGY_NO_SUCH_NODE, '$', `the topology has no host or switch "${node}"`);
  }

  kindOf(node: string): 'host' | 'switch' {
    this.requireNode(node);
    return this.topology.hosts.has(node) ? 'host' : 'switch';
  }

  /** Neighbours in name order, then local port order (parallel links appear once each). */
  adjacency(node: string): readonly Adjacency[] {
    this.requireNode(node);
    return this.adjacent.get(node)!;
  }

  private reachFrom(source: string): Reach {
    let r = this.reach.get(source);
    if (r) return r;
    this.requireNode(source);
    const distance = new Map([[source, 0]]);
    const count = new Map([[source, 1]]);
    const queue = [source];
    for (let i = 0; i < queue.length; i++) {
      const node = queue[i]!;
      const d = distance.get(node)!;
      for (const a of this.adjacent.get(node)!) {
        const seen = distance.get(a.peer);
        if (seen === undefined) {
          distance.set(a.peer, d + 1);
          count.set(a.peer, count.get(node)!);
          queue.push(a.peer);
        } else if (seen === d + 1) {
          count.set(a.peer, count.get(a.peer)! + count.get(node)!);
        }
      }
    }
    r = { distance, count };
    this.reach.set(source, r);
    return r;
  }

  /** Hops between two nodes (Infinity when disconnected, which a loaded topology never is). */
  distance(a: string, b: string): number {
    this.requireNode(b);
    return this.reachFrom(a).distance.get(b) ?? Infinity;
  }

  /** How many distinct shortest paths join a and b. */
  shortestPathCount(a: string, b: string): number {
    this.requireNode(b);
    return this.reachFrom(a).count.get(b) ?? 0;
  }

  /** True when x lies on at least one shortest path between a and b (a and b included). */
  onSomeShortestPath(a: string, b: string, x: string): boolean {
    return this.distance(a, x) + this.distance(x, b) === this.distance(a, b);
  }

  /** True when every shortest path between a and b passes x (a and b included). */
  onEveryShortestPath(a: string, b: string, x: string): boolean {
    return this.onSomeShortestPath(a, b, x) && this.shortestPathCount(a, x) * this.shortestPathCount(x, b) === this.shortestPathCount(a, b);
  }

  /** The neighbour `from` sends to on the chosen path towards `to`; undefined when from === to. */
  nextHop(from: string, to: string): Adjacency | undefined {
    if (from === to) return undefined;
    const towards = this.reachFrom(to).distance;
    const here = towards.get(from);
    if (here === undefined) {
      this.requireNode(from);
      throw ControllerError.of(C.TOPOLOGY_DISCONNECTED, '$.links', `"${to}" cannot be reached from "${from}"`);
    }
    // Hosts never carry transit traffic: a host is a next hop only as the destination.
    return this.adjacency(from).find((a) => towards.get(a.peer) === here - 1 && (a.peerKind === 'switch' || a.peer === to))!;
  }

  /** The chosen shortest path from `from` to `to`, with the ports at every node. */
  shortestPath(from: string, to: string): Path {
    this.requireNode(from);
    this.requireNode(to);
    const hops: PathHop[] = [];
    let node = from;
    let inPort: number | undefined;
    // A shortest path visits each node at most once, which bounds the loop.
    for (let step = 0; step <= this.adjacent.size; step++) {
      const next = this.nextHop(node, to);
      hops.push({ node, kind: this.kindOf(node), inPort, outPort: next?.localPort });
      if (!next) break;
      inPort = next.peerPort;
      node = next.peer;
    }
    return { from, to, hops, nodes: hops.map((h) => h.node), length: hops.length - 1 };
  }
}

/** The chosen shortest path between two nodes (hosts or switches). */
export function shortestPath(topology: Topology, from: string, to: string): Path {
  return TopologyGraph.of(topology).shortestPath(from, to);
}
