/**
 * The batched UDP addon over loopback, checked against what was sent and
 * against Node's own dgram sockets as an independent receiver and sender.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchedUdpSocket, type BatchedUdpSocketOptions, type UdpErrnoError, type UdpSource } from '../../../src/net/udp-batch/batched-udp-socket.js';
import { loadUdpBatchAddon } from '../../../src/net/udp-batch/load-udp-batch-addon.js';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { waitFor } from '../../switch/ports/frames.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((c) => c()));
});

interface Opened {
  readonly socket: BatchedUdpSocket;
  readonly got: Buffer[];
  readonly sources: UdpSource[];
  readonly errors: UdpErrnoError[];
}

function open(extra: Partial<BatchedUdpSocketOptions> = {}): Opened {
  const got: Buffer[] = [];
  const sources: UdpSource[] = [];
  const errors: UdpErrnoError[] = [];
  const socket = BatchedUdpSocket.open(
    { family: 4, address: '127.0.0.1', port: 0, ...extra },
    (datagram, source) => {
      got.push(Buffer.from(datagram));
      sources.push(source);
    },
    (error) => errors.push(error),
  );
  cleanups.push(() => socket.close());
  return { socket, got, sources, errors };
}

async function nodeSocket(): Promise<{ socket: Socket; port: number; got: Buffer[] }> {
  const socket = createSocket('udp4');
  const got: Buffer[] = [];
  socket.on('message', (m) => got.push(m));
  cleanups.push(() => new Promise<void>((r) => socket.close(() => r())));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return { socket, port: socket.address().port, got };
}

/** Same datagrams, same order (deep equality on many Buffers is slow). */
function expectSame(got: Buffer[], sent: Buffer[]): void {
  expect(got.map((d) => d.length)).toEqual(sent.map((d) => d.length));
  expect(Buffer.concat(got).equals(Buffer.concat(sent))).toBe(true);
}

/** Datagrams of mixed lengths, in runs of equal length (what GSO coalesces), each with a distinct fill. */
function datagrams(count: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const length = i % 37 === 36 ? 20 + (i % 5) : 100 + 1000 * (Math.floor(i / 37) % 2);
    const d = Buffer.alloc(length, i & 0xff);
    d.writeUInt32BE(i, 0);
    out.push(d);
  }
  return out;
}

describe('BatchedUdpSocket', () => {
  for (const gso of [true, false]) {
    it(`delivers a batch in order with exact bytes, GSO ${gso ? 'on' : 'off'}, to a GRO receiver`, async () => {
      const rx = open();
      const tx = open({ gso });
      tx.socket.connect('127.0.0.1', rx.socket.localPort);
      const sent = datagrams(300);
      const result = tx.socket.send(sent);
      expect(result).toEqual({ sent: 300, sentBytes: sent.reduce((n, d) => n + d.length, 0), error: null });
      await waitFor(() => rx.got.length === 300);
      expectSame(rx.got, sent);
      expect(new Set(rx.sources.map((s) => `${s.address}:${s.port}`))).toEqual(new Set([`127.0.0.1:${tx.socket.localPort}`]));
      const out = tx.socket.statistics();
      const inStats = rx.socket.statistics();
      expect(out.sentDatagrams).toBe(300);
      expect(inStats.receivedDatagrams).toBe(300);
      if (gso) {
        expect(out.gsoMessages).toBeGreaterThan(0);
        expect(out.sentMessages).toBeLessThan(300);
        // On loopback the coalesced message reaches the GRO socket whole, and is split again here.
        if (inStats.gro) expect(inStats.groMessages).toBeGreaterThan(0);
      } else {
        expect(out).toMatchObject({ gsoMessages: 0, sentMessages: 300 });
        expect(inStats.groMessages).toBe(0);
      }
    });
  }

  it('GSO-sent datagrams reach a plain dgram socket and a socket without GRO as separate datagrams', async () => {
    const plain = await nodeSocket();
    const noGro = open({ gro: false });
    const tx = open();
    const sent = datagrams(120);
    expect(tx.socket.sendTo(sent, '127.0.0.1', plain.port).sent).toBe(120);
    expect(tx.socket.sendTo(sent, '127.0.0.1', noGro.socket.localPort).sent).toBe(120);
    await waitFor(() => plain.got.length === 120 && noGro.got.length === 120);
    expectSame(plain.got, sent);
    expectSame(noGro.got, sent);
    expect(noGro.socket.statistics().groMessages).toBe(0);
    expect(tx.socket.statistics().gsoMessages).toBeGreaterThan(0);
  });

  it('tells senders apart on an unbound-peer socket, and a connected socket never sees strangers', async () => {
    const rx = open();
    const a = open();
    const b = await nodeSocket();
    a.socket.sendTo([Buffer.from('a1'), Buffer.from('a2')], '127.0.0.1', rx.socket.localPort);
    await new Promise<void>((r, j) => b.socket.send(Buffer.from('b1'), rx.socket.localPort, '127.0.0.1', (e) => (e ? j(e) : r())));
    a.socket.sendTo([Buffer.from('a3')], '127.0.0.1', rx.socket.localPort);
    await waitFor(() => rx.got.length === 4);
    expect(rx.got.map(String)).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(rx.sources.map((s) => s.port)).toEqual([a.socket.localPort, a.socket.localPort, b.port, a.socket.localPort]);

    // Connected to `a`: b's datagram is dropped by the kernel, a's arrive.
    rx.socket.connect('127.0.0.1', a.socket.localPort);
    await new Promise<void>((r, j) => b.socket.send(Buffer.from('b2'), rx.socket.localPort, '127.0.0.1', (e) => (e ? j(e) : r())));
    a.socket.sendTo([Buffer.from('a4')], '127.0.0.1', rx.socket.localPort);
    await waitFor(() => rx.got.length === 5);
    expect(rx.got.map(String).slice(4)).toEqual(['a4']);
    // Reconnecting elsewhere keeps the local port, even one the system chose.
    rx.socket.connect('127.0.0.1', b.port);
    await new Promise<void>((r, j) => b.socket.send(Buffer.from('b3'), rx.socket.localPort, '127.0.0.1', (e) => (e ? j(e) : r())));
    await waitFor(() => rx.got.length === 6);
    expect(String(rx.got[5])).toBe('b3');
    expect(rx.sources[5]).toEqual({ address: '127.0.0.1', port: b.port });
  });

  it('disconnects a socket bound to a given port, which then hears anyone again', async () => {
    const [port] = await testUdpPorts(1);
    const rx = open({ port: port! });
    expect(rx.socket.localPort).toBe(port);
    const b = await nodeSocket();
    rx.socket.connect('127.0.0.1', 9);
    rx.socket.disconnect();
    await new Promise<void>((r, j) => b.socket.send(Buffer.from('b'), port!, '127.0.0.1', (e) => (e ? j(e) : r())));
    await waitFor(() => rx.got.length === 1);
    expect(rx.sources[0]).toEqual({ address: '127.0.0.1', port: b.port });
  });

  it('reports ECONNREFUSED once the peer port is closed', async () => {
    const gone = await nodeSocket();
    await new Promise<void>((r) => gone.socket.close(() => r()));
    cleanups.pop();
    const tx = open();
    tx.socket.connect('127.0.0.1', gone.port);
    const refusals: string[] = [];
    await waitFor(() => {
      const result = tx.socket.send([Buffer.from('x')]);
      if (result.error) refusals.push(result.error.code);
      return refusals.length > 0 || tx.errors.length > 0;
    });
    expect([...refusals, ...tx.errors.map((e) => e.code)]).toContain('ECONNREFUSED');
    expect(tx.errors.every((e) => e.code === 'ECONNREFUSED')).toBe(true);
  });

  it('works over IPv6 loopback', async (ctx) => {
    let rx: Opened;
    try {
      rx = open({ family: 6, address: '::1' });
    } catch (err) {
      console.log(`skipping the IPv6 check: ::1 cannot be bound here (${(err as Error).message})`);
      ctx.skip();
      return;
    }
    const tx = open({ family: 6, address: '::1' });
    tx.socket.connect('::1', rx.socket.localPort);
    const sent = datagrams(80);
    expect(tx.socket.send(sent).sent).toBe(80);
    await waitFor(() => rx.got.length === 80);
    expectSame(rx.got, sent);
    expect(rx.sources[0]).toEqual({ address: '::1', port: tx.socket.localPort });
  });

  it('closes idempotently; use after close throws EBADF; a port in use throws EADDRINUSE', () => {
    const a = open();
    expect(() => open({ port: a.socket.localPort })).toThrow(expect.objectContaining({ code: 'EADDRINUSE', syscall: 'bind' }));
    a.socket.close();
    a.socket.close();
    expect(a.socket.closed).toBe(true);
    expect(() => a.socket.send([Buffer.from('x')])).toThrow(expect.objectContaining({ code: 'EBADF' }));
    expect(() => a.socket.connect('127.0.0.1', 9)).toThrow(expect.objectContaining({ code: 'EBADF' }));
    expect(a.socket.statistics().sentDatagrams).toBe(0);
  });

  it('refuses bad arguments with TypeError/RangeError and stays usable', async () => {
    const { UdpBatchSocket } = loadUdpBatchAddon();
    const noop = (): void => {};
    expect(() => new UdpBatchSocket(5 as 4, noop, noop)).toThrow(RangeError);
    expect(() => new UdpBatchSocket(4, noop, noop, { batchSize: 0 })).toThrow(RangeError);
    expect(() => new UdpBatchSocket(4, noop, noop, { gso: 'yes' as unknown as boolean })).toThrow(TypeError);
    expect(() => Reflect.apply(UdpBatchSocket, undefined, [4, noop, noop])).toThrow(TypeError);
    const rx = open();
    const tx = open();
    expect(() => tx.socket.send('nope' as unknown as Buffer[])).toThrow(TypeError);
    expect(() => tx.socket.send([Buffer.from('ok'), 'x' as unknown as Buffer])).toThrow(TypeError);
    expect(() => tx.socket.sendTo([Buffer.from('x')], 'localhost', rx.socket.localPort)).toThrow(TypeError);
    expect(() => tx.socket.sendTo([Buffer.from('x')], '127.0.0.1', 70000)).toThrow(RangeError);
    expect(() => tx.socket.connect('::1', 9)).toThrow(TypeError);
    // A datagram too long for UDP is refused (EMSGSIZE) and the others go out.
    const result = tx.socket.sendTo([Buffer.from('a'), Buffer.alloc(70_000), Buffer.from('b')], '127.0.0.1', rx.socket.localPort);
    expect(result).toMatchObject({ sent: 2, sentBytes: 2, error: expect.objectContaining({ code: 'EMSGSIZE' }) });
    await waitFor(() => rx.got.length === 2);
    expect(rx.got.map(String)).toEqual(['a', 'b']);
  });
});
