/**
 * Helpers of the transport tests: plain dgram sockets on 127.0.0.1 for the
 * far end, waiting a bounded time for datagrams, checks that no UDP handle
 * or socket is left open, and the two socket implementations to run over.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterEach, expect, vi } from 'vitest';

export interface RawSocket {
  readonly socket: Socket;
  readonly port: number;
  /** Datagrams received so far, with their sources. */
  readonly received: { msg: Buffer; rinfo: RemoteInfo }[];
  send(msg: Buffer, port: number): Promise<void>;
  close(): Promise<void>;
}

/** A dgram socket on 127.0.0.1; `recvBufferSize` for bursts beyond the default SO_RCVBUF (~200 KiB), which the kernel would drop. */
export async function rawSocket(recvBufferSize?: number): Promise<RawSocket> {
  const socket = createSocket({ type: 'udp4', ...(recvBufferSize !== undefined ? { recvBufferSize } : {}) });
  const received: { msg: Buffer; rinfo: RemoteInfo }[] = [];
  socket.on('message', (msg, rinfo) => received.push({ msg, rinfo }));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    socket,
    port: socket.address().port,
    received,
    send: (msg, port) => new Promise((resolve, reject) => socket.send(msg, port, '127.0.0.1', (err) => (err ? reject(err) : resolve()))),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** Polls `condition` every 5 ms, at most `tries` times; true once it holds. */
export async function eventually(condition: () => boolean, tries = 400): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return condition();
}

/** The UDP handles still open, after a bounded wait for closes to finish. */
export async function openUdpHandles(): Promise<string[]> {
  const udp = (): string[] => process.getActiveResourcesInfo().filter((name) => name.startsWith('UDP'));
  await eventually(() => udp().length === 0, 200);
  return udp();
}

/** Both socket implementations under the agent transports. */
export const UDP_IOS = ['batched', 'dgram'] as const;

/**
 * UDP sockets this process holds, read from /proc: the batched addon's
 * sockets are not libuv handles, so `openUdpHandles` cannot see them.
 */
export function ownUdpSockets(): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    let link: string;
    try {
      link = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed while we looked (readdir's own fd)
    }
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  let count = 0;
  for (const table of ['/proc/self/net/udp', '/proc/self/net/udp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      if (inodes.has(line.trim().split(/\s+/)[9] ?? '')) count++;
    }
  }
  return count;
}

/** UDP sockets of this process still open, after a bounded wait for closes to finish. */
export async function udpSocketsLeft(): Promise<number> {
  await eventually(() => ownUdpSockets() === 0, 200);
  return ownUdpSockets();
}

/**
 * Registers the transport tests' afterEach: mocks restored, every clean-up a
 * test pushed run, then no UDP handle and no socket of ours left open.
 * Returns the list the tests push their clean-ups to.
 */
export function closeEverythingAfterEach(): (() => Promise<unknown>)[] {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const cleanup of cleanups.splice(0)) await cleanup();
    expect(await openUdpHandles()).toEqual([]);
    expect(await udpSocketsLeft()).toBe(0);
  });
  return cleanups;
}
