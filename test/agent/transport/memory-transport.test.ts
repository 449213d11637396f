import { describe, expect, test } from 'vitest';
import { createMemoryTransportPair, settleMemoryTransports, type MemoryTransport } from '../../../src/agent/transport/index.js';

function collect(t: MemoryTransport): number[][] {
  const got: number[][] = [];
  t.onDatagram((buf, offset, length) => got.push([...buf.subarray(offset, offset + length)]));
  return got;
}

async function settle(...ts: MemoryTransport[]): Promise<void> {
  expect(await settleMemoryTransports(ts)).toBe(true);
}

describe('memory transport pair', () => {
  test('delivers what the other end sends, a copy taken at send (the sender may reuse its buffer)', async () => {
    const [a, b] = createMemoryTransportPair();
    const got = collect(b);
    const buf = Buffer.from([1, 2, 3, 4]);
    expect(a.send(buf, 3)).toBe(true);
    buf[0] = 9;
    expect(a.send(buf)).toBe(true);
    expect(got).toEqual([]); // delivery is on a later turn
    await settle(a);
    expect(got).toEqual([
      [1, 2, 3],
      [9, 2, 3, 4],
    ]);
    expect(a.counters).toMatchObject({ datagramsOut: 2, bytesOut: 7, sendDrops: 0 });
    expect(b.counters).toMatchObject({ datagramsIn: 2, bytesIn: 7, receiveDrops: 0 });
  });

  test('no listener, a closed end, a full queue and an oversized payload', async () => {
    const [a, b] = createMemoryTransportPair({ queueLimit: 2, maxPayload: 8 });
    expect(a.send(Buffer.alloc(1))).toBe(true);
    expect(a.send(Buffer.alloc(1))).toBe(true);
    expect(a.send(Buffer.alloc(1))).toBe(false);
    expect(a.counters.sendDrops).toBe(1);
    expect(() => a.send(Buffer.alloc(9))).toThrow(RangeError);
    expect(() => a.send(Buffer.alloc(4), 5)).toThrow(RangeError);
    await settle(a);
    expect(b.counters.receiveDrops).toBe(2);
    await b.close();
    await b.close();
    expect(b.closed).toBe(true);
    expect(b.send(Buffer.alloc(1))).toBe(false);
    a.send(Buffer.alloc(1));
    await settle(a);
    expect(b.counters.receiveDrops).toBe(3);
  });

  test('a listener that throws does not stop delivery', async () => {
    const [a, b] = createMemoryTransportPair();
    let calls = 0;
    b.onDatagram(() => {
      calls++;
      throw new Error('listener bug');
    });
    a.send(Buffer.alloc(1));
    a.send(Buffer.alloc(1));
    await settle(a);
    expect(calls).toBe(2);
  });

  test('impairments replay exactly from the seed and act per direction', async () => {
    const run = async (seed: string): Promise<number[]> => {
      const [a, b] = createMemoryTransportPair({ aToB: { seed, loss: 0.2, duplicate: 0.1, reorder: 0.2 } });
      const got = collect(b);
      for (let i = 0; i < 200; i++) a.send(Buffer.from([i]));
      await settle(a);
      const back = collect(a);
      b.send(Buffer.from([7]));
      await settle(b);
      expect(back).toEqual([[7]]); // the other direction is clean
      expect(a.linkStats.lost + a.linkStats.duplicated + a.linkStats.reordered).toBeGreaterThan(0);
      return got.map((g) => g[0]!);
    };
    const first = await run('s1');
    expect(await run('s1')).toEqual(first);
    expect(await run('s2')).not.toEqual(first);
    expect(first.length).toBeLessThan(220);
    expect(first).not.toEqual([...first].sort((x, y) => x - y));
  });

  test('orderKey: frames of one key keep their order while others are reordered', async () => {
    const [a, b] = createMemoryTransportPair({ aToB: { seed: 'keys', reorder: 0.5, maxDisplacement: 5, orderKey: (f) => f[0]! % 3 } });
    const got = collect(b);
    for (let i = 0; i < 300; i++) a.send(Buffer.from([i % 256, Math.floor(i / 256)]));
    await settle(a);
    const order = got.map((g) => g[0]! + 256 * g[1]!);
    expect(order).toHaveLength(300);
    expect(order).not.toEqual([...order].sort((x, y) => x - y));
    for (const key of [0, 1, 2]) {
      const ofKey = order.filter((i) => (i % 256) % 3 === key);
      expect(ofKey).toEqual([...ofKey].sort((x, y) => x - y));
    }
  });
});
