import { describe, expect, test } from 'vitest';
import { floodPorts, forwardingPlan, parseTopology, type ForwardingEntry, type Topology } from '../../src/controller/index.js';
import { BROADCAST_MAC, ipv4FromText, macFromText } from '../../src/wire/index.js';
import { fixture, fixtureJson } from './helpers.js';

const mac = macFromText;
const ip = ipv4FromText;

function planOf(topo: Topology, sw: string): readonly ForwardingEntry[] {
  return forwardingPlan(topo).find((p) => p.switch === sw)!.entries;
}

describe('the forwarding plan', () => {
  test('single switch: address, flooding, and per host an L2 entry and a /32 route', () => {
    const [plan, ...rest] = forwardingPlan(fixture('single-switch.json'));
    expect(rest).toEqual([]);
    expect(plan!.switch).toBe('s1');
    expect(plan!.deviceId).toBe(1);
    expect(plan!.routes).toBe(true);
    const perHost = (n: number): ForwardingEntry[] => [
      { role: 'l2-unicast', destination: `h${n}`, dstMac: mac(`02:00:00:00:00:0${n}`), port: n },
      { role: 'ipv4-host-route', destination: `h${n}`, dstIp: ip(`10.0.0.${n}`), prefixLength: 32, port: n, nextHopMac: mac(`02:00:00:00:00:0${n}`) },
    ];
    expect(plan!.entries).toEqual([
      { role: 'switch-address', mac: mac('02:00:00:00:00:fe'), ip: ip('10.0.0.254') },
      { role: 'flood-group', group: 1, ports: [1, 2, 3, 4] },
      { role: 'l2-flood', dstMac: BROADCAST_MAC, group: 1 },
      ...perHost(1),
      ...perHost(2),
      ...perHost(3),
      ...perHost(4),
    ]);
  });

  test('leaf-spine: next hops are switch MACs where the next switch routes, the host\'s MAC at the last hop', () => {
    const topo = fixture('leaf-spine-2.json');
    const s1 = planOf(topo, 's1');
    expect(s1.filter((e) => e.role === 'ipv4-host-route' && e.destination === 'h3')).toEqual([
      { role: 'ipv4-host-route', destination: 'h3', dstIp: ip('10.0.2.1'), prefixLength: 32, port: 3, nextHopMac: mac('02:00:00:00:00:03') },
    ]);
    expect(planOf(topo, 's3').filter((e) => e.role !== 'l2-unicast' && 'destination' in e && e.destination === 'h3')).toEqual([
      { role: 'ipv4-host-route', destination: 'h3', dstIp: ip('10.0.2.1'), prefixLength: 32, port: 2, nextHopMac: mac('02:00:00:00:02:fe') },
    ]);
    expect(planOf(topo, 's2').filter((e) => 'destination' in e && e.destination === 'h3')).toEqual([
      { role: 'l2-unicast', destination: 'h3', dstMac: mac('08:00:00:00:02:01'), port: 1 },
      { role: 'ipv4-host-route', destination: 'h3', dstIp: ip('10.0.2.1'), prefixLength: 32, port: 1, nextHopMac: mac('08:00:00:00:02:01') },
    ]);
  });

  test('switches with an address are destinations too: INA packets are addressed to their aggregator', () => {
    const s1 = planOf(fixture('leaf-spine-2.json'), 's1');
    expect(s1.filter((e) => 'destination' in e && e.destination === 's4')).toEqual([
      { role: 'l2-unicast', destination: 's4', dstMac: mac('02:00:00:00:00:04'), port: 4 },
      { role: 'ipv4-host-route', destination: 's4', dstIp: ip('10.0.0.4'), prefixLength: 32, port: 4, nextHopMac: mac('02:00:00:00:00:04') },
    ]);
    expect(s1.some((e) => 'destination' in e && e.destination === 's1')).toBe(false);
  });

  test('switches without an address only bridge; Linux bridges get no plan but are forwarded through', () => {
    const tutorial = forwardingPlan(fixture('tutorial-pod.json'));
    expect(tutorial.map((p) => [p.switch, p.routes])).toEqual([['s1', false], ['s2', false], ['s3', false], ['s4', false]]);
    expect(tutorial[0]!.entries.map((e) => e.role)).toEqual(['flood-group', 'l2-flood', 'l2-unicast', 'l2-unicast', 'l2-unicast', 'l2-unicast']);

    const json = fixtureJson('leaf-spine-1.json');
    (json['switches'] as Record<string, unknown>)['s3'] = { target: 'linux-bridge', role: 'spine' };
    const bridged = parseTopology(json);
    const plans = forwardingPlan(bridged);
    expect(plans.map((p) => p.switch)).toEqual(['s1', 's2']);
    // Beyond a bridge, the frame must already carry the destination's own MAC.
    expect(planOf(bridged, 's1').find((e) => e.role === 'ipv4-host-route' && e.destination === 'h3')).toMatchObject({ port: 3, nextHopMac: mac('08:00:00:00:02:01') });
  });

  test('flooding follows a spanning tree rooted at the first spine, so broadcasts never loop', () => {
    const ports = floodPorts(fixture('leaf-spine-2.json'));
    expect(Object.fromEntries(ports)).toEqual({ s1: [1, 2, 3, 4], s2: [1, 2, 3], s3: [1, 2], s4: [1] });
    expect(planOf(fixture('leaf-spine-2.json'), 's4')).toContainEqual({ role: 'flood-group', group: 1, ports: [1] });
  });

  test('the flood group can be chosen', () => {
    const entries = forwardingPlan(fixture('single-switch.json'), { floodGroup: 7 })[0]!.entries;
    expect(entries.filter((e) => e.role === 'flood-group' || e.role === 'l2-flood').map((e) => 'group' in e && e.group)).toEqual([7, 7]);
    expect(() => forwardingPlan(fixture('single-switch.json'), { floodGroup: 0 })).toThrow(RangeError);
  });
});

/** Follows l2-unicast entries switch by switch; returns the nodes visited. */
function walk(topo: Topology, from: string, to: string): string[] {
  const plans = new Map(forwardingPlan(topo).map((p) => [p.switch, p.entries]));
  const peerOf = (sw: string, port: number): string => {
    const link = topo.links.find((l) => (l.a.node === sw && l.a.port === port) || (l.b.node === sw && l.b.port === port))!;
    return link.a.node === sw ? link.b.node : link.a.node;
  };
  const first = topo.links.find((l) => l.a.node === from || l.b.node === from)!;
  let node = first.a.node === from ? first.b.node : first.a.node;
  const seen = [from];
  for (let i = 0; i < 16 && node !== to; i++) {
    seen.push(node);
    const entry = plans.get(node)!.find((e) => e.role === 'l2-unicast' && e.destination === to)!;
    node = peerOf(node, (entry as { port: number }).port);
  }
  return [...seen, node];
}

describe('the plan delivers', () => {
  test.each(['single-switch.json', 'leaf-spine-1.json', 'leaf-spine-2.json', 'tutorial-pod.json'])('%s: every host reaches every other host along the shortest path', (name) => {
    const topo = fixture(name);
    for (const a of topo.hosts.keys()) {
      for (const b of topo.hosts.keys()) {
        if (a === b) continue;
        const visited = walk(topo, a, b);
        expect(visited.at(-1)).toBe(b);
        expect(new Set(visited).size).toBe(visited.length);
      }
    }
  });
});
