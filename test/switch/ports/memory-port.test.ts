import { describe, expect, it } from 'vitest';
import { MemoryHub } from '../../../src/switch/ports/memory-hub.js';
import { createMemoryWire, settleMemoryPorts, type Impairments } from '../../../src/switch/ports/memory-port.js';
import { collect, frame, tagOf } from './frames.js';

/** Sends `count` tagged frames a→b in one burst and returns the tags b received, in order. */
async function run(impairments: Impairments | undefined, count = 200): Promise<{ tags: number[]; stats: object }> {
  const [a, b] = createMemoryWire({ number: 1, name: 'w' }, { number: 2, name: 'w' }, { impairments });
  const got = collect(b);
  for (let i = 0; i < count; i++) expect(a.send(frame(i))).toBe(true);
  expect(await settleMemoryPorts([a, b])).toBe(true);
  return { tags: got.map(tagOf), stats: { ...a.impairments } };
}

describe('in-memory wire', () => {
  it('carries frames both ways, in order, on the next turn, and counts them', async () => {
    const [a, b] = createMemoryWire({ number: 1, name: 'left' }, { number: 7, name: 'right' });
    const atA = collect(a);
    const atB = collect(b);
    a.send(frame(1));
    a.send(frame(2));
    b.send(frame(3));
    // Not delivered re-entrantly inside send.
    expect(atB).toHaveLength(0);
    await settleMemoryPorts([a, b]);
    expect(atB.map(tagOf)).toEqual([1, 2]);
    expect(atA.map(tagOf)).toEqual([3]);
    expect(a.counters).toMatchObject({ framesOut: 2, bytesOut: 120, framesIn: 1, bytesIn: 60, drops: 0, malformed: 0 });
    expect(b.counters).toMatchObject({ framesOut: 1, framesIn: 2 });
    expect([a.number, a.name, a.kind, b.number, b.name]).toEqual([1, 'left', 'memory', 7, 'right']);
  });

  it('copies frames: the sender may reuse its buffer and the receiver may rewrite what it got', async () => {
    const [a, b] = createMemoryWire({ number: 1, name: 'a' }, { number: 2, name: 'b' });
    const got = collect(b);
    const buf = frame(5);
    a.send(buf);
    buf.writeUInt32BE(99, 14);
    await settleMemoryPorts([a, b]);
    expect(tagOf(got[0]!)).toBe(5);
    got[0]!.fill(0);
    expect(tagOf(buf)).toBe(99);
  });

  it('counts short frames as malformed and frames with no listener as drops', async () => {
    const [a, b] = createMemoryWire({ number: 1, name: 'a' }, { number: 2, name: 'b' });
    a.send(Buffer.alloc(13));
    a.send(frame(1));
    await settleMemoryPorts([a, b]);
    expect(b.counters).toMatchObject({ malformed: 1, drops: 1, framesIn: 0 });
    const got = collect(b);
    a.send(Buffer.alloc(14)); // exactly an Ethernet header: accepted
    await settleMemoryPorts([a, b]);
    expect(got).toHaveLength(1);
  });

  it('drops beyond the queue limit, after close, and to a closed port', async () => {
    const [a, b] = createMemoryWire({ number: 1, name: 'a' }, { number: 2, name: 'b' }, { queueLimit: 3 });
    const got = collect(b);
    const sent = [1, 2, 3, 4, 5].map((i) => a.send(frame(i)));
    expect(sent).toEqual([true, true, true, false, false]);
    expect(a.counters.drops).toBe(2);
    await settleMemoryPorts([a, b]);
    expect(got.map(tagOf)).toEqual([1, 2, 3]);
    await b.close();
    expect(b.closed).toBe(true);
    a.send(frame(6));
    await settleMemoryPorts([a, b]);
    expect(got).toHaveLength(3);
    expect(b.counters.drops).toBe(1);
    await a.close();
    await a.close(); // idempotent
    expect(a.send(frame(7))).toBe(false);
  });

  it('keeps a listener that throws from breaking the wire', async () => {
    const [a, b] = createMemoryWire({ number: 1, name: 'a' }, { number: 2, name: 'b' });
    let calls = 0;
    b.onFrame(() => {
      calls++;
      throw new Error('boom');
    });
    a.send(frame(1));
    a.send(frame(2));
    await settleMemoryPorts([a, b]);
    expect(calls).toBe(2);
    expect(b.counters).toMatchObject({ framesIn: 2, drops: 2 });
  });
});

describe('seeded impairments', () => {
  const impairments: Impairments = { seed: 42, loss: 0.1, duplicate: 0.1, reorder: 0.2, maxDisplacement: 4 };

  it('replay exactly from the seed', async () => {
    const first = await run(impairments);
    const second = await run(impairments);
    expect(second).toEqual(first);
    const other = await run({ ...impairments, seed: 43 });
    expect(other.tags).not.toEqual(first.tags);
  });

  it('lose, duplicate and reorder about as often as asked, and hold nothing forever', async () => {
    const { tags, stats } = await run(impairments, 2000);
    const s = stats as { lost: number; duplicated: number; reordered: number };
    // Wide bounds: these check the knobs are wired up, not the generator's statistics.
    expect(s.lost).toBeGreaterThan(100);
    expect(s.lost).toBeLessThan(300);
    expect(s.duplicated).toBeGreaterThan(100);
    expect(s.reordered).toBeGreaterThan(250);
    expect(tags).toHaveLength(2000 - s.lost + s.duplicated);
    const unique = new Set(tags);
    expect(unique.size).toBe(2000 - s.lost);
    // Some frame arrives after a later one.
    expect(tags.some((t, i) => i > 0 && t < tags[i - 1]!)).toBe(true);
  });

  it('reorder without loss keeps every frame, and a frame held to the end of its batch still arrives', async () => {
    const some = await run({ seed: 7, reorder: 0.3 }, 500);
    expect([...some.tags].sort((x, y) => x - y)).toEqual([...Array(500).keys()]);
    expect(some.tags).not.toEqual([...Array(500).keys()]);
    // Everything held: nothing passes a held frame, so all come out at the end of the batch, in order.
    const all = await run({ seed: 7, reorder: 1 }, 20);
    expect(all.tags).toEqual([...Array(20).keys()]);
  });

  it('with all probabilities zero, change nothing', async () => {
    const { tags } = await run({ seed: 1 }, 50);
    expect(tags).toEqual([...Array(50).keys()]);
  });

  it('refuse probabilities outside 0..1', () => {
    expect(() => createMemoryWire({ number: 1, name: 'a' }, { number: 2, name: 'b' }, { impairments: { seed: 1, loss: 1.5 } })).toThrow(RangeError);
  });
});

describe('memory hub', () => {
  it('joins the first and second attach to a name and refuses a third', async () => {
    const hub = new MemoryHub();
    const sw = hub.attach('h1', 3);
    const host = hub.attach('h1', 0);
    expect(() => hub.attach('h1', 4)).toThrow(expect.objectContaining({ code: 'PORT_MEMORY_WIRE_IN_USE' }));
    const atHost = collect(host);
    const atSwitch = collect(sw);
    sw.send(frame(1));
    host.send(frame(2));
    expect(await hub.settle()).toBe(true);
    expect(atHost.map(tagOf)).toEqual([1]);
    expect(atSwitch.map(tagOf)).toEqual([2]);
    expect([sw.number, host.number, sw.name]).toEqual([3, 0, 'h1']);
  });

  it('drops frames sent before the far end exists, and applies per-wire impairments reproducibly', async () => {
    const hub = new MemoryHub();
    hub.configure('lossy', { impairments: { seed: 'abc', loss: 0.5 } });
    const first = hub.attach('lossy', 1);
    first.send(frame(0));
    await hub.settle();
    expect(first.impairments.unattached + first.impairments.lost).toBe(1);
    const second = hub.attach('lossy', 2);
    const got = collect(second);
    for (let i = 1; i <= 100; i++) first.send(frame(i));
    await hub.settle();
    expect(got.length).toBeGreaterThan(20);
    expect(got.length).toBeLessThan(80);

    const again = new MemoryHub();
    again.configure('lossy', { impairments: { seed: 'abc', loss: 0.5 } });
    const f2 = again.attach('lossy', 1);
    f2.send(frame(0));
    await again.settle();
    const got2 = collect(again.attach('lossy', 2));
    for (let i = 1; i <= 100; i++) f2.send(frame(i));
    await again.settle();
    expect(got2.map(tagOf)).toEqual(got.map(tagOf));
    expect(() => again.configure('lossy', {})).toThrow(/already exists/);
  });
});
