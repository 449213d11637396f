/**
 * The Ethernet destination of a packet an aggregating switch addresses to a
 * worker (a SwitchML result, an ATP ACK copy): the worker's own MAC when the
 * next hop is the worker or a switch that bridges, the next switch's MAC when
 * that switch routes (it has its own addresses and the forwarding plan's
 * routes), since a routing switch takes IPv4 packets addressed to itself.
 */
import { TopologyGraph } from '../topology-graph.js';
import { isProgrammable, type Topology } from '../topology.js';

export function nextHopMac(topology: Topology, sw: string, host: string): number {
  const h = topology.hosts.get(host)!;
  const next = TopologyGraph.of(topology).nextHop(sw, host)!;
  const peer = topology.switches.get(next.peer);
  const routes = peer !== undefined && isProgrammable(peer) && peer.mac !== undefined && peer.ip !== undefined;
  return next.peer !== host && routes ? peer.mac! : h.mac;
}
