import { describe, expect, test } from 'vitest';
import { loadTopology, parseTopology, parseTopologyText } from '../../src/controller/index.js';
import { macFromText, ipv4FromText } from '../../src/wire/index.js';
import { fixture, fixtureJson, fixturePath, problemsOf } from './helpers.js';

describe('a tutorials topology.json loads unchanged', () => {
  const topo = fixture('tutorial-pod.json');

  test('hosts keep address, prefix, MAC and commands', () => {
    expect([...topo.hosts.keys()]).toEqual(['h1', 'h2', 'h3', 'h4']);
    const h3 = topo.hosts.get('h3')!;
    expect(h3).toMatchObject({ kind: 'host', ip: ipv4FromText('10.0.2.3'), ipText: '10.0.2.3/24', prefixLength: 24, mac: 0x080000000203, macText: '08:00:00:00:02:03' });
    expect(h3.commands).toEqual(['route add default gw 10.0.2.254 dev eth0', 'arp -i eth0 -s 10.0.2.254 08:00:00:00:02:fe']);
  });

  test('switches get the tutorials\' numbering: device ids from 0, gRPC ports from 50051, in file order', () => {
    const view = [...topo.switches.values()].map((s) => [s.name, s.deviceId, s.grpc, s.target, s.role, s.roleGiven, s.rack, s.ina]);
    expect(view).toEqual([
      ['s1', 0, '127.0.0.1:50051', 'emulator', 'tor', false, 's1', false],
      ['s2', 1, '127.0.0.1:50052', 'emulator', 'tor', false, 's2', false],
      ['s3', 2, '127.0.0.1:50053', 'emulator', 'spine', false, undefined, false],
      ['s4', 3, '127.0.0.1:50054', 'emulator', 'spine', false, undefined, false],
    ]);
  });

  test('tutorials\' switch fields are kept as written', () => {
    expect(topo.switches.get('s1')!.runtimeJson).toBe('pod-topo/s1-runtime.json');
    expect(topo.switches.get('s2')!.cpuPort).toBe(255);
    expect(topo.switches.get('s3')!.program).toEqual({ config: 'build/basic.json' });
    expect(topo.switches.get('s4')).toMatchObject({ cliInput: 'pod-topo/s4-commands.txt', priorityQueues: 8, program: undefined });
  });

  test('links: either order of ends, latency as ms or Mininet text, bandwidth or null', () => {
    const view = topo.links.map((l) => [`${l.a.node}:${l.a.port}`, `${l.b.node}:${l.b.port}`, l.delayMs, l.bandwidthMbps]);
    expect(view).toEqual([
      ['h1:0', 's1:1', 0, undefined],
      ['s1:2', 'h2:0', 5, undefined],
      ['s1:3', 's3:1', 0, 100],
      ['s1:4', 's4:2', 2, undefined],
      ['h3:0', 's2:1', 0.25, undefined],
      ['h4:0', 's2:2', 0, undefined],
      ['s2:3', 's4:1', 0, undefined],
      ['s2:4', 's3:2', 1000, 10],
    ]);
    expect(topo.links.map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('p4ina fields', () => {
  test('every field of a switch, and links in object form', () => {
    const topo = fixture('single-switch.json');
    expect(topo.description).toMatch(/loopback demo/);
    expect(topo.switches.get('s1')).toEqual({
      kind: 'switch',
      name: 's1',
      target: 'emulator',
      role: 'tor',
      roleGiven: false,
      rack: 's1',
      ina: true,
      deviceId: 1,
      grpc: '127.0.0.1:9559',
      cpuPort: 510,
      program: { p4: 'p4/switchml.p4' },
      ip: ipv4FromText('10.0.0.254'),
      ipText: '10.0.0.254',
      mac: macFromText('02:00:00:00:00:fe'),
      macText: '02:00:00:00:00:fe',
      runtimeJson: undefined,
      cliInput: undefined,
      priorityQueues: undefined,
    });
    expect(topo.links[0]).toEqual({ index: 0, a: { node: 'h1', kind: 'host', port: 0 }, b: { node: 's1', kind: 'switch', port: 1 }, delayMs: 0.1, bandwidthMbps: 1000 });
  });

  test('explicit roles, racks and compiled artefacts', () => {
    const topo = fixture('leaf-spine-2.json');
    expect(topo.switches.get('s2')).toMatchObject({ role: 'tor', roleGiven: true, rack: 'r2', target: 'bmv2', program: { p4info: 'build/switchml.p4info.txtpb', config: 'build/switchml.json' } });
    expect(topo.switches.get('s4')).toMatchObject({ role: 'spine', roleGiven: true, rack: undefined });
  });

  test('a Linux bridge has no device id or gRPC address, and the tutorials\' numbering skips it', () => {
    const json = fixtureJson('tutorial-pod.json');
    (json['switches'] as Record<string, unknown>)['s1'] = { target: 'linux-bridge' };
    const topo = parseTopology(json);
    expect(topo.switches.get('s1')).toMatchObject({ target: 'linux-bridge', deviceId: undefined, grpc: undefined });
    expect(topo.switches.get('s2')).toMatchObject({ deviceId: 0, grpc: '127.0.0.1:50051' });
  });

  test('keys starting with "_" are comments', () => {
    const json = fixtureJson('single-switch.json');
    json['_comment'] = 'anything';
    (json['hosts'] as Record<string, Record<string, unknown>>)['h1']!['_note'] = { free: 'form' };
    expect(() => parseTopology(json)).not.toThrow();
  });

  test('a bare host address has no prefix length', () => {
    const json = fixtureJson('single-switch.json');
    (json['hosts'] as Record<string, Record<string, unknown>>)['h1']!['ip'] = '10.0.0.1';
    expect(parseTopology(json).hosts.get('h1')!.prefixLength).toBeUndefined();
  });
});

describe('files', () => {
  test('loadTopology reads a file and remembers where it came from', async () => {
    const topo = await loadTopology(fixturePath('leaf-spine-1.json'));
    expect(topo.sourcePath).toBe(fixturePath('leaf-spine-1.json'));
    expect(topo.switches.size).toBe(3);
  });

  test('the documented example loads', async () => {
    const topo = await loadTopology(fixturePath('../../../docs/examples/topology.json'));
    expect(topo.hosts.size).toBeGreaterThan(0);
  });

  test('a missing file and a file that is not JSON have their own codes', async () => {
    await expect(loadTopology(fixturePath('no-such-file.json'))).rejects.toMatchObject({ code: 'TOPOLOGY_FILE_UNREADABLE', path: '$' });
    expect(problemsOf(() => parseTopologyText('{ "hosts": {}, '))).toEqual([['TOPOLOGY_BAD_JSON', '$']]);
  });

  test('messages start with the file name when there is one', () => {
    expect(() => parseTopologyText('[]', { sourcePath: 'lab.json' })).toThrow(/^lab\.json: \$: a topology must be a JSON object, not an array$/);
  });
});
