/**
 * The batched socket under the agent transports: sends made in one tick leave
 * in one send call per run of frames to the same destination, in order and
 * byte for byte; a full queue is flushed at once; what the kernel refuses is
 * counted as dropped (a scripted addon stands in for a full socket buffer,
 * which loopback does not produce on demand).
 */
import { describe, expect, test, vi } from 'vitest';
import { KernelUdpAddressedTransport, KernelUdpTransport, socketAddress } from '../../../src/agent/transport/index.js';
import { BatchedAgentSocket } from '../../../src/agent/transport/batched-agent-socket.js';
import { MutableTransportCounters } from '../../../src/agent/transport/datagram-transport.js';
import { BatchedUdpSocket } from '../../../src/net/udp-batch/batched-udp-socket.js';
import type { NativeSendResult, NativeUdpBatchModule, NativeUdpBatchSocket } from '../../../src/net/udp-batch/native-udp-batch.js';
import { eventually, rawSocket, type RawSocket, closeEverythingAfterEach } from './helpers.js';

const cleanups = closeEverythingAfterEach();

async function far(): Promise<RawSocket> {
  const s = await rawSocket(4 * 1024 * 1024);
  cleanups.push(() => s.close());
  return s;
}

/** Records the frames and port of every sendTo as it happens (the socket reuses its queue array afterwards). */
function spySendTo(): [number, number][] {
  const calls: [number, number][] = [];
  const original = BatchedUdpSocket.prototype.sendTo;
  vi.spyOn(BatchedUdpSocket.prototype, 'sendTo').mockImplementation(function (this: BatchedUdpSocket, frames, address, port) {
    calls.push([frames.length, port]);
    return original.call(this, frames, address, port);
  });
  return calls;
}

/** Payload `i` of a burst: lengths vary (runs of equal length too, which leave as GSO messages), bytes name `i`. */
function payload(i: number): Buffer {
  const length = i < 100 ? 64 : 8 + (i % 50);
  const buf = Buffer.alloc(length, i & 0xff);
  buf.writeUInt16BE(i, 0);
  return buf;
}

describe('batched agent socket', () => {
  test('a burst sent in one tick leaves in one send call per destination run, in order, byte for byte', async () => {
    const a = await far();
    const b = await far();
    const t = await KernelUdpAddressedTransport.open({ udpIo: 'batched', localAddress: '127.0.0.1', localPort: 0 });
    cleanups.push(() => t.close());
    const calls = spySendTo();
    const toA = socketAddress('127.0.0.1', a.port, 'a');
    const toB = socketAddress('127.0.0.1', b.port, 'b');
    // 150 to a, 50 to b, 100 to a: three runs.
    const destinationOf = (i: number): 'a' | 'b' => (i >= 150 && i < 200 ? 'b' : 'a');
    for (let i = 0; i < 300; i++) expect(t.sendTo(destinationOf(i) === 'a' ? toA : { ...toB }, payload(i))).toBe(true);
    expect(calls).toEqual([]); // queued until the microtask
    await Promise.resolve();
    expect(calls).toEqual([
      [150, a.port],
      [50, b.port],
      [100, a.port],
    ]);
    expect(await eventually(() => a.received.length === 250 && b.received.length === 50)).toBe(true);
    const expected = (where: 'a' | 'b'): Buffer[] => [...Array(300).keys()].filter((i) => destinationOf(i) === where).map(payload);
    expect(a.received.map((r) => r.msg)).toEqual(expected('a'));
    expect(b.received.map((r) => r.msg)).toEqual(expected('b'));
    const bytes = [...Array(300).keys()].reduce((sum, i) => sum + payload(i).length, 0);
    expect(t.counters).toMatchObject({ datagramsOut: 300, bytesOut: bytes, sendDrops: 0 });
  });

  test('a full queue is flushed at once, the rest by the microtask', async () => {
    const far1 = await far();
    const t = await KernelUdpTransport.open({ udpIo: 'batched', localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: far1.port, sendQueueLimit: 100 });
    cleanups.push(() => t.close());
    const calls = spySendTo();
    for (let i = 0; i < 250; i++) expect(t.send(payload(i))).toBe(true);
    expect(calls.map(([frames]) => frames)).toEqual([100, 100]);
    await Promise.resolve();
    expect(calls.map(([frames]) => frames)).toEqual([100, 100, 50]);
    expect(await eventually(() => far1.received.length === 250)).toBe(true);
    expect(far1.received.map((r) => r.msg)).toEqual([...Array(250).keys()].map(payload));
  });

  test('frames sent before close still leave; sends after it are dropped and counted', async () => {
    const far1 = await far();
    const t = await KernelUdpTransport.open({ udpIo: 'batched', localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: far1.port });
    t.send(payload(1));
    await t.close();
    expect(t.send(payload(2))).toBe(false);
    expect(await eventually(() => far1.received.length === 1)).toBe(true);
    expect(far1.received[0]!.msg).toEqual(payload(1));
    expect(t.counters).toMatchObject({ datagramsOut: 1, sendDrops: 1 });
  });
});

/** An addon whose sends return what the test scripts, recording the frames (copied, as the kernel would). */
function scriptedAddon(results: ((frames: readonly Buffer[]) => NativeSendResult)[]): { addon: NativeUdpBatchModule; sent: Buffer[][] } {
  const sent: Buffer[][] = [];
  const next = (frames: readonly Buffer[]): NativeSendResult => {
    sent.push(frames.map((f) => Buffer.from(f)));
    const result = results.shift();
    if (result === undefined) throw new Error('no scripted result left');
    return result(frames);
  };
  class ScriptedSocket implements Partial<NativeUdpBatchSocket> {
    readonly receiveBufferBytes = 0;
    readonly sendBufferBytes = 0;
    readonly gro = false;
    bind = (): number => 40000;
    connect = (): void => {};
    disconnect = (): void => {};
    send = next;
    sendTo = next;
    close = (): void => {};
  }
  return { addon: { UdpBatchSocket: ScriptedSocket as unknown as NativeUdpBatchModule['UdpBatchSocket'] }, sent };
}

function errno(code: string): Error & { code: string } {
  return Object.assign(new Error(`${code} (scripted)`), { code });
}

describe('batched agent socket: drops', () => {
  test('datagrams the kernel did not take are counted as send drops, and every buffer is reused', async () => {
    const { addon, sent } = scriptedAddon([
      (frames) => ({ sent: 3, sentBytes: frames.slice(0, 3).reduce((n, f) => n + f.length, 0), error: errno('EAGAIN') }),
      () => {
        throw errno('EBADF');
      },
      (frames) => ({ sent: frames.length, sentBytes: frames.reduce((n, f) => n + f.length, 0), error: null }),
    ]);
    const counters = new MutableTransportCounters();
    const local = socketAddress('127.0.0.1', 0, 'local', true);
    const to = socketAddress('127.0.0.1', 9, 'peer');
    const socket = BatchedAgentSocket.bind(local, { what: 'test', addon, bufferSize: 16, sendQueueLimit: 5, recvBufferSize: 0, sendBufferSize: 0, coalesce: false }, counters, () => {});
    expect(socket.local.port).toBe(40000);
    const sendBurst = (count: number, tag: number): void => {
      for (let i = 0; i < count; i++) {
        const buf = socket.acquire()!;
        buf.fill(tag + i);
        socket.transmit(buf, 1 + i, to);
      }
    };
    sendBurst(5, 10); // a full queue: flushed at once; the kernel takes 3
    expect(counters).toMatchObject({ datagramsOut: 3, bytesOut: 1 + 2 + 3, sendDrops: 2 });
    sendBurst(2, 20); // the send throws: both dropped
    await Promise.resolve();
    expect(counters).toMatchObject({ datagramsOut: 3, sendDrops: 4 });
    sendBurst(5, 30); // the pool gave every buffer back: five more fit
    expect(counters).toMatchObject({ datagramsOut: 8, bytesOut: 6 + 15, sendDrops: 4 });
    expect(sent.map((frames) => frames.map((f) => [...f]))).toEqual([
      [[10], [11, 11], [12, 12, 12], [13, 13, 13, 13], [14, 14, 14, 14, 14]],
      [[20], [21, 21]],
      [[30], [31, 31], [32, 32, 32], [33, 33, 33, 33], [34, 34, 34, 34, 34]],
    ]);
    await socket.close();
    expect(socket.acquire()).toBeUndefined();
    expect(counters.sendDrops).toBe(5);
  });
});
