// The controller's forwarding install works on atp.p4 unchanged: the real
// Installer pushes atp.p4 (compiled by p4ina's front end) to an emulated
// switch and installs its forwarding plan by the names forward.p4 and
// switchml.p4 share; then ordinary traffic is forwarded and ATP of a job
// the switch has no entry for goes through as plain IPv4.
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { parseTopology } from '../../../src/controller/index.js';
import { Installer, ProgramCache } from '../../../src/controller/install/index.js';
import { compilePipeline } from '../../../src/p4c/index.js';
import { counter } from '../../../src/p4runtime/index.js';
import { SwitchDevice } from '../../../src/switch/device/switch-device.js';
import { PortSet } from '../../../src/switch/ports/port-set.js';
import { ArpOperation, BROADCAST_MAC, buildArpFrame, buildUdpFrame, ipv4FromText, macFromText, type ArpPacket } from '../../../src/wire/index.js';
import { CapturePort, type CapturedFrame } from '../../e2e/switchml/support/capture-port.js';
import { ATP_P4 } from '../helpers.js';
import { OUTCOMES, Outcome } from './support/atp-rig.js';
import { atpFrame, contribution, type Host } from './support/atp-network.js';

const QUIET = pino({ level: 'silent' });
const hosts = ['h1', 'h2', 'h3', 'ps'].map((name, i) => ({ name, ip: `10.0.0.${i + 1}`, mac: `02:00:00:00:00:0${i + 1}`, port: i + 1 }));
const host = (i: number): Host => ({ mac: macFromText(hosts[i]!.mac), ip: ipv4FromText(hosts[i]!.ip), udpPort: 0xbf00 + i, switchPort: hosts[i]!.port });

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

it('installs forwarding on atp.p4 with the SwitchML-era installer, and the switch forwards', async () => {
  const captured: CapturedFrame[] = [];
  const ports = hosts.map((h) => new CapturePort(h.port, captured));
  const device = new SwitchDevice({ ports: new PortSet(ports), logger: QUIET });
  const { port } = await device.start({ address: '127.0.0.1:0' });
  cleanups.push(() => device.stop());
  const topology = parseTopology({
    description: 'one atp.p4 switch',
    hosts: Object.fromEntries(hosts.map((h) => [h.name, { ip: `${h.ip}/24`, mac: h.mac }])),
    switches: { s1: { target: 'emulator', grpc: `127.0.0.1:${port}`, device_id: 0, program: { p4: ATP_P4 }, ina: true, ip: '10.0.0.254', mac: '02:00:00:00:00:fe' } },
    links: hosts.map((h) => ({ nodes: [h.name, `s1-p${h.port}`] })),
  });
  const installer = await Installer.connect(topology, { programs: new ProgramCache({ compiler: compilePipeline, defines: ['ATP_VALUES=8'] }), logger: QUIET });
  cleanups.push(() => installer.close());
  const [report] = await installer.installForwarding();
  expect(report!.inserted).toBeGreaterThan(0);

  const send = (from: number, frame: Buffer): number[] => {
    captured.length = 0;
    ports[from]!.inject(frame);
    return captured.map((f) => f.port);
  };
  const buf = Buffer.alloc(128);
  const udp = Buffer.from(buf.subarray(0, buildUdpFrame(buf, 0, { srcMac: host(0).mac, dstMac: host(1).mac, srcIp: host(0).ip, dstIp: host(1).ip, srcPort: 1, dstPort: 2 }, Buffer.from('x'))));
  expect(send(0, udp)).toEqual([2]);
  const request: ArpPacket = { operation: ArpOperation.REQUEST, senderMac: host(0).mac, senderIp: host(0).ip, targetMac: 0, targetIp: host(2).ip };
  const arp = Buffer.from(buf.subarray(0, buildArpFrame(buf, 0, request)));
  expect(arp.readUIntBE(0, 6)).toBe(BROADCAST_MAC);
  expect(send(0, arp).sort()).toEqual([2, 3, 4]);
  expect(send(0, atpFrame({ from: host(0), to: host(3), jobId: 9, bitmap0: 1, fanInDegree0: 2, values: contribution(0, 0, 8) }))).toEqual([4]);

  const session = installer.sessions.get('s1')!;
  const cells = await session.readAll(counter(OUTCOMES, { index: Outcome.NO_JOB }));
  expect(Number(cells[0]?.data?.packetCount)).toBe(1);
});
