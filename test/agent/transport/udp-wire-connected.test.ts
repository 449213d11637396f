/**
 * The UDP wire transport on a local port given explicitly: the socket is
 * connected to its peer (dgram: sends take its synchronous path, no callback;
 * batched: sends name no address),
 * the kernel keeps strangers out, and setPeer falls back to addressed sends.
 */
import { createSocket, Socket } from 'node:dgram';
import { describe, expect, test, vi } from 'vitest';
import { UdpWireTransport, type UdpIo } from '../../../src/agent/transport/index.js';
import { buildUdpFrame, ipv4FromText, macFromText, parseUdpFrame } from '../../../src/wire/index.js';
import { eventually, rawSocket, type RawSocket, UDP_IOS, closeEverythingAfterEach } from './helpers.js';

const cleanups = closeEverythingAfterEach();

const AGENT = { mac: '02:00:00:00:00:01', ip: '10.0.0.1', udpPort: 40001 };
const SWITCH = { mac: '02:00:00:00:00:fe', ip: '10.0.0.254', udpPort: 0xbee0 };

/** A port that was free a moment ago (bound, read, closed). */
async function freePort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
  const port = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function far(): Promise<RawSocket> {
  const s = await rawSocket();
  cleanups.push(() => s.close());
  return s;
}

async function connectedWire(udpIo: UdpIo, peerPort: number, sendQueueLimit?: number): Promise<UdpWireTransport> {
  const t = await UdpWireTransport.open({ udpIo, localPort: await freePort(), peerPort, host: AGENT, remote: SWITCH, sendQueueLimit });
  cleanups.push(() => t.close());
  return t;
}

function toAgent(tag: number): Buffer {
  const buf = Buffer.alloc(200);
  const flow = {
    srcMac: macFromText(SWITCH.mac),
    dstMac: macFromText(AGENT.mac),
    srcIp: ipv4FromText(SWITCH.ip),
    dstIp: ipv4FromText(AGENT.ip),
    srcPort: SWITCH.udpPort,
    dstPort: AGENT.udpPort,
    udpChecksum: true,
  };
  return buf.subarray(0, buildUdpFrame(buf, 0, flow, Buffer.from([tag])));
}

const payloadOf = (msg: Buffer): number => {
  const udp = parseUdpFrame(msg);
  if (!udp.ok) throw new Error(`not a UDP frame: ${udp.code}`);
  return msg[udp.payloadOffset]!;
};

describe.each(UDP_IOS)('UDP wire transport, connected to its peer (%s)', (udpIo) => {
  test('sends in order and counts each send; only the peer reaches it', async () => {
    const port = await far();
    const t = await connectedWire(udpIo, port.port);
    const got: number[] = [];
    t.onDatagram((buf, offset) => got.push(buf[offset]!));
    const payload = Buffer.alloc(1);
    for (let i = 0; i < 50; i++) {
      payload[0] = i; // the same buffer, rewritten at once: the transport copied it
      expect(t.send(payload)).toBe(true);
    }
    expect(await eventually(() => port.received.length === 50)).toBe(true);
    expect(t.counters).toMatchObject({ datagramsOut: 50, sendDrops: 0 });
    expect(port.received.map((r) => payloadOf(r.msg))).toEqual([...Array(50).keys()]);

    // The stranger's datagram goes out first: had the kernel let it through,
    // it would sit in the socket's queue ahead of the peer's, and reach the
    // transport (as 7, or as a counted foreign datagram) before 8 does. So
    // once 8 has arrived, no sleep is needed to know 7 never will.
    const stranger = await far();
    await stranger.send(toAgent(7), t.local.port);
    await port.send(toAgent(8), t.local.port);
    expect(await eventually(() => got.includes(8))).toBe(true);
    expect(got).toEqual([8]);
    expect(t.foreign).toBe(0); // the kernel dropped the stranger's datagram
  });

  // Batched sends never wait in user space beyond one flush (batched-agent-socket.test.ts).
  test.runIf(udpIo === 'dgram')('drops (counted) when libuv already queues sendQueueLimit sends the kernel has not taken', async () => {
    const port = await far();
    const t = await connectedWire(udpIo, port.port, 2);
    const queued = vi.spyOn(Socket.prototype, 'getSendQueueCount').mockReturnValue(2);
    expect(t.send(Buffer.from([1]))).toBe(false);
    expect(t.counters).toMatchObject({ datagramsOut: 0, sendDrops: 1 });
    queued.mockReturnValue(1); // below the limit, and this send is queued too: its buffer stays with libuv
    expect(t.send(Buffer.from([2]))).toBe(true);
    queued.mockRestore();
    expect(t.send(Buffer.from([3]))).toBe(true);
    expect(await eventually(() => port.received.length === 2)).toBe(true);
    expect(port.received.map((r) => payloadOf(r.msg))).toEqual([2, 3]);
  });

  test('setPeer to another socket keeps the local port and sends there', async () => {
    const first = await far();
    const second = await far();
    const t = await connectedWire(udpIo, first.port);
    const localPort = t.local.port;
    t.send(Buffer.from([1]));
    t.setPeer('127.0.0.1', second.port);
    t.send(Buffer.from([2]));
    expect(await eventually(() => first.received.length === 1 && second.received.length === 1)).toBe(true);
    expect(payloadOf(second.received[0]!.msg)).toBe(2);
    expect(second.received[0]!.rinfo.port).toBe(localPort);
    expect(t.local.port).toBe(localPort);
  });
});
