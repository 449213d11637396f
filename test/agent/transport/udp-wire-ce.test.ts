/**
 * CE marks on a UDP wire: the transport parses every frame, so it reports the
 * ones whose IPv4 ECN field is CE (RFC 3168: 0b11) to its CE listener, with
 * the UDP payload, before handing over the datagram itself.
 */
import { expect, test } from 'vitest';
import { UdpWireTransport } from '../../../src/agent/transport/index.js';
import { buildUdpFrame, ipv4FromText, macFromText, type UdpFlow } from '../../../src/wire/index.js';
import { eventually, rawSocket, type RawSocket, closeEverythingAfterEach } from './helpers.js';

const cleanups = closeEverythingAfterEach();

const AGENT = { mac: '02:00:00:00:00:01', ip: '10.0.0.1', udpPort: 40001 };
const SWITCH = { mac: '02:00:00:00:00:fe', ip: '10.0.0.254', udpPort: 0xbf00 };
const IPV4_TOS = 14 + 1;

function frame(payload: string, change: Partial<UdpFlow> = {}): Buffer {
  const buf = Buffer.alloc(200);
  const flow: UdpFlow = {
    srcMac: macFromText(SWITCH.mac),
    dstMac: macFromText(AGENT.mac),
    srcIp: ipv4FromText(SWITCH.ip),
    dstIp: ipv4FromText(AGENT.ip),
    srcPort: SWITCH.udpPort,
    dstPort: AGENT.udpPort,
    ...change,
  };
  return buf.subarray(0, buildUdpFrame(buf, 0, flow, Buffer.from(payload)));
}

async function wire(): Promise<{ t: UdpWireTransport; port: RawSocket; events: string[] }> {
  const port = await rawSocket();
  cleanups.push(() => port.close());
  const t = await UdpWireTransport.open({ peerPort: port.port, host: AGENT, remote: SWITCH });
  cleanups.push(() => t.close());
  const events: string[] = [];
  t.onCeMark((buf, offset, length) => events.push(`mark ${buf.toString('utf8', offset, offset + length)}`));
  t.onDatagram((buf, offset, length) => events.push(`datagram ${buf.toString('utf8', offset, offset + length)}`));
  return { t, port, events };
}

test('a CE frame is reported with its payload before the datagram; ECT and Not-ECT frames are not', async () => {
  const { t, port, events } = await wire();
  const frames = [frame('ce', { ecn: 3 }), frame('ect0', { ecn: 2 }), frame('ect1', { ecn: 1 }), frame('plain'), frame('ce again', { ecn: 3, dscp: 46 })];
  // The field the transport reads is the low two bits of the IPv4 TOS byte, as sent.
  expect(frames.map((f) => f[IPV4_TOS]! & 3)).toEqual([3, 2, 1, 0, 3]);
  for (const f of frames) await port.send(f, t.local.port);
  expect(await eventually(() => t.counters.datagramsIn === 5)).toBe(true);
  expect(events).toEqual(['mark ce', 'datagram ce', 'datagram ect0', 'datagram ect1', 'datagram plain', 'mark ce again', 'datagram ce again']);
  expect(t.ceMarks).toBe(2);
});

test('CE on a frame the wire drops (another port, a bad checksum) is no mark; a throwing CE listener is survived', async () => {
  const { t, port, events } = await wire();
  const corrupt = frame('bad', { ecn: 3 });
  corrupt[corrupt.length - 1] ^= 0xff; // the UDP checksum no longer verifies
  await port.send(frame('elsewhere', { ecn: 3, dstPort: AGENT.udpPort + 1 }), t.local.port);
  await port.send(corrupt, t.local.port);
  t.onCeMark(() => {
    throw new Error('listener bug');
  });
  await port.send(frame('kept', { ecn: 3 }), t.local.port);
  expect(await eventually(() => t.counters.datagramsIn === 1)).toBe(true);
  expect(events).toEqual(['datagram kept']);
  expect(t).toMatchObject({ ceMarks: 1, notForUs: 1, malformed: 1 });
});

test('detached, marks are counted only', async () => {
  const { t, port, events } = await wire();
  t.onCeMark(undefined);
  await port.send(frame('ce', { ecn: 3 }), t.local.port);
  expect(await eventually(() => t.counters.datagramsIn === 1)).toBe(true);
  expect(events).toEqual(['datagram ce']);
  expect(t.ceMarks).toBe(1);
});
