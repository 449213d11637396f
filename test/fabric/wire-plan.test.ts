// The fabric's cabling on paper: every link two sockets, each end's the
// other's peer (a host's end is its agent's socket, a switch's end its
// port's; with a relay in a host's cable, both ends send to it), and the `p4ina switch` command line of each switch as the
// switch's own parser reads it (ports, device id, rates from the links'
// bandwidth, no program, a CPU port after --); and a host's end as the ATP
// agents' `--transport wire` options, read back by their own parser.
import { describe, expect, test } from 'vitest';
import { parseValues } from '../../src/agent/atp/cli-values.js';
import { ATP_WIRE_OPTIONS, parseAtpWire } from '../../src/agent/atp/wire-args.js';
import { parseSwitchArgs } from '../../src/cli/switch-command.js';
import { parseTopology } from '../../src/controller/index.js';
import { wireArgs } from '../../src/fabric/index.js';
import { switchArgs } from '../../src/fabric/process-switches.js';
import { planWires, socketsNeeded, throughRelays } from '../../src/fabric/wire-plan.js';

const topology = parseTopology({
  hosts: { h1: { ip: '10.0.1.1/24', mac: '08:00:00:00:01:01' }, h2: { ip: '10.0.2.1/24', mac: '08:00:00:00:02:01' } },
  switches: { s1: { cpu_port: 510 }, s2: {} },
  links: [
    ['h1', 's1-p1'],
    { nodes: ['s2-p7', 'h2'], bandwidth_mbps: 2.5 },
    { nodes: ['s1-p3', 's2-p4'], bandwidth_mbps: 20 },
  ],
});

describe('the wire plan', () => {
  const sockets = [101, 102, 103, 104, 105, 106];
  const plan = planWires(topology, sockets);

  test('two sockets a link; each end sends to the other', () => {
    expect(socketsNeeded(topology)).toBe(6);
    expect(plan.hosts.get('h1')).toEqual({ switch: 's1', port: 1, agentSocket: 101, switchSocket: 102, agentPeer: 102 });
    // Link 2 is written switch first: the switch's end is the first socket.
    expect(plan.hosts.get('h2')).toEqual({ switch: 's2', port: 7, agentSocket: 104, switchSocket: 103, agentPeer: 103 });
    expect(plan.switchPorts.get('s1')).toEqual([
      { port: 1, local: 102, peer: 101, bandwidthMbps: undefined },
      { port: 3, local: 105, peer: 106, bandwidthMbps: 20 },
    ]);
    expect(plan.switchPorts.get('s2')).toEqual([
      { port: 7, local: 103, peer: 104, bandwidthMbps: 2.5 },
      { port: 4, local: 106, peer: 105, bandwidthMbps: 20 },
    ]);
  });

  test('a relay in the middle of h2’s cable: h2’s agent and s2’s port 7 send to it, everything else as before', () => {
    const relayed = throughRelays(plan, new Map([['h2', { agentFacingPort: 201, switchFacingPort: 202 }]]));
    expect(relayed.hosts.get('h1')).toEqual(plan.hosts.get('h1'));
    expect(relayed.hosts.get('h2')).toEqual({ switch: 's2', port: 7, agentSocket: 104, switchSocket: 103, agentPeer: 201 });
    expect(relayed.switchPorts.get('s1')).toEqual(plan.switchPorts.get('s1'));
    expect(relayed.switchPorts.get('s2')).toEqual([
      { port: 7, local: 103, peer: 202, bandwidthMbps: 2.5 },
      { port: 4, local: 106, peer: 105, bandwidthMbps: 20 },
    ]);
    // The plan it started from is left as it was.
    expect(plan.switchPorts.get('s2')![0]!.peer).toBe(104);
  });

  test('too few sockets is a programming error', () => {
    expect(() => planWires(topology, sockets.slice(1))).toThrow(/6 sockets needed, 5 given/);
  });

  test('each switch’s command line, as `p4ina switch` parses it', () => {
    const s1 = parseSwitchArgs(switchArgs({ name: 's1', deviceId: 0, ports: plan.switchPorts.get('s1')!, cpuPort: 510 }).slice(1));
    expect(s1).toMatchObject({
      deviceId: 0n,
      noP4: true,
      config: undefined,
      cpuPort: 510,
      grpcAddress: '127.0.0.1:0',
      interfaces: [
        { port: 1, iface: 'udp:127.0.0.1:102:127.0.0.1:101' },
        { port: 3, iface: 'udp:127.0.0.1:105:127.0.0.1:106' },
      ],
      queues: [{ port: 3, rate: { unit: 'bps', value: 20e6 } }],
    });
    const s2 = parseSwitchArgs(switchArgs({ name: 's2', deviceId: 1, ports: plan.switchPorts.get('s2')!, cpuPort: undefined }).slice(1));
    expect(s2).toMatchObject({ deviceId: 1n, cpuPort: undefined, queues: [{ port: 7, rate: { unit: 'bps', value: 2.5e6 } }, { port: 4, rate: { unit: 'bps', value: 20e6 } }] });
  });
});

test('a host’s wire as `--transport wire` options, read back by the ATP agents’ parser', () => {
  const wire = { localAddress: '127.0.0.1', localPort: 40001, peerAddress: '127.0.0.1', peerPort: 40002, mac: '08:00:00:00:01:01', gatewayMac: '02:00:00:00:01:fe' };
  const values = parseValues(wireArgs(wire), ATP_WIRE_OPTIONS);
  expect(parseAtpWire(values, { address: '10.0.1.1', port: 0xbf01, option: 'local' })).toEqual(wire);
});
