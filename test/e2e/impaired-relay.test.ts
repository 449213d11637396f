// The seeded impaired relay the end-to-end tests (and the demo's --loss) put
// in the middle of a UDP wire: frames from the two ends only, loss and
// duplication replayed exactly from the seed, a bounded delay that still
// delivers everything, intercept and inject for targeted tests, and nothing
// left running after close().
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ImpairedRelay, type ImpairedRelayOptions } from '../../src/demo/impaired-relay.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface End {
  readonly socket: Socket;
  readonly port: number;
  readonly received: number[];
}

async function end(): Promise<End> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  const received: number[] = [];
  socket.on('message', (msg) => received.push(msg.readUInt16BE(0)));
  return { socket, port: socket.address().port, received };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return check();
}

/** `until` without setTimeout, for a test that fakes it: polls on setImmediate against the real clock. */
async function untilImmediate(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  return check();
}

const frame = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff, 0xaa]);

async function relayBetween(agent: End, sw: End, options: Omit<ImpairedRelayOptions, 'agentPort' | 'switchPort' | 'wire'>, wire = 'w'): Promise<ImpairedRelay> {
  const relay = await ImpairedRelay.open({ wire, agentPort: agent.port, switchPort: sw.port, ...options });
  cleanups.push(() => relay.close());
  return relay;
}

/** Sends frames 0..count-1 from `from` to the relay's port, a few at a time (loopback keeps their order). */
async function sendNumbered(from: End, port: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    from.socket.send(frame(i), port, '127.0.0.1');
    if (i % 20 === 19) await new Promise((r) => setTimeout(r, 2));
  }
}

describe('ImpairedRelay', () => {
  test('loss and duplication replay exactly from the seed', async () => {
    const runs: number[][] = [];
    for (let run = 0; run < 2; run++) {
      const agent = await end();
      const sw = await end();
      const relay = await relayBetween(agent, sw, { seed: 'replay', up: { loss: 0.3, duplicate: 0.2 } });
      await sendNumbered(agent, relay.agentFacingPort, 300);
      const c = () => relay.counters;
      expect(await until(() => c().relayed === 300 && sw.received.length === 300 - c().lost + c().duplicated, 5000)).toBe(true);
      expect(c().lost).toBeGreaterThan(0);
      expect(c().duplicated).toBeGreaterThan(0);
      runs.push([...sw.received].sort((a, b) => a - b));
    }
    expect(runs[1]).toEqual(runs[0]);
  });

  test('a bounded delay reorders frames and still delivers every one', async () => {
    const agent = await end();
    const sw = await end();
    const relay = await relayBetween(agent, sw, { seed: 3, down: { delay: 0.5, maxDelayMs: 20 } });
    await sendNumbered(sw, relay.switchFacingPort, 100);
    expect(await until(() => agent.received.length === 100, 5000)).toBe(true);
    expect([...agent.received].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(agent.received).not.toEqual([...agent.received].sort((a, b) => a - b));
    expect(relay.counters.delayed).toBeGreaterThan(0);
  });

  test('intercept sees both directions and drops what it refuses; inject bypasses it; strangers are ignored', async () => {
    const agent = await end();
    const sw = await end();
    const stranger = await end();
    const seen: string[] = [];
    const relay = await relayBetween(agent, sw, {
      seed: 1,
      intercept: (f, direction) => {
        seen.push(`${direction}:${f.readUInt16BE(0)}`);
        return f.readUInt16BE(0) !== 2;
      },
    });
    // The stranger's frame first, and sent (in the relay's socket queue) before
    // the agent's: had the relay passed it on, it would be counted and seen
    // before frames 1..3 reach the switch end.
    await new Promise<void>((resolve, reject) => stranger.socket.send(frame(9), relay.agentFacingPort, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
    for (const n of [1, 2, 3]) agent.socket.send(frame(n), relay.agentFacingPort, '127.0.0.1');
    sw.socket.send(frame(7), relay.switchFacingPort, '127.0.0.1');
    relay.inject(frame(40), 'up');
    relay.inject(frame(41), 'down');
    expect(await until(() => sw.received.length === 3 && agent.received.length === 2, 5000)).toBe(true);
    expect([...sw.received].sort((a, b) => a - b)).toEqual([1, 3, 40]);
    expect([...agent.received].sort((a, b) => a - b)).toEqual([7, 41]);
    expect(seen.sort()).toEqual(['down:7', 'up:1', 'up:2', 'up:3']);
    expect(relay.counters).toMatchObject({ relayed: 4, intercepted: 1, lost: 0 });
  });

  test('close() drops frames still held back and releases both sockets', async () => {
    // The relay's delay stage on fake timers (the sockets stay real): the
    // held-back frame's timer is visible, and "never sent" is shown by running
    // every timer after close() rather than by sleeping past maxDelayMs.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const agent = await end();
      const sw = await end();
      const relay = await ImpairedRelay.open({ wire: 'c', agentPort: agent.port, switchPort: sw.port, seed: 1, up: { delay: 1, maxDelayMs: 200 } });
      agent.socket.send(frame(5), relay.agentFacingPort, '127.0.0.1');
      expect(await untilImmediate(() => relay.counters.delayed === 1, 5000)).toBe(true);
      expect(vi.getTimerCount()).toBe(1); // frame 5, held back
      await relay.close();
      expect(vi.getTimerCount()).toBe(0);
      // Had the timer survived, it would send on a closed socket here (and throw).
      vi.runAllTimers();
      expect(sw.received).toEqual([]);
      await relay.close(); // idempotent
    } finally {
      vi.useRealTimers();
    }
  });

  test('bad impairments are refused', async () => {
    const agent = await end();
    const sw = await end();
    await expect(ImpairedRelay.open({ wire: 'x', agentPort: agent.port, switchPort: sw.port, seed: 1, up: { delay: 2 } })).rejects.toThrow(RangeError);
    await expect(ImpairedRelay.open({ wire: 'x', agentPort: agent.port, switchPort: sw.port, seed: 1, down: { delay: 0.5, maxDelayMs: 0 } })).rejects.toThrow(RangeError);
  });
});
