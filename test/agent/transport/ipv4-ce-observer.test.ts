/**
 * The IPv4 CE observer: loading raw-socket and opening the raw socket (each
 * failure a typed error that says what to do), sorting and reporting what it
 * reads (through a stand-in raw-socket module), and, as root, a real raw
 * socket on loopback that sees CE set by the sender's IP_TOS.
 */
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { KernelUdpTransport } from '../../../src/agent/transport/index.js';
import { Ipv4CeObserver } from '../../../src/agent/transport/ipv4-ce-observer.js';
import { loadRawSocketModule, openRawUdpSocket } from '../../../src/agent/transport/raw-udp-socket.js';
import type { RawSocket, RawSocketModule } from '../../../src/agent/transport/raw-socket-module.js';
import { rawSocket as udpSocket, eventually, openUdpHandles, type RawSocket as UdpTestSocket } from './helpers.js';

const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn('ipv4-ce-observer.test.ts: the real raw-socket test is skipped: raw IP sockets need root or CAP_NET_RAW (CI runs as root)');

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

/** A UDP datagram to 127.0.0.1:`port` as a raw IPv4 socket reads it: a 20-byte header, then UDP. */
function copyOf(port: number, ecn: number, payload: readonly number[]): Buffer {
  const total = 28 + payload.length;
  return Buffer.from([0x45, ecn, total >> 8, total & 0xff, 0, 0, 0x40, 0, 64, 17, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1, 0x9c, 0x40, port >> 8, port & 0xff, 0, 8 + payload.length, 0, 0, ...payload]);
}

/** A raw-socket stand-in: the test queues packets and raises readiness. */
class FakeRawSocket extends EventEmitter {
  readonly buffer = Buffer.alloc(0xffff);
  readonly queue: Buffer[] = [];
  readonly options: [number, number, number][] = [];
  closed = 0;
  recvCalls = 0;
  readonly wrap = {
    recv: (buffer: Buffer, callback: (buffer: Buffer, bytes: number, source: string) => void): void => {
      this.recvCalls++;
      const next = this.queue.shift();
      if (next === undefined) throw new Error('Resource temporarily unavailable');
      next.copy(buffer);
      callback(buffer, next.length, '127.0.0.1');
    },
  };
  setOption(level: number, option: number, value: number): void {
    this.options.push([level, option, value]);
  }
  close(): this {
    this.closed++;
    this.emit('close');
    return this;
  }
  /** What raw-socket does on readiness: one read, as a `message` event. */
  ready(): void {
    this.wrap.recv(this.buffer, (buffer, bytes, source) => this.emit('message', buffer.subarray(0, bytes), source));
  }
}

function fakeModule(socket: FakeRawSocket | Error): RawSocketModule & { created: unknown[] } {
  const created: unknown[] = [];
  return {
    created,
    createSocket(options) {
      created.push(options);
      if (socket instanceof Error) throw socket;
      return socket as unknown as RawSocket;
    },
    Protocol: { UDP: 17 },
    AddressFamily: { IPv4: 1 },
    SocketLevel: { SOL_SOCKET: 1 },
    SocketOption: { SO_RCVBUF: 8 },
  };
}

describe('loading raw-socket and opening a raw socket', () => {
  test('the package is installed: it loads, with the constants the observer uses', () => {
    const module = loadRawSocketModule();
    expect(typeof module.createSocket).toBe('function');
    expect(module.Protocol.UDP).toBe(17);
    expect(typeof module.SocketOption.SO_RCVBUF).toBe('number');
  });

  test('missing package or addon, or something else under its name: TRANSPORT_RAW_SOCKET_MISSING saying how to install it', () => {
    const missing = Object.assign(new Error("Cannot find module 'raw-socket'"), { code: 'MODULE_NOT_FOUND' });
    let error: unknown;
    try {
      loadRawSocketModule(() => {
        throw missing;
      });
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: 'TRANSPORT_RAW_SOCKET_MISSING' });
    expect((error as Error).message).toContain('npm install raw-socket');
    expect(codeOf(() => loadRawSocketModule(() => ({ createSocket: 'no' })))).toBe('TRANSPORT_RAW_SOCKET_MISSING');
    expect(
      codeOf(() =>
        loadRawSocketModule(() => {
          throw new Error('was compiled against a different Node.js version');
        }),
      ),
    ).toBe('TRANSPORT_RAW_SOCKET_MISSING');
  });

  test('no CAP_NET_RAW: TRANSPORT_RAW_SOCKET_NOT_PERMITTED naming the capability; any other failure TRANSPORT_RAW_SOCKET_FAILED', () => {
    let error: unknown;
    try {
      openRawUdpSocket(100, fakeModule(new Error('Operation not permitted')));
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: 'TRANSPORT_RAW_SOCKET_NOT_PERMITTED' });
    expect((error as Error).message).toMatch(/CAP_NET_RAW/);
    expect(codeOf(() => openRawUdpSocket(100, fakeModule(new Error('Too many open files'))))).toBe('TRANSPORT_RAW_SOCKET_FAILED');
  });
});

describe('the observer on a stand-in raw socket', () => {
  function open(port = 48_897) {
    const socket = new FakeRawSocket();
    const module = fakeModule(socket);
    const observer = Ipv4CeObserver.open({ address: '127.0.0.1', port, receiveBufferBytes: 1 << 20, rawSocket: module });
    closers.push(() => observer.close());
    const marks: number[][] = [];
    observer.onCeMark((buf, offset, length) => marks.push([...buf.subarray(offset, offset + length)]));
    return { socket, module, observer, marks };
  }

  test('a raw IPv4 UDP socket with the receive buffer asked for', () => {
    const { socket, module } = open();
    expect(module.created).toEqual([{ protocol: 17, addressFamily: 1, bufferSize: 0xffff }]);
    expect(socket.options).toEqual([[1, 8, 1 << 20]]);
  });

  test('reports CE-marked datagrams to its port with their payload, counts the rest', () => {
    const { socket, observer, marks } = open();
    socket.queue.push(copyOf(48_897, 3, [1, 2]), copyOf(48_897, 2, [3]), copyOf(48_898, 3, [4]), Buffer.from([0x45, 0]), copyOf(48_897, 0x0b, [5]));
    socket.ready();
    // One readiness event reads everything queued (raw-socket alone would read one packet per turn of the event loop).
    expect(marks).toEqual([[1, 2], [5]]);
    expect(observer.counters).toEqual({ seen: 5, forUs: 3, ce: 2, fragments: 0, malformed: 1, receiveErrors: 0 });
    expect(observer.ceMarks).toBe(2);
  });

  test('reads at most 257 packets per readiness event; the rest on the next', () => {
    const { socket, observer } = open();
    for (let i = 0; i < 300; i++) socket.queue.push(copyOf(48_897, 3, [i & 0xff]));
    socket.ready();
    expect(observer.counters.seen).toBe(257);
    socket.ready();
    expect(observer.counters.seen).toBe(300);
  });

  test('a listener that throws is survived; a raw socket error is counted; after close nothing is read or reported', () => {
    const { socket, observer, marks } = open();
    observer.onCeMark(() => {
      throw new Error('listener bug');
    });
    socket.queue.push(copyOf(48_897, 3, [1]), copyOf(48_897, 3, [2]));
    socket.ready();
    expect(observer.counters.ce).toBe(2);
    socket.emit('error', new Error('boom'));
    expect(observer.counters.receiveErrors).toBe(1);
    observer.close();
    observer.close();
    expect(socket.closed).toBe(1);
    socket.queue.push(copyOf(48_897, 3, [3]));
    socket.emit('message', copyOf(48_897, 3, [3]), '127.0.0.1');
    expect(observer.counters.seen).toBe(2);
    expect(marks).toEqual([]);
  });

  test('an IPv6 address or a port that was not bound is refused before any socket is made', () => {
    const module = fakeModule(new FakeRawSocket());
    expect(codeOf(() => Ipv4CeObserver.open({ address: '::1', port: 1, rawSocket: module }))).toBe('TRANSPORT_BAD_ADDRESS');
    expect(() => Ipv4CeObserver.open({ address: '127.0.0.1', port: 0, rawSocket: module })).toThrow(RangeError);
    expect(module.created).toEqual([]);
  });
});

describe.skipIf(!isRoot)('the observer on a real raw socket (root)', () => {
  /** Sends UDP datagrams to 127.0.0.1 with the ECN field it is told: a raw UDP socket whose IP_TOS the kernel writes into the IPv4 header. */
  function ecnSender(): (ecn: number, port: number, text: string) => Promise<void> {
    const raw = loadRawSocketModule();
    const sender = raw.createSocket({ protocol: raw.Protocol.UDP });
    closers.push(() => sender.close());
    const IPPROTO_IP = 0;
    const IP_TOS = 1;
    return (ecn, port, text) => {
      sender.setOption(IPPROTO_IP, IP_TOS, ecn);
      const body = Buffer.from(text);
      const udp = Buffer.concat([Buffer.from([0x9c, 0x41, port >> 8, port & 0xff, 0, 8 + body.length, 0, 0]), body]);
      return new Promise((resolve, reject) => (sender as unknown as RawSender).send(udp, 0, udp.length, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
    };
  }

  test('sees the CE-marked datagrams sent to its socket’s port on loopback, not the others', async () => {
    const receiver: UdpTestSocket = await udpSocket();
    closers.push(() => receiver.close());
    const observer = Ipv4CeObserver.open({ address: '127.0.0.1', port: receiver.port });
    closers.push(() => observer.close());
    const marks: string[] = [];
    observer.onCeMark((buf, offset, length) => marks.push(buf.toString('utf8', offset, offset + length)));
    const send = ecnSender();
    await send(3, receiver.port, 'marked');
    await send(2, receiver.port, 'ect0');
    await send(3, receiver.port === 65_535 ? 65_534 : receiver.port + 1, 'elsewhere');
    await send(3, receiver.port, 'marked again');
    // The UDP socket gets its three; the observer has read their copies by then or soon after.
    expect(await eventually(() => receiver.received.length === 3 && observer.counters.forUs === 3)).toBe(true);
    expect(receiver.received.map((r) => r.msg.toString())).toEqual(['marked', 'ect0', 'marked again']);
    expect(marks).toEqual(['marked', 'marked again']);
    expect(observer.counters).toMatchObject({ forUs: 3, ce: 2, malformed: 0, fragments: 0, receiveErrors: 0 });
    // Every datagram on loopback is copied, the one to the other port too.
    expect(observer.counters.seen).toBeGreaterThanOrEqual(4);
  });

  test('a kernel UDP transport with observeCe: CE marks beside its datagrams, on the port it bound; closed with it', async () => {
    const send = ecnSender();
    const before = ownRawSockets();
    const transport = await KernelUdpTransport.open({ localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: 9, observeCe: true });
    closers.push(() => transport.close());
    expect(ownRawSockets()).toBe(before + 1);
    const events: string[] = [];
    transport.onCeMark((buf, offset, length) => events.push(`mark ${buf.toString('utf8', offset, offset + length)}`));
    transport.onDatagram((buf, offset, length) => events.push(`datagram ${buf.toString('utf8', offset, offset + length)}`));
    await send(3, transport.local.port, 'a');
    await send(0, transport.local.port, 'b');
    expect(await eventually(() => events.length === 3)).toBe(true);
    // The two sockets are read independently: the mark may come before or after its datagram.
    expect([...events].sort()).toEqual(['datagram a', 'datagram b', 'mark a']);
    expect(transport.ceMarks).toBe(1);
    expect(transport.ceCounters).toMatchObject({ forUs: 2, ce: 1 });
    await transport.close();
    expect(ownRawSockets()).toBe(before);
  });

  test('close releases the raw socket (this process’s raw sockets, from /proc)', async () => {
    const before = ownRawSockets();
    const observer = Ipv4CeObserver.open({ address: '127.0.0.1', port: 9 });
    expect(ownRawSockets()).toBe(before + 1);
    observer.close();
    expect(ownRawSockets()).toBe(before);
    expect(await openUdpHandles()).toEqual([]);
  });
});

/** How many of this process's file descriptors are raw IPv4 sockets (/proc/net/raw lists them by inode). */
function ownRawSockets(): number {
  const inodes = new Set(
    readFileSync('/proc/net/raw', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/)[9])
      .filter((inode): inode is string => inode !== undefined),
  );
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false; // closed while listing
    }
  }).length;
}

/** raw-socket's send, which the observer does not use (so its declaration leaves it out). */
interface RawSender {
  send(buffer: Buffer, offset: number, length: number, address: string, after: (err: Error | null, bytes: number) => void): void;
}
