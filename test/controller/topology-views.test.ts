import { describe, expect, test } from 'vitest';
import { hostAttachment, neighbours, parseTopology, rackOfHost, racks, shortestPath, switchPorts, TopologyGraph } from '../../src/controller/index.js';
import { fixture, fixtureJson, problemsOf } from './helpers.js';

const single = fixture('single-switch.json');
const oneSpine = fixture('leaf-spine-1.json');
const twoSpines = fixture('leaf-spine-2.json');

const hopsOf = (from: string, to: string, topo = twoSpines): string[] =>
  shortestPath(topo, from, to).hops.map((h) => `${h.inPort ?? '-'}>${h.node}>${h.outPort ?? '-'}`);

describe('hosts, ports, neighbours and racks', () => {
  test('each host\'s ToR and port', () => {
    expect(['h1', 'h2', 'h3', 'h4'].map((h) => hostAttachment(oneSpine, h)).map((a) => [a.host, a.switch, a.port])).toEqual([
      ['h1', 's1', 1],
      ['h2', 's1', 2],
      ['h3', 's2', 1],
      ['h4', 's2', 2],
    ]);
    expect(hostAttachment(single, 'h4')).toMatchObject({ switch: 's1', port: 4, link: { index: 3 } });
  });

  test('each switch\'s ports, ascending, with what is on the other end', () => {
    expect(switchPorts(twoSpines, 's1').map((p) => [p.port, p.peer.node, p.peer.port])).toEqual([
      [1, 'h1', 0],
      [2, 'h2', 0],
      [3, 's3', 1],
      [4, 's4', 1],
    ]);
    expect(switchPorts(twoSpines, 's4').map((p) => [p.port, p.peer.node, p.peer.port])).toEqual([
      [1, 's1', 4],
      [2, 's2', 4],
    ]);
  });

  test('neighbours in natural order', () => {
    expect(neighbours(twoSpines, 's1')).toEqual(['h1', 'h2', 's3', 's4']);
    expect(neighbours(twoSpines, 's3')).toEqual(['s1', 's2']);
    expect(neighbours(twoSpines, 'h3')).toEqual(['s2']);
    expect(neighbours(single, 's1')).toEqual(['h1', 'h2', 'h3', 'h4']);
  });

  test('racks: each ToR with its hosts', () => {
    expect(racks(oneSpine)).toEqual([
      { name: 'r1', tor: 's1', ina: false, hosts: [{ host: 'h1', port: 1 }, { host: 'h2', port: 2 }] },
      { name: 'r2', tor: 's2', ina: false, hosts: [{ host: 'h3', port: 1 }, { host: 'h4', port: 2 }] },
    ]);
    expect(racks(single)).toEqual([{ name: 's1', tor: 's1', ina: true, hosts: [1, 2, 3, 4].map((p) => ({ host: `h${p}`, port: p })) }]);
    expect(rackOfHost(twoSpines, 'h4').name).toBe('r2');
  });

  test('racks are listed in natural order (s2 before s10)', () => {
    const json = fixtureJson('leaf-spine-1.json');
    const switches = json['switches'] as Record<string, Record<string, unknown>>;
    switches['s10'] = { ...switches['s1'], rack: 'r10', device_id: 10, grpc: '127.0.0.1:50060', ip: '10.0.10.254', mac: '02:00:00:00:10:fe' };
    json['links'] = [...(json['links'] as unknown[]), { nodes: ['s10-p1', 's3-p9'] }];
    expect(racks(parseTopology(json)).map((r) => r.tor)).toEqual(['s1', 's2', 's10']);
  });

  test('unknown nodes are a typed error', () => {
    expect(problemsOf(() => hostAttachment(single, 'h9'))).toEqual([['TOPOLOGY_NO_SUCH_NODE', '$.hosts']]);
    expect(problemsOf(() => switchPorts(single, 'h1'))).toEqual([['TOPOLOGY_NO_SUCH_NODE', '$.switches']]);
    expect(problemsOf(() => shortestPath(single, 'h1', 'nowhere'))).toEqual([['TOPOLOGY_NO_SUCH_NODE', '$']]);
  });
});

describe('shortest paths', () => {
  test('single switch: host → switch → host with the ports at each node', () => {
    const path = shortestPath(single, 'h1', 'h4');
    expect(path.nodes).toEqual(['h1', 's1', 'h4']);
    expect(path.length).toBe(2);
    expect(hopsOf('h1', 'h4', single)).toEqual(['->h1>0', '1>s1>4', '0>h4>-']);
  });

  test('leaf-spine with one spine: within a rack and across racks', () => {
    expect(hopsOf('h1', 'h2', oneSpine)).toEqual(['->h1>0', '1>s1>2', '0>h2>-']);
    expect(hopsOf('h1', 'h4', oneSpine)).toEqual(['->h1>0', '1>s1>3', '1>s3>2', '3>s2>2', '0>h4>-']);
    expect(hopsOf('h4', 'h1', oneSpine)).toEqual(['->h4>0', '2>s2>3', '2>s3>1', '3>s1>1', '0>h1>-']);
  });

  test('leaf-spine with two spines: equal paths are broken by name, the same way in both directions', () => {
    expect(hopsOf('h1', 'h3')).toEqual(['->h1>0', '1>s1>3', '1>s3>2', '3>s2>1', '0>h3>-']);
    expect(hopsOf('h3', 'h1')).toEqual(['->h3>0', '1>s2>3', '2>s3>1', '3>s1>1', '0>h1>-']);
    expect(shortestPath(twoSpines, 's4', 'h2').nodes).toEqual(['s4', 's1', 'h2']);
    expect(shortestPath(twoSpines, 's3', 's3').nodes).toEqual(['s3']);
  });

  test('path counts: which switches every path passes', () => {
    const one = TopologyGraph.of(oneSpine);
    const two = TopologyGraph.of(twoSpines);
    expect(one.shortestPathCount('s1', 's2')).toBe(1);
    expect(two.shortestPathCount('s1', 's2')).toBe(2);
    expect(two.shortestPathCount('h1', 'h4')).toBe(2);
    expect(one.onEveryShortestPath('s1', 's2', 's3')).toBe(true);
    expect(two.onEveryShortestPath('s1', 's2', 's3')).toBe(false);
    expect(two.onSomeShortestPath('s1', 's2', 's3')).toBe(true);
    expect(two.onSomeShortestPath('h1', 'h2', 's3')).toBe(false);
    expect(two.distance('h1', 'h4')).toBe(4);
  });

  test('parallel links count as separate paths and the lower port is chosen', () => {
    const json = fixtureJson('leaf-spine-1.json');
    json['links'] = [...(json['links'] as unknown[]), { nodes: ['s1-p5', 's3-p5'] }];
    const topo = parseTopology(json);
    const graph = TopologyGraph.of(topo);
    expect(graph.shortestPathCount('s1', 's2')).toBe(2);
    expect(graph.onEveryShortestPath('s1', 's2', 's3')).toBe(true);
    expect(hopsOf('h1', 'h3', topo)).toEqual(['->h1>0', '1>s1>3', '1>s3>2', '3>s2>1', '0>h3>-']);
  });

  test('hosts never carry transit traffic', () => {
    for (const topo of [single, oneSpine, twoSpines]) {
      for (const a of topo.hosts.keys()) {
        for (const b of topo.hosts.keys()) {
          const inner = shortestPath(topo, a, b).hops.slice(1, -1);
          expect(inner.every((h) => h.kind === 'switch')).toBe(true);
        }
      }
    }
  });
});
