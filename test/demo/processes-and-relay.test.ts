import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, test } from 'vitest';
import { ChildGroup } from '../../src/demo/child-group.js';
import { freeTcpPorts } from '../../src/demo/free-ports.js';
import { testUdpPorts } from '../helpers/test-ports.js';
import { LossyRelay } from '../../src/demo/lossy-relay.js';
import { isAlive } from './helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function udpSocket(): Promise<{ socket: Socket; port: number; received: Buffer[] }> {
  const socket = createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (m) => received.push(m));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return { socket, port: socket.address().port, received };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms && !check(); waited += 10) await new Promise((r) => setTimeout(r, 10));
  return check();
}

describe('ChildGroup', () => {
  test('keeps output, reports exits, and stops a child that ignores SIGTERM with SIGKILL', async () => {
    const group = new ChildGroup();
    cleanups.push(() => group.close());
    const lines: string[] = [];
    const done = await group.spawn({ name: 'echo', command: process.execPath, args: ['-e', 'console.log("one"); console.log("two"); console.error("err"); process.exit(3)'], onStdoutLine: (l) => lines.push(l) });
    expect(await done.exited).toEqual({ code: 3, signal: null });
    expect([done.stdout(), done.stderr(), lines]).toEqual(['one\ntwo\n', 'err\n', ['one', 'two']]);
    const stubborn = await group.spawn({ name: 'stubborn', command: process.execPath, args: ['-e', 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)'] });
    expect(await until(() => stubborn.stdout().includes('ready'), 10_000)).toBe(true);
    expect(group.livePids()).toEqual([stubborn.pid]);
    await group.stopAll(200);
    expect(stubborn.exit()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(group.livePids()).toEqual([]);
    expect(isAlive(stubborn.pid)).toBe(false);
    expect(group.allPids()).toEqual([done.pid, stubborn.pid]);
  });

  test('a command that cannot start rejects', async () => {
    const group = new ChildGroup();
    cleanups.push(() => group.close());
    await expect(group.spawn({ name: 'missing', command: '/nonexistent/p4ina-node', args: [] })).rejects.toThrow(/ENOENT/);
    expect(group.allPids()).toEqual([]);
  });
});

describe('free ports', () => {
  test('distinct ports, bindable afterwards', async () => {
    const udp = await testUdpPorts(4);
    const tcp = await freeTcpPorts(3);
    expect(new Set(udp).size).toBe(4);
    expect(new Set(tcp).size).toBe(3);
    for (const p of [...udp, ...tcp]) expect(p).toBeGreaterThan(0);
  });
});

describe('LossyRelay', () => {
  test('without loss it carries every frame both ways, only from the expected ends', async () => {
    const agent = await udpSocket();
    const sw = await udpSocket();
    const stranger = await udpSocket();
    const relay = await LossyRelay.open('w', agent.port, sw.port, 0, 1);
    cleanups.push(() => relay.close());
    // The stranger's frame goes out first (sent, in the relay's socket queue,
    // before the agent's): had the relay passed it on, the switch end would
    // have it, and the counters would show it, by the time the others arrive.
    await new Promise<void>((resolve, reject) => stranger.socket.send(Buffer.from([255]), relay.agentFacingPort, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
    for (let i = 0; i < 20; i++) agent.socket.send(Buffer.from([i]), relay.agentFacingPort, '127.0.0.1');
    for (let i = 0; i < 10; i++) sw.socket.send(Buffer.from([100 + i]), relay.switchFacingPort, '127.0.0.1');
    expect(await until(() => sw.received.length === 20 && agent.received.length === 10, 5000)).toBe(true);
    expect(sw.received.map((b) => b[0]).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(agent.received.map((b) => b[0]).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 10 }, (_, i) => 100 + i));
    expect(relay.counters).toEqual({ relayed: 30, lost: 0 });
  });

  test('with loss it drops a seeded share of the frames', async () => {
    const agent = await udpSocket();
    const sw = await udpSocket();
    const relay = await LossyRelay.open('w', agent.port, sw.port, 0.5, 'seed');
    cleanups.push(() => relay.close());
    for (let i = 0; i < 200; i++) agent.socket.send(Buffer.from([i]), relay.agentFacingPort, '127.0.0.1');
    expect(await until(() => relay.counters.relayed === 200 && sw.received.length + relay.counters.lost === 200, 5000)).toBe(true);
    expect(relay.counters.lost).toBeGreaterThan(0);
    expect(relay.counters.lost).toBeLessThan(200);
  });
});
