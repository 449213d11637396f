import { describe, expect, test } from 'vitest';
import { parseAtpPsArgs } from '../../src/agent/atp/ps-main.js';
import { parseAtpWorkerArgs } from '../../src/agent/atp/worker-args.js';
import { parsePsArgs } from '../../src/agent/baseline/ps-main.js';
import { atpAgentConfigs, defineJob, parseTopology, planRollout } from '../../src/controller/index.js';
import { atpJobInput, atpPsDemoArgs, atpPsHost, atpWorkerDemoArgs } from '../../src/demo/demo-atp.js';
import { parseSwitchMlWorkerArgs } from '../../src/agent/switchml/worker-args.js';
import { parseRingWorkerArgs } from '../../src/agent/baseline/ring-worker-main.js';
import { demoHosts, demoJobInput, demoTopology, psServerArgs, psWorkerArgs, ringAgentArgs, switchInterfaceArgs, switchMlAgentArgs } from '../../src/demo/demo-network.js';
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
    expect(job.elementsPerPacket).toBe(64);
    expect(defineJob(demoJobInput(hosts, 32, 256)).elementsPerPacket).toBe(256);
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
    const [kind, ...rest] = switchMlAgentArgs(hosts[1]!, wires[1]!, { workers: 3, poolSize: 32, elements: 256, length: 1000, seed: 'x' });
    expect(kind).toBe('switchml');
    expect(parseSwitchMlWorkerArgs(rest)).toMatchObject({
      transport: { kind: 'wire', localPort: 6002, peerPort: 7003, host: { mac: '02:00:00:00:00:02', ip: '10.0.0.2', udpPort: 40001 }, remote: { mac: '02:00:00:00:00:fe', ip: '10.0.0.254' } },
      jobId: 1,
      workerId: 1,
      numWorkers: 3,
      poolSize: 32,
      elementsPerPacket: 256,
      length: 1000,
      seed: 'x',
      check: true,
      json: true,
    });
    const [ring, ...ringRest] = ringAgentArgs(2, [9000, 9001, 9002], { length: 1000, seed: 7 });
    expect(ring).toBe('ring');
    expect(parseRingWorkerArgs(ringRest)).toMatchObject({ rank: 2, worldSize: 3, length: 1000, seed: 7, check: true, json: true, peers: [{ port: 9000 }, { port: 9001 }, { port: 9002 }] });
  });

  test('the parameter-server baseline: one round on a port the system picks, workers to the address it says', () => {
    const [server, ...serverRest] = psServerArgs(3);
    expect(server).toBe('ps-server');
    expect(parsePsArgs(['--role', 'server', ...serverRest])).toMatchObject({ role: 'server', worldSize: 3, listen: { host: '127.0.0.1', port: 0 }, rounds: 1, json: true });
    const [worker, ...workerRest] = psWorkerArgs(1, 3, '127.0.0.1:5555', { length: 1000, seed: 'x' });
    expect(worker).toBe('ps-worker');
    expect(parsePsArgs(['--role', 'worker', ...workerRest])).toMatchObject({ role: 'worker', rank: 1, worldSize: 3, server: { host: '127.0.0.1', port: 5555 }, length: 1000, seed: 'x', check: true, json: true });
  });
});

describe('ATP in the demo network', () => {
  const ps = atpPsHost(3);
  const topology = parseTopology(demoTopology([...hosts, ps], '127.0.0.1:1234', { p4info: '/tmp/x.p4info.txtpb', config: '/tmp/x.ir.json' }));
  const spec = defineJob(atpJobInput(hosts, ps, 32));
  const plan = planRollout(topology, spec, { atpCapable: () => true });
  const configs = atpAgentConfigs(spec, plan);
  const psWire = { switchSocket: 5004, agentSocket: 6004, switchPeer: 6004, agentPeer: 5004 };

  test('the PS is one more host, on the port after the workers', () => {
    expect(ps).toMatchObject({ name: 'ps', switchPort: 4 });
    expect([...topology.hosts.keys()]).toEqual(['h1', 'h2', 'h3', 'ps']);
    expect(switchInterfaceArgs([...hosts, ps], [...wires, psWire]).slice(-2)).toEqual(['-i', '4@udp:127.0.0.1:5004:127.0.0.1:6004']);
  });

  test('the job: the workers at level 0 of the one switch, the seeded tensors’ range, the window asked for', () => {
    expect(spec).toMatchObject({ algorithm: 'atp', poolSize: 4096, elementsPerPacket: 64, atp: { window: 32, valueRange: 256 } });
    expect(configs.workers.map((w) => [w.rank, w.bitmap0Bit, w.fanIn0, w.bitmap1Bit, w.fanIn1])).toEqual([
      [0, 0, 3, 0, 1],
      [1, 1, 3, 0, 1],
      [2, 2, 3, 0, 1],
    ]);
  });

  test('the agents’ arguments parse as the agents read them: frames from the host’s addresses, to the switch’s MAC', () => {
    const [kind, ...rest] = atpWorkerDemoArgs(configs.workers[1]!, hosts[1]!, wires[1]!, { length: 1000, seed: 'x' });
    expect(kind).toBe('atp-worker');
    expect(parseAtpWorkerArgs(rest)).toMatchObject({
      localAddress: '10.0.0.2',
      localPort: 0xbf01,
      psAddress: ps.ip,
      psPort: 0xbf00,
      wire: { localAddress: '127.0.0.1', localPort: 6002, peerAddress: '127.0.0.1', peerPort: 7003, mac: '02:00:00:00:00:02', gatewayMac: '02:00:00:00:00:fe' },
      jobId: 1,
      rank: 1,
      worldSize: 3,
      poolSize: 4096,
      maxWindow: 32,
      valueRange: 256,
      bitmap0Bit: 1,
      fanIn0: 3,
      length: 1000,
      seed: 'x',
      check: true,
      json: true,
    });
    const [psKind, ...psRest] = atpPsDemoArgs(configs.ps, ps, psWire);
    expect(psKind).toBe('atp-ps');
    expect(parseAtpPsArgs(psRest)).toMatchObject({
      listenAddress: ps.ip,
      listenPort: 0xbf00,
      wire: { localPort: 6004, peerPort: 5004, mac: ps.mac, gatewayMac: '02:00:00:00:00:fe' },
      racks: [{ aggregating: true, workers: hosts.map((h) => ({ address: h.ip, port: 0xbf01 })) }],
      maxWindow: 32,
      valueRange: 256,
      json: true,
    });
  });
});
