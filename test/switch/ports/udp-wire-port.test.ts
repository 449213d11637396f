import { createSocket, Socket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { BatchedUdpSocket } from '../../../src/net/udp-batch/batched-udp-socket.js';
import { UdpWirePort, type UdpWireIo, type UdpWireOptions } from '../../../src/switch/ports/udp-wire-port.js';
import { collect, frame, tagOf, waitFor } from './frames.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.allSettled(cleanups.splice(0).map((c) => c()));
});

for (const udpIo of ['batched', 'dgram'] as const satisfies readonly UdpWireIo[]) {
  const open = (options: UdpWireOptions): Promise<UdpWirePort> => UdpWirePort.open({ ...options, udpIo });

  /** Two UDP wire ports on ephemeral loopback ports, pointed at each other. */
  async function pair(extra: { sendQueueLimit?: number } = {}): Promise<[UdpWirePort, UdpWirePort]> {
    const a = await open({ number: 1, localAddress: '127.0.0.1', localPort: 0, peerAddress: '127.0.0.1', peerPort: 9, ...extra });
    cleanups.push(() => a.close());
    const b = await open({ number: 2, localAddress: '127.0.0.1', localPort: 0, peerAddress: '127.0.0.1', peerPort: a.localPort, ...extra });
    cleanups.push(() => b.close());
    a.setPeer('127.0.0.1', b.localPort);
    return [a, b];
  }

  async function stranger(): Promise<Socket> {
    const s = createSocket('udp4');
    cleanups.push(() => new Promise<void>((r) => s.close(() => r())));
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
    return s;
  }

  function sendFrom(s: Socket, data: Buffer, port: number): Promise<void> {
    return new Promise((resolve, reject) => s.send(data, port, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
  }

  describe(`UDP wire port on ${udpIo}`, () => {
    it('exchanges frames with its peer, one frame per datagram, and counts them', async () => {
      const [a, b] = await pair();
      const atA = collect(a);
      const atB = collect(b);
      for (let i = 0; i < 20; i++) expect(a.send(frame(i))).toBe(true);
      b.send(frame(100, 1500));
      await waitFor(() => atB.length === 20 && atA.length === 1);
      expect(atB.map(tagOf)).toEqual([...Array(20).keys()]);
      expect(atA[0]).toHaveLength(1500);
      expect(tagOf(atA[0]!)).toBe(100);
      await waitFor(() => a.counters.framesOut === 20);
      expect(a.counters).toMatchObject({ framesOut: 20, bytesOut: 1200, framesIn: 1, bytesIn: 1500, drops: 0, malformed: 0 });
      expect(b.counters).toMatchObject({ framesIn: 20, bytesIn: 1200 });
      expect(a.name).toBe(`udp-127.0.0.1-${a.localPort}`);
      expect(a.peer).toEqual({ address: '127.0.0.1', port: b.localPort });
    });

    it('drops and counts datagrams from anyone but the peer, and short frames as malformed', async () => {
      const [a, b] = await pair();
      const atB = collect(b);
      const s = await stranger();
      await sendFrom(s, frame(666), b.localPort);
      a.send(Buffer.alloc(10)); // shorter than an Ethernet header
      a.send(frame(1));
      await waitFor(() => atB.length === 1 && b.foreign === 1 && b.counters.malformed === 1);
      expect(atB.map(tagOf)).toEqual([1]);
      expect(b.counters).toMatchObject({ framesIn: 1, drops: 1, malformed: 1 });
      expect(a.connectedToPeer).toBe(false); // ephemeral ports are never connected
    });

    it('connects a wire with a given port to its peer: strangers never reach it', async () => {
      const [pa, pb, pc] = await testUdpPorts(3);
      const a = await open({ number: 1, localAddress: '127.0.0.1', localPort: pa!, peerAddress: '127.0.0.1', peerPort: pb! });
      cleanups.push(() => a.close());
      const b = await open({ number: 2, localAddress: '127.0.0.1', localPort: pb!, peerAddress: '127.0.0.1', peerPort: pa! });
      cleanups.push(() => b.close());
      const atB = collect(b);
      await waitFor(() => a.connectedToPeer && b.connectedToPeer);
      const s = await stranger();
      await sendFrom(s, frame(666), pb!);
      a.send(Buffer.alloc(10));
      a.send(frame(1));
      await waitFor(() => atB.length === 1 && b.counters.malformed === 1);
      expect(atB.map(tagOf)).toEqual([1]);
      // The connected socket's kernel filter drops the stranger before the port sees it.
      expect(b.foreign).toBe(0);
      expect(b.counters).toMatchObject({ framesIn: 1, drops: 0, malformed: 1 });
      expect(a.counters).toMatchObject({ framesOut: 2, bytesOut: 70 });

      // A new peer: the port keeps its number and sends at once, while reconnecting and after.
      const c = await open({ number: 3, localAddress: '127.0.0.1', localPort: pc!, peerAddress: '127.0.0.1', peerPort: pa! });
      cleanups.push(() => c.close());
      const atC = collect(c);
      a.setPeer('127.0.0.1', pc!);
      a.send(frame(2));
      await waitFor(() => atC.length === 1 && a.connectedToPeer);
      a.send(frame(3));
      await waitFor(() => atC.length === 2);
      expect(atC.map(tagOf)).toEqual([2, 3]);
      expect(atB).toHaveLength(1);
      expect(a.localPort).toBe(pa);
      const atA = collect(a);
      c.send(frame(4));
      await waitFor(() => atA.length === 1);
      expect(tagOf(atA[0]!)).toBe(4);
    });

    it.runIf(udpIo === 'dgram')('bounds the queue of sends the kernel has not taken, and drops (counted) beyond it', async () => {
      const [a, b] = await pair({ sendQueueLimit: 2 });
      const atB = collect(b);
      // On loopback the kernel takes every datagram at once; pretend its buffer is full.
      const queued = vi.spyOn(Socket.prototype, 'getSendQueueCount');
      queued.mockReturnValueOnce(0).mockReturnValueOnce(1).mockReturnValueOnce(2).mockReturnValueOnce(5);
      const accepted = [0, 1, 2, 3].map((i) => a.send(frame(i)));
      expect(accepted).toEqual([true, true, false, false]);
      expect(a.counters).toMatchObject({ framesOut: 2, bytesOut: 120, drops: 2 });
      queued.mockRestore();
      expect(a.send(frame(9))).toBe(true);
      await waitFor(() => atB.length === 3);
      expect(atB.map(tagOf)).toEqual([0, 1, 9]);
    });

    it.runIf(udpIo === 'batched')('sends a batch in one call per microtask, a full queue at once, and counts what a full socket buffer drops', async () => {
      const [a, b] = await pair({ sendQueueLimit: 3 });
      const atB = collect(b);
      const sendTo = BatchedUdpSocket.prototype.sendTo;
      const batches: number[] = []; // the port reuses its queue array: note the sizes as they go
      const send = vi.spyOn(BatchedUdpSocket.prototype, 'sendTo').mockImplementation(function (this: BatchedUdpSocket, frames, address, port) {
        batches.push(frames.length);
        return sendTo.call(this, frames, address, port);
      });
      for (let i = 0; i < 5; i++) expect(a.send(frame(i))).toBe(true);
      expect(batches).toEqual([3]); // a full queue goes at once
      await Promise.resolve();
      expect(batches).toEqual([3, 2]); // the rest, by the microtask
      expect(a.counters).toMatchObject({ framesOut: 5, bytesOut: 300, drops: 0 });
      await waitFor(() => atB.length === 5);
      expect(atB.map(tagOf)).toEqual([0, 1, 2, 3, 4]);

      // On loopback the kernel's buffer never fills; pretend it took 1 of 3.
      const full = Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
      send.mockReturnValueOnce({ sent: 1, sentBytes: 60, error: full });
      for (let i = 10; i < 13; i++) a.send(frame(i));
      expect(a.counters).toMatchObject({ framesOut: 6, bytesOut: 360, drops: 2 });
      expect(a.sendErrors).toBe(0);
    });

    it('frees its UDP port on close and drops afterwards', async () => {
      const [a] = await pair();
      const port = a.localPort;
      await a.close();
      await a.close();
      expect(a.closed).toBe(true);
      expect(a.send(frame(1))).toBe(false);
      const again = await open({ number: 1, localAddress: '127.0.0.1', localPort: port, peerAddress: '127.0.0.1', peerPort: 9 });
      cleanups.push(() => again.close());
      expect(again.localPort).toBe(port);
    });

    it('refuses a port already bound, and non-loopback peers unless allowed', async () => {
      const [a] = await pair();
      await expect(open({ number: 3, localAddress: '127.0.0.1', localPort: a.localPort, peerAddress: '127.0.0.1', peerPort: 9 })).rejects.toMatchObject({
        code: 'PORT_BIND_FAILED',
      });
      await expect(open({ number: 3, localAddress: '127.0.0.1', localPort: 0, peerAddress: '8.8.8.8', peerPort: 53 })).rejects.toMatchObject({
        code: 'PORT_NOT_LOOPBACK',
      });
      expect(() => a.setPeer('10.1.1.1', 9)).toThrow(expect.objectContaining({ code: 'PORT_NOT_LOOPBACK' }));
      await expect(open({ number: 511, localAddress: '127.0.0.1', localPort: 0, peerAddress: '127.0.0.1', peerPort: 9 })).rejects.toMatchObject({
        code: 'PORT_DROP_PORT',
      });
    });

    it('counts sends refused by a closed peer port in sendErrors and drops', async () => {
      const [pa, pb] = await testUdpPorts(2);
      const a = await open({ number: 1, localAddress: '127.0.0.1', localPort: pa!, peerAddress: '127.0.0.1', peerPort: pb! });
      cleanups.push(() => a.close());
      await waitFor(() => a.connectedToPeer);
      // Nothing listens on pb: each datagram draws an ICMP port unreachable, reported on a later call.
      await waitFor(() => {
        a.send(frame(1));
        return a.sendErrors > 0;
      });
      expect(a.counters.drops).toBeGreaterThanOrEqual(a.sendErrors);
      expect(a.udpIo).toBe(udpIo);
    });

    it('works over IPv6 loopback', async (ctx) => {
      let a: UdpWirePort;
      try {
        a = await open({ number: 1, localAddress: '::1', localPort: 0, peerAddress: '::1', peerPort: 9 });
      } catch (err) {
        console.log(`skipping the IPv6 check: ::1 cannot be bound here (${(err as Error).message})`);
        ctx.skip();
        return;
      }
      cleanups.push(() => a.close());
      const b = await open({ number: 2, localAddress: '[::1]', localPort: 0, peerAddress: '0:0:0:0:0:0:0:1', peerPort: a.localPort });
      cleanups.push(() => b.close());
      a.setPeer('::1', b.localPort);
      const atB = collect(b);
      a.send(frame(5));
      await waitFor(() => atB.length === 1);
      expect(tagOf(atB[0]!)).toBe(5);
    });
  });
}
