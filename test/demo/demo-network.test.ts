import { describe, expect, test } from 'vitest';
import { defineJob, parseTopology } from '../../src/controller/index.js';
import { parseSwitchMlWorkerArgs } from '../../src/agent/switchml/worker-args.js';
import { parseRingWorkerArgs } from '../../src/agent/baseline/ring-worker-main.js';
import { demoHosts, demoJobInput, demoTopology, ringAgentArgs, switchInterfaceArgs, switchMlAgentArgs } from '../../src/demo/demo-network.js';
import { parseSwitchArgs } from '../../src/cli/switch-command.js';

const hosts = demoHosts(3);
const wires = [
  { switchSocket: 5001, agentSocket: 6001, switchPeer: 6001, agentPeer: 5001 },
  { switchSocket: 5002, agentSocket: 6002, switchPeer: 7002, agentPeer: 7003 },
  { switchSocket: 5003, agentSocket: 6003, switchPeer: 6003, agentPeer: 5003 },
];

describe('the demo network', () => {
  test('hosts h1..hN on ports 1..N with distinct addresses', () => {
    expect(hosts.map((h) => [h.name, h.ip, h.mac, h.udpPort, h.switchPort])).toEqual([
      ['h1', '10.0.0.1', '02:00:00:00:00:01', 40000, 1],
      ['h2', '10.0.0.2', '02:00:00:00:00:02', 40001, 2],
      ['h3', '10.0.0.3', '02:00:00:00:00:03', 40002, 3],
    ]);
    expect(demoHosts(32).at(-1)!.mac).toBe('02:00:00:00:00:20');
  });

  test('the topology and job are valid for the controller', () => {
    const topology = parseTopology(demoTopology(hosts, '127.0.0.1:1234', { p4info: '/tmp/x.p4info.txtpb', config: '/tmp/x.ir.json' }));
    expect([...topology.hosts.keys()]).toEqual(['h1', 'h2', 'h3']);
    const job = defineJob(demoJobInput(hosts, 32));
    expect(job.workers.map((w) => [w.rank, w.host, w.udpPort])).toEqual([
      [0, 'h1', 40000],
      [1, 'h2', 40001],
      [2, 'h3', 40002],
    ]);
  });

  test('the switch arguments are UDP wires the switch command accepts', () => {
    const argv = switchInterfaceArgs(hosts, wires);
    expect(argv).toEqual(['-i', '1@udp:127.0.0.1:5001:127.0.0.1:6001', '-i', '2@udp:127.0.0.1:5002:127.0.0.1:7002', '-i', '3@udp:127.0.0.1:5003:127.0.0.1:6003']);
    expect(parseSwitchArgs([...argv, 'x.ir.json']).interfaces.map((i) => i.port)).toEqual([1, 2, 3]);
  });

  test('the agents’ arguments parse as the agents read them', () => {
    const [kind, ...rest] = switchMlAgentArgs(hosts[1]!, wires[1]!, { workers: 3, poolSize: 32, length: 1000, seed: 'x' });
    expect(kind).toBe('switchml');
    expect(parseSwitchMlWorkerArgs(rest)).toMatchObject({
      transport: { kind: 'wire', localPort: 6002, peerPort: 7003, host: { mac: '02:00:00:00:00:02', ip: '10.0.0.2', udpPort: 40001 }, remote: { mac: '02:00:00:00:00:fe', ip: '10.0.0.254' } },
      jobId: 1,
      workerId: 1,
      numWorkers: 3,
      poolSize: 32,
      length: 1000,
      seed: 'x',
      check: true,
      json: true,
    });
    const [ring, ...ringRest] = ringAgentArgs(2, [9000, 9001, 9002], { length: 1000, seed: 7 });
    expect(ring).toBe('ring');
    expect(parseRingWorkerArgs(ringRest)).toMatchObject({ rank: 2, worldSize: 3, length: 1000, seed: 7, check: true, json: true, peers: [{ port: 9000 }, { port: 9001 }, { port: 9002 }] });
  });
});
