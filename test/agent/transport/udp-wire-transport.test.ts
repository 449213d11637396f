import { describe, expect, test } from 'vitest';
import { socketAddress, UdpWireTransport, type UdpWireTransportOptions } from '../../../src/agent/transport/index.js';
import {
  ArpOperation,
  buildArpFrame,
  buildUdpFrame,
  ETHERTYPE_ARP,
  ipv4FromText,
  macFromText,
  parseArp,
  parseEthernet,
  parseUdpFrame,
  type UdpFlow,
} from '../../../src/wire/index.js';
import { eventually, rawSocket, type RawSocket, UDP_IOS, closeEverythingAfterEach } from './helpers.js';

const cleanups = closeEverythingAfterEach();

const AGENT = { mac: '02:00:00:00:00:01', ip: '10.0.0.1', udpPort: 40001 };
const SWITCH = { mac: '02:00:00:00:00:fe', ip: '10.0.0.254', udpPort: 0xbee0 };

async function open(options: UdpWireTransportOptions): Promise<UdpWireTransport> {
  const t = await UdpWireTransport.open(options);
  cleanups.push(() => t.close());
  return t;
}

async function switchPort(): Promise<RawSocket> {
  const s = await rawSocket();
  cleanups.push(() => s.close());
  return s;
}

/** A frame from the switch to the agent carrying `payload`, with the given changes to the flow. */
function frameToAgent(payload: Buffer, change: Partial<UdpFlow> = {}): Buffer {
  const buf = Buffer.alloc(1600);
  const flow: UdpFlow = {
    srcMac: macFromText(SWITCH.mac),
    dstMac: macFromText(AGENT.mac),
    srcIp: ipv4FromText(SWITCH.ip),
    dstIp: ipv4FromText(AGENT.ip),
    srcPort: SWITCH.udpPort,
    dstPort: AGENT.udpPort,
    udpChecksum: false,
    ...change,
  };
  return buf.subarray(0, buildUdpFrame(buf, 0, flow, payload));
}

describe.each(UDP_IOS)('UDP wire transport (%s)', (udpIo) => {
  test('sends whole Ethernet/IPv4/UDP frames from the host to the static remote, UDP checksum included', async () => {
    const port = await switchPort();
    const t = await open({ udpIo, peerPort: port.port, host: AGENT, remote: SWITCH });
    expect(t.peer).toMatchObject({ address: '127.0.0.1', port: port.port });
    expect(t.send(Buffer.from('hello'))).toBe(true);
    expect(await eventually(() => port.received.length === 1)).toBe(true);
    const frame = port.received[0]!.msg;
    const parsed = parseUdpFrame(frame);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.ethernet).toMatchObject({ srcMac: macFromText(AGENT.mac), dstMac: macFromText(SWITCH.mac) });
    expect(parsed.ipv4).toMatchObject({ srcIp: ipv4FromText(AGENT.ip), dstIp: ipv4FromText(SWITCH.ip) });
    expect(parsed.udp).toMatchObject({ srcPort: AGENT.udpPort, dstPort: SWITCH.udpPort });
    expect(parsed.udp.checksum).not.toBe(0);
    expect(frame.subarray(parsed.payloadOffset).toString()).toBe('hello');
    expect(t.counters).toMatchObject({ datagramsOut: 1, bytesOut: 42 + 5 });
  });

  test('sendTo: the same next hop (the remote MAC), the IPv4 destination and UDP port the caller names', async () => {
    const port = await switchPort();
    const t = await open({ udpIo, peerPort: port.port, host: AGENT, remote: SWITCH });
    expect(t.sendTo(socketAddress('10.0.3.7', 48897, 'test'), Buffer.from('ack one'))).toBe(true);
    expect(t.sendTo(socketAddress('10.0.3.8', 48898, 'test'), Buffer.from('ack two, cut'), 7)).toBe(true);
    expect(await eventually(() => port.received.length === 2)).toBe(true);
    const parsed = port.received.map((r) => parseUdpFrame(r.msg));
    expect(parsed.map((p) => p.ok && [p.ethernet.srcMac, p.ethernet.dstMac, p.ipv4.srcIp, p.ipv4.dstIp, p.udp.srcPort, p.udp.dstPort])).toEqual([
      [macFromText(AGENT.mac), macFromText(SWITCH.mac), ipv4FromText(AGENT.ip), ipv4FromText('10.0.3.7'), AGENT.udpPort, 48897],
      [macFromText(AGENT.mac), macFromText(SWITCH.mac), ipv4FromText(AGENT.ip), ipv4FromText('10.0.3.8'), AGENT.udpPort, 48898],
    ]);
    expect(port.received.map((r, i) => (parsed[i]!.ok ? r.msg.subarray(parsed[i]!.payloadOffset).toString() : ''))).toEqual(['ack one', 'ack two']);
    // The wire's own destination is unchanged for send().
    t.send(Buffer.from('x'));
    expect(await eventually(() => port.received.length === 3)).toBe(true);
    const third = parseUdpFrame(port.received[2]!.msg);
    expect(third.ok && [third.ipv4.dstIp, third.udp.dstPort]).toEqual([ipv4FromText(SWITCH.ip), SWITCH.udpPort]);
    expect(() => t.sendTo(socketAddress('::1', 9, 'test'), Buffer.from('x'))).toThrow(/IPv4/);
    await t.close();
    expect(t.sendTo(socketAddress('10.0.3.7', 48897, 'test'), Buffer.from('late'))).toBe(false);
    expect(t.counters.sendDrops).toBe(1);
  });

  test('udpChecksum: false sends checksum 0', async () => {
    const port = await switchPort();
    const t = await open({ udpIo, peerPort: port.port, host: AGENT, remote: SWITCH, udpChecksum: false });
    t.send(Buffer.from([1, 2, 3]));
    expect(await eventually(() => port.received.length === 1)).toBe(true);
    const parsed = parseUdpFrame(port.received[0]!.msg);
    expect(parsed.ok && parsed.udp.checksum).toBe(0);
  });

  test('hands the UDP payload of frames for it to the listener; drops and counts everything else', async () => {
    const port = await switchPort();
    const t = await open({ udpIo, peerPort: port.port, host: AGENT, remote: SWITCH });
    const got: string[] = [];
    t.onDatagram((buf, offset, length) => got.push(buf.subarray(offset, offset + length).toString()));
    const good = frameToAgent(Buffer.from('for you'));
    const badChecksum = Buffer.from(good);
    badChecksum[24] ^= 0xff; // IPv4 header checksum
    const notIpv4 = Buffer.from(good);
    notIpv4.writeUInt16BE(0x86dd, 12);
    const sends: Buffer[] = [
      good,
      frameToAgent(Buffer.from('x'), { dstMac: macFromText('02:00:00:00:00:99') }),
      frameToAgent(Buffer.from('x'), { dstIp: ipv4FromText('10.0.0.2') }),
      frameToAgent(Buffer.from('x'), { dstPort: 40002 }),
      notIpv4,
      badChecksum,
      Buffer.alloc(10),
      frameToAgent(Buffer.from('broadcast MAC is accepted'), { dstMac: 0xffffffffffff }),
    ];
    for (const frame of sends) await port.send(frame, t.local.port);
    const stranger = await switchPort();
    await stranger.send(good, t.local.port);
    expect(await eventually(() => t.counters.datagramsIn + t.counters.receiveDrops === sends.length + 1)).toBe(true);
    expect(got).toEqual(['for you', 'broadcast MAC is accepted']);
    expect(t).toMatchObject({ notForUs: 4, malformed: 2, foreign: 1, lastMalformed: 'ETH_TRUNCATED' });
    expect(t.counters).toMatchObject({ datagramsIn: 2, receiveDrops: 7 });
  });

  test('answers ARP requests for its own IP, and only those', async () => {
    const port = await switchPort();
    const t = await open({ udpIo, peerPort: port.port, host: AGENT, remote: SWITCH });
    const request = (targetIp: string): Buffer => {
      const buf = Buffer.alloc(64);
      const arp = { operation: ArpOperation.REQUEST, senderMac: macFromText(SWITCH.mac), senderIp: ipv4FromText(SWITCH.ip), targetMac: 0, targetIp: ipv4FromText(targetIp) } as const;
      return buf.subarray(0, buildArpFrame(buf, 0, arp));
    };
    await port.send(request('10.0.0.7'), t.local.port);
    await port.send(request(AGENT.ip), t.local.port);
    expect(await eventually(() => port.received.length === 1 && t.arpIgnored === 1)).toBe(true);
    const reply = port.received[0]!.msg;
    const eth = parseEthernet(reply);
    if (!eth.ok) throw new Error(eth.message);
    expect(eth).toMatchObject({ etherType: ETHERTYPE_ARP, dstMac: macFromText(SWITCH.mac), srcMac: macFromText(AGENT.mac) });
    expect(parseArp(reply, eth.payloadOffset)).toMatchObject({
      ok: true,
      operation: ArpOperation.REPLY,
      senderMac: macFromText(AGENT.mac),
      senderIp: ipv4FromText(AGENT.ip),
      targetMac: macFromText(SWITCH.mac),
      targetIp: ipv4FromText(SWITCH.ip),
    });
    expect(t).toMatchObject({ arpReplies: 1, arpIgnored: 1 });
  });

  test('two agents wired back to back exchange payloads (peer set after both are bound)', async () => {
    const B = { mac: '02:00:00:00:00:02', ip: '10.0.0.2', udpPort: 40002 };
    const a = await open({ udpIo, host: AGENT, remote: B });
    const b = await open({ udpIo, host: B, remote: AGENT });
    expect(a.send(Buffer.from('early'))).toBe(false); // no peer yet
    a.setPeer('127.0.0.1', b.local.port);
    b.setPeer('127.0.0.1', a.local.port);
    const atB: string[] = [];
    const atA: string[] = [];
    b.onDatagram((buf, o, l) => atB.push(buf.subarray(o, o + l).toString()));
    a.onDatagram((buf, o, l) => atA.push(buf.subarray(o, o + l).toString()));
    for (let i = 0; i < 20; i++) a.send(Buffer.from(`a${i}`));
    b.send(Buffer.from('b0'));
    expect(await eventually(() => atB.length === 20 && atA.length === 1)).toBe(true);
    expect(atB).toEqual(Array.from({ length: 20 }, (_, i) => `a${i}`));
    expect(atA).toEqual(['b0']);
  });

  test('wire ends must be loopback unless allowed; MACs and IPs are checked', async () => {
    await expect(UdpWireTransport.open({ udpIo, localAddress: '10.1.2.3', host: AGENT, remote: SWITCH })).rejects.toMatchObject({ code: 'TRANSPORT_BAD_ADDRESS' });
    await expect(UdpWireTransport.open({ udpIo, peerAddress: '192.0.2.1', peerPort: 9, host: AGENT, remote: SWITCH })).rejects.toMatchObject({ code: 'TRANSPORT_BAD_ADDRESS' });
    await expect(UdpWireTransport.open({ udpIo, host: { ...AGENT, mac: 'zz' }, remote: SWITCH })).rejects.toMatchObject({ code: 'WIRE_BAD_MAC_TEXT' });
    await expect(UdpWireTransport.open({ udpIo, host: AGENT, remote: { ...SWITCH, udpPort: 0 } })).rejects.toMatchObject({ code: 'TRANSPORT_BAD_ADDRESS' });
    await expect(UdpWireTransport.open({ udpIo, host: { ...AGENT, ip: 2 ** 32 }, remote: SWITCH })).rejects.toMatchObject({ code: 'TRANSPORT_BAD_ADDRESS' });
  });
});
