import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { P4RuntimeClient, action, cloneSession, digestEntry, insert, modify, multicastGroup, register, table } from '../../../src/p4runtime/index.js';
import { createHashFunction } from '../../../src/switch/externs/index.js';
import { readPcapFile } from '../../../src/switch/ports/pcap-reader.js';
import { compileCorpus } from '../pipeline/harness.js';
import { ip, ipv4Frame, mac } from '../pipeline/frames.js';
import { udpRig, type UdpRig } from './udp-rig.js';

let rig: UdpRig | undefined;
let client: P4RuntimeClient | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await client?.close();
  client = undefined;
  await rig?.close();
  rig = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function connect(r: UdpRig): Promise<P4RuntimeClient> {
  const c = new P4RuntimeClient({ address: `127.0.0.1:${r.sw.grpcPort}`, deviceId: 0, electionId: 1n, reconnect: false });
  await c.connect();
  return c;
}

async function push(c: P4RuntimeClient, name: string): Promise<void> {
  const p = compileCorpus(name);
  await c.setPipeline({ p4info: p.p4info, deviceConfig: Buffer.from(p.irText) });
}

describe('the running switch over P4Runtime and UDP wires', () => {
  it('basic_forward: entries from the client, frames in and out of real UDP wires, pcap files of both directions', async () => {
    const pcap = mkdtempSync(path.join(tmpdir(), 'p4ina-pcap-'));
    dirs.push(pcap);
    rig = await udpRig([1, 2], { pcapDir: pcap });
    client = await connect(rig);
    await push(client, 'basic_forward');
    await client.write(insert(table('MyIngress.ipv4_lpm', { 'hdr.ipv4.dstAddr': '10.0.2.0/24' }, action('MyIngress.ipv4_forward', { dstAddr: '00:00:00:00:02:02', port: 2 }))));
    await rig.hosts.get(1)!.send(ipv4Frame({ dst: '00:00:00:00:00:aa', dstIp: '10.0.2.7', ttl: 9 }));
    const expected = ipv4Frame({ dst: '00:00:00:00:02:02', src: '00:00:00:00:00:aa', dstIp: '10.0.2.7', ttl: 8 }).toString('hex');
    expect(await rig.hosts.get(2)!.frames(1)).toEqual([expected]);
    expect(rig.sw.device.portStats()).toMatchObject({ 1: { packetsIn: 1 }, 2: { packetsOut: 1 } });
    await client.close();
    client = undefined;
    await rig.close();
    rig = undefined;
    // One file per port and direction; the routed frame is in exactly one of them (port 2, out).
    const files = readdirSync(pcap).sort();
    expect(files.length).toBe(4);
    expect(files.filter((f) => f.endsWith('_in.pcap'))).toHaveLength(2);
    const records = await Promise.all(files.map(async (f) => ({ f, frames: (await readPcapFile(path.join(pcap, f))).records.map((r) => r.data.toString('hex')) })));
    const holding = records.filter((r) => r.frames.includes(expected));
    expect(holding).toHaveLength(1);
    expect(holding[0]!.f).toMatch(/_out\.pcap$/);
  });

  it('multicast and clone sessions from the client replicate on the wires', async () => {
    rig = await udpRig([1, 2, 3]);
    client = await connect(rig);
    await push(client, 'multicast');
    await client.write(insert(multicastGroup(1, [{ port: 1, instance: 1 }, { port: 2, instance: 1 }, { port: 3, instance: 1 }])));
    const frame = Buffer.concat([mac('ff:ff:ff:ff:ff:ff'), mac('00:00:00:00:00:01'), Buffer.from([0x12, 0x34, 1, 2])]);
    await rig.hosts.get(1)!.send(frame);
    expect(await rig.hosts.get(2)!.frames(1)).toEqual([frame.toString('hex')]);
    expect(await rig.hosts.get(3)!.frames(1)).toEqual([frame.toString('hex')]);
    expect(rig.hosts.get(1)!.received).toEqual([]);
  });

  it('digest_learning: digests and PacketIns reach the client, PacketOuts leave on the port they name', async () => {
    rig = await udpRig([1, 2], { cpuPort: 255 });
    client = await connect(rig);
    await push(client, 'digest_learning');
    await client.write(insert(digestEntry('mac_learn_digest_t', { maxTimeoutNs: 0, maxListSize: 1, ackTimeoutNs: 1_000_000_000 })));
    const digests = client.digests();
    const packets = client.packets();
    const frame = Buffer.concat([mac('00:00:00:00:00:02'), mac('00:00:00:00:00:01'), Buffer.from([0x08, 0x00, 0xaa])]);
    await rig.hosts.get(1)!.send(frame);
    const list = (await digests.next()).value!;
    expect(list.name).toBe('mac_learn_digest_t');
    expect(list.data).toHaveLength(1);
    const learned = list.data[0] as Record<string, unknown>;
    expect(Number(learned.srcAddr)).toBe(1);
    expect(Number(learned.ingress_port)).toBe(1);
    await list.ack();
    const packetIn = (await packets.next()).value!;
    expect(packetIn.payload.toString('hex')).toBe(frame.toString('hex'));
    expect(Number(packetIn.metadata.ingress_port)).toBe(1);
    await client.packetOut(frame, { egress_port: 2, _pad: 0 });
    expect(await rig.hosts.get(2)!.frames(1)).toEqual([frame.toString('hex')]);
  });

  it('acl_clone: a denied packet is dropped and its I2E clone leaves on the session port', async () => {
    rig = await udpRig([1, 2, 4]);
    client = await connect(rig);
    await push(client, 'acl_clone');
    await client.write([
      insert(table('AclIngress.l2', { 'hdr.ethernet.dstAddr': '00:00:00:00:00:02' }, action('AclIngress.forward', { port: 2 }))),
      insert(cloneSession(5, [{ port: 4, instance: 0 }])),
    ]);
    const ports = Buffer.alloc(4);
    ports.writeUInt16BE(1234, 0);
    ports.writeUInt16BE(22, 2);
    const ssh = ipv4Frame({ dst: '00:00:00:00:00:02', srcIp: '10.1.1.1', dstIp: '10.0.9.9', protocol: 6, payload: ports });
    await rig.hosts.get(1)!.send(ssh);
    const tagged = Buffer.from(ssh);
    tagged.writeUInt16BE(0x88b5, 12);
    expect(await rig.hosts.get(4)!.frames(1)).toEqual([tagged.toString('hex')]);
    ports.writeUInt16BE(80, 2);
    const web = ipv4Frame({ dst: '00:00:00:00:00:02', srcIp: '10.1.1.1', dstIp: '10.0.9.9', protocol: 6, payload: ports });
    await rig.hosts.get(1)!.send(web);
    expect(await rig.hosts.get(2)!.frames(1)).toEqual([web.toString('hex')]);
    expect(rig.hosts.get(2)!.received.map((f) => f.toString('hex'))).not.toContain(ssh.toString('hex'));
  });

  it('registers_counters: the client reads the register cells the packets wrote, and its writes are what packets read', async () => {
    rig = await udpRig([1, 3]);
    client = await connect(rig);
    await push(client, 'registers_counters');
    await client.write(insert(table('StatsIngress.forwarding', { 'hdr.ipv4.dstAddr': '10.0.2.0/24' }, action('StatsIngress.forward', { port: 3 }))));
    const index = createHashFunction('crc32').hashNumber(Buffer.concat([ip('10.0.1.1'), ip('10.0.2.2'), Buffer.from([17])])) % 1024;
    await client.write(modify(register('StatsIngress.flow_packets', { index, value: 100 })));
    const frame = ipv4Frame({ srcIp: '10.0.1.1', dstIp: '10.0.2.2', protocol: 17 });
    await rig.hosts.get(1)!.send(frame);
    await rig.hosts.get(1)!.send(frame);
    expect(await rig.hosts.get(3)!.frames(2)).toEqual([frame.toString('hex'), frame.toString('hex')]);
    const [cell] = await client.readAll(register('StatsIngress.flow_packets', { index }));
    expect(Number(cell!.value)).toBe(102);
  });

  it('refuses a device config that is not our IR, and BMv2 JSON, with INVALID_ARGUMENT', async () => {
    rig = await udpRig([1]);
    client = await connect(rig);
    const p = compileCorpus('basic_forward');
    await expect(client.setPipeline({ p4info: p.p4info, deviceConfig: Buffer.from('{"__meta__": {}, "pipelines": []}') })).rejects.toThrow(/BMv2 JSON.*p4ina compile/);
    await expect(client.setPipeline({ p4info: p.p4info, deviceConfig: Buffer.from('garbage') })).rejects.toThrow(/not JSON/);
    await expect(client.setPipeline({ p4info: p.p4info, deviceConfig: Buffer.from('{"format": "x"}') })).rejects.toThrow(/not p4ina IR/);
    // No program at all (P4Runtime-only use): accepted, and the data plane drops.
    await client.setPipeline({ p4info: p.p4info, deviceConfig: Buffer.from('{}') });
    await rig.hosts.get(1)!.send(ipv4Frame());
    const deadline = Date.now() + 3000;
    while ((rig.sw.device.portStats()[1]?.packetsIn ?? 0) < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(rig.sw.device.portStats()[1]).toMatchObject({ packetsIn: 1, dropped: 1 });
  });

  it('a new pipeline pushed while packets flow: every frame is processed whole by the old or the new program', async () => {
    rig = await udpRig([1, 2]);
    client = await connect(rig);
    await push(client, 'multicast');
    await client.write(insert(table('McIngress.mac_table', { 'hdr.ethernet.dstAddr': '00:00:00:00:00:02' }, action('McIngress.unicast', { port: 2 }))));
    const sent: Buffer[] = [];
    for (let i = 0; i < 200; i++) {
      const f = ipv4Frame({ dst: '00:00:00:00:00:02', dstIp: '10.0.2.2', ttl: 50, payload: Buffer.from([i]) });
      sent.push(f);
    }
    // Frame 0 through the old program before the push, and frame 199 through
    // the new one after its entry is in: both programs are seen for certain,
    // so the check below is never over an empty list, whatever the timing.
    await rig.hosts.get(1)!.send(sent[0]!);
    expect(await rig.hosts.get(2)!.frames(1)).toEqual([sent[0]!.toString('hex')]);
    const sending = (async () => {
      for (const f of sent.slice(1, -1)) await rig!.hosts.get(1)!.send(f);
    })();
    await push(client, 'basic_forward');
    await client.write(insert(table('MyIngress.ipv4_lpm', { 'hdr.ipv4.dstAddr': '10.0.2.0/24' }, action('MyIngress.ipv4_forward', { dstAddr: '00:00:00:00:00:02', port: 2 }))));
    await sending;
    await rig.hosts.get(1)!.send(sent.at(-1)!);
    // Every frame is either forwarded or dropped (by the new program before its entry is in); wait until all are accounted for.
    const deadline = Date.now() + 5000;
    const accounted = (): number => rig!.hosts.get(2)!.received.length + rig!.sw.device.portStats()[1]!.dropped;
    while (accounted() < sent.length && Date.now() < deadline) await rig.hosts.get(2)!.frames(rig.hosts.get(2)!.received.length + 1, 50);
    expect(rig.sw.device.portStats()[1]).toMatchObject({ packetsIn: sent.length, malformed: 0 });
    expect(accounted()).toBe(sent.length);
    // The old program forwards frames unchanged; the new one routes them (MACs rewritten, TTL 49, checksum updated).
    const byOld = new Set(sent.map((f) => f.toString('hex')));
    const byNew = new Set(sent.map((_, i) => ipv4Frame({ dst: '00:00:00:00:00:02', src: '00:00:00:00:00:02', dstIp: '10.0.2.2', ttl: 49, payload: Buffer.from([i]) }).toString('hex')));
    const received = rig.hosts.get(2)!.received.map((f) => f.toString('hex'));
    expect(received[0]).toBe(sent[0]!.toString('hex'));
    expect(received).toContain([...byNew].at(-1));
    for (const hexed of received) expect(byOld.has(hexed) || byNew.has(hexed)).toBe(true);
  });
});
