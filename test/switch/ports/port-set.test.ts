import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryHub } from '../../../src/switch/ports/memory-hub.js';
import { createMemoryWire } from '../../../src/switch/ports/memory-port.js';
import type { Port } from '../../../src/switch/ports/port.js';
import { PortSet, openPort } from '../../../src/switch/ports/port-set.js';
import { parsePortSpec } from '../../../src/switch/ports/port-spec.js';
import { frame, tagOf } from './frames.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((c) => c()));
});

/** Binds a throwaway UDP socket on an ephemeral loopback port (closed after the test). */
async function occupiedPort(): Promise<number> {
  const s = createSocket('udp4');
  cleanups.push(() => new Promise<void>((r) => s.close(() => r())));
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  return s.address().port;
}

describe('PortSet', () => {
  it('opens memory and UDP ports from arguments and finds them by number', async () => {
    const hub = new MemoryHub();
    const ports = await PortSet.open(['2@mem:h2', '5@udp:127.0.0.1:0:127.0.0.1:9'], { memoryHub: hub });
    cleanups.push(() => ports.close());
    expect(ports.size).toBe(2);
    expect(ports.numbers()).toEqual([2, 5]);
    expect(ports.get(2)?.kind).toBe('memory');
    expect(ports.get(5)?.kind).toBe('udp');
    expect(ports.get(5)?.name).toMatch(/^udp-127\.0\.0\.1-\d+$/);
    expect(ports.get(3)).toBeUndefined();
    expect(ports.get(9999)).toBeUndefined();
    expect([...ports].map((p) => p.number)).toEqual([2, 5]);

    // Frames reach the switch's listener with the port they came in on.
    const host = hub.attach('h2', 0);
    const seen: number[] = [];
    ports.onFrame((f, port) => seen.push(port.number * 1000 + tagOf(f)));
    host.send(frame(7));
    await hub.settle();
    expect(seen).toEqual([2007]);
    expect(ports.counters().get(2)).toMatchObject({ name: 'h2', framesIn: 1, bytesIn: 60 });
  });

  it('opens interfaces through AF_PACKET, and refuses memory ports without a hub, and duplicates', async () => {
    // A name no interface has: the AF_PACKET backend is reached and says what is wrong
    // (no such interface as root; no permission otherwise; addon not built when it is missing).
    await expect(openPort(parsePortSpec('1@p4ina-none0'))).rejects.toMatchObject({ code: expect.stringMatching(/^AF_PACKET_/) });
    await expect(PortSet.open(['1@mem:x'])).rejects.toMatchObject({ code: 'PORT_NO_MEMORY_HUB' });
    await expect(PortSet.open(['1@mem:x', '1@mem:y'], { memoryHub: new MemoryHub() })).rejects.toMatchObject({ code: 'PORT_DUPLICATE' });
    const [a, b] = createMemoryWire({ number: 4, name: 'a' }, { number: 4, name: 'b' });
    const set = new PortSet([a]);
    expect(() => set.add(b)).toThrow(expect.objectContaining({ code: 'PORT_DUPLICATE' }));
  });

  it('is all or nothing: when one port fails, those opened before it are closed', async () => {
    const taken = await occupiedPort();
    const free = await occupiedPort();
    // Release `free` so the set can bind it; `taken` stays bound and makes the second port fail.
    await cleanups.pop()!();
    await expect(PortSet.open([`1@udp:127.0.0.1:${free}:127.0.0.1:9`, `2@udp:127.0.0.1:${taken}:127.0.0.1:9`])).rejects.toMatchObject({
      code: 'PORT_BIND_FAILED',
      message: expect.stringMatching(/address is in use/),
    });
    // Port 1's socket was closed again: its address can be bound now.
    const again = await PortSet.open([`1@udp:127.0.0.1:${free}:127.0.0.1:9`]);
    cleanups.push(() => again.close());
    expect(again.get(1)?.name).toBe(`udp-127.0.0.1-${free}`);
  });

  it('lets a decorator wrap every port, keeping numbers', () => {
    const [a] = createMemoryWire({ number: 1, name: 'a' }, { number: 2, name: 'b' });
    const set = new PortSet([a]);
    const rename = (p: Port, name: string, number = p.number): Port => ({
      number,
      name,
      kind: p.kind,
      counters: p.counters,
      closed: p.closed,
      send: (f) => p.send(f),
      onFrame: (l) => p.onFrame(l),
      close: () => p.close(),
    });
    set.decorate((p) => rename(p, `wrapped-${p.name}`));
    expect(set.get(1)?.name).toBe('wrapped-a');
    expect(() => set.decorate((p) => rename(p, 'x', 3))).toThrow(/changed port 1/);
  });
});
