import { describe, expect, test } from 'vitest';
import { KernelUdpTransport } from '../../../src/agent/transport/index.js';
import { eventually, rawSocket, UDP_IOS, type RawSocket, closeEverythingAfterEach } from './helpers.js';

const cleanups = closeEverythingAfterEach();

async function far(): Promise<RawSocket> {
  const s = await rawSocket();
  cleanups.push(() => s.close());
  return s;
}

async function open(options: Parameters<typeof KernelUdpTransport.open>[0]): Promise<KernelUdpTransport> {
  const t = await KernelUdpTransport.open(options);
  cleanups.push(() => t.close());
  return t;
}

describe.each(UDP_IOS)('kernel UDP transport (%s)', (udpIo) => {
  test('sends to the remote from its bound port, copying the payload; receives from anyone', async () => {
    const switchSocket = await far();
    const t = await open({ udpIo, localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: switchSocket.port });
    expect(t.local.port).toBeGreaterThan(0);
    expect(t.name).toBe(`udp 127.0.0.1:${t.local.port} -> 127.0.0.1:${switchSocket.port}`);
    const buf = Buffer.alloc(8);
    for (let i = 0; i < 50; i++) {
      buf.fill(i);
      expect(t.send(buf, 1 + (i % 8))).toBe(true);
    }
    expect(await eventually(() => switchSocket.received.length === 50)).toBe(true);
    switchSocket.received.forEach(({ msg, rinfo }, i) => {
      expect([...msg]).toEqual(new Array(1 + (i % 8)).fill(i));
      expect(rinfo.port).toBe(t.local.port);
    });
    expect(t.counters).toMatchObject({ datagramsOut: 50, sendDrops: 0 });

    const got: number[][] = [];
    t.onDatagram((b, offset, length) => got.push([...b.subarray(offset, offset + length)]));
    await switchSocket.send(Buffer.from([1, 2]), t.local.port);
    const stranger = await far();
    await stranger.send(Buffer.from([3]), t.local.port);
    expect(await eventually(() => got.length === 2)).toBe(true);
    expect(got).toContainEqual([1, 2]);
    expect(got).toContainEqual([3]);
    expect(t.counters).toMatchObject({ datagramsIn: 2, bytesIn: 3 });
  });

  test('a burst beyond sendQueueLimit: dgram drops and counts it; batched flushes each full queue at once', async () => {
    const switchSocket = await far();
    const t = await open({ udpIo, localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: switchSocket.port, sendQueueLimit: 1 });
    const results = Array.from({ length: 20 }, (_, i) => t.send(Buffer.alloc(4, i)));
    const sent = udpIo === 'batched' ? 20 : 1;
    expect(results.filter((r) => r).length).toBe(sent);
    expect(results[0]).toBe(true);
    expect(t.counters.sendDrops).toBe(20 - sent);
    expect(await eventually(() => t.counters.datagramsOut === sent && switchSocket.received.length === sent)).toBe(true);
    expect(switchSocket.received.map(({ msg }) => msg[0])).toEqual([...Array(sent).keys()]);
    expect(t.send(Buffer.alloc(4))).toBe(true); // the buffer came back
  });

  test('bad addresses and a port in use are typed errors; oversized payloads are RangeErrors', async () => {
    await expect(KernelUdpTransport.open({ udpIo, localAddress: 'localhost', remoteAddress: '127.0.0.1', remotePort: 9 })).rejects.toMatchObject({ code: 'TRANSPORT_BAD_ADDRESS' });
    await expect(KernelUdpTransport.open({ udpIo, localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: 0 })).rejects.toMatchObject({ code: 'TRANSPORT_BAD_ADDRESS' });
    await expect(KernelUdpTransport.open({ udpIo, localAddress: '::1', remoteAddress: '127.0.0.1', remotePort: 9 })).rejects.toMatchObject({ code: 'TRANSPORT_BAD_ADDRESS' });
    const taken = await far();
    await expect(KernelUdpTransport.open({ udpIo, localAddress: '127.0.0.1', localPort: taken.port, remoteAddress: '127.0.0.1', remotePort: 9 })).rejects.toMatchObject({
      code: 'TRANSPORT_BIND_FAILED',
      message: expect.stringMatching(/in use/),
    });
    const t = await open({ udpIo, localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: taken.port, maxPayload: 100 });
    expect(() => t.send(Buffer.alloc(101))).toThrow(RangeError);
  });

  test('close is idempotent; sends afterwards are dropped', async () => {
    const switchSocket = await far();
    const t = await KernelUdpTransport.open({ udpIo, localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: switchSocket.port });
    await t.close();
    await t.close();
    expect(t.closed).toBe(true);
    expect(t.send(Buffer.alloc(1))).toBe(false);
    expect(t.counters.sendDrops).toBe(1);
  });
});
