/**
 * One egress queue on a virtual clock, against the link model BMv2's
 * simple_switch documents: a packet leaves at max(its arrival, when the link
 * is free), the link is then busy 1/rate s (packets/s) or bits/rate s
 * (bits/s); FIFO; a full queue refuses (tail drop).
 */
import { describe, expect, it } from 'vitest';
import { PortQueue } from '../../../src/switch/queues/port-queue.js';
import type { PortRate } from '../../../src/switch/queues/port-rate.js';
import { VirtualClock } from './virtual-clock.js';

interface Left {
  id: number;
  at: number;
  /** The virtual time the departure callback ran at. */
  now: number;
  after: number;
}

function queue(rate: PortRate | undefined, capacity: number, start = 0): { clock: VirtualClock; q: PortQueue<number>; left: Left[]; offer(id: number, bytes?: number): number } {
  const clock = new VirtualClock(start);
  const left: Left[] = [];
  const q = new PortQueue<number>(1, clock, (id, at, after) => left.push({ id, at, now: clock.nowMicros(), after }));
  q.setCapacity(capacity);
  q.setRate(rate, clock.nowMicros());
  const offer = (id: number, bytes = 100): number => {
    const now = clock.nowMicros();
    const depth = q.admit(now);
    if (depth >= 0) q.push(id, now, bytes);
    return depth;
  };
  return { clock, q, left, offer };
}

const perSecond = (left: readonly Left[], seconds: number): number[] =>
  Array.from({ length: seconds }, (_, s) => left.filter((l) => l.now >= s * 1e6 && l.now < (s + 1) * 1e6).length);

describe('PortQueue rate', () => {
  it('250 packets/s: a backlog of 1,000 leaves 250 per virtual second, each at its time', () => {
    const { clock, left, offer } = queue({ unit: 'pps', value: 250 }, 1000);
    for (let i = 0; i < 1000; i++) expect(offer(i)).toBe(i === 0 ? 0 : i - 1);
    clock.advanceTo(1e6 - 1);
    expect(left).toHaveLength(250);
    clock.advanceTo(4e6);
    expect(perSecond(left, 4)).toEqual([250, 250, 250, 250]);
    // 1 packet every 4 ms, in order, delivered when due (not early, not late).
    left.forEach((l, i) => expect(l).toMatchObject({ id: i, at: i * 4000, now: i * 4000 }));
  });

  it('7 packets/s (1/7 s is not a whole number of µs): 7 per virtual second, the 8th exactly at 1 s', () => {
    const { clock, left, offer } = queue({ unit: 'pps', value: 7 }, 100);
    for (let i = 0; i < 30; i++) offer(i);
    clock.advanceTo(4e6);
    expect(perSecond(left, 4)).toEqual([7, 7, 7, 7]);
    expect(left[7]!.at).toBe(1e6);
    expect(left[28]!.at).toBe(4e6);
  });

  it('bits/s: the link is busy for each packet\'s bits', () => {
    // 80 kbit/s and 100-byte packets: 800 bits, 10 ms each, 100 per second.
    const a = queue({ unit: 'bps', value: 80_000 }, 1000);
    for (let i = 0; i < 300; i++) a.offer(i, 100);
    a.clock.advanceTo(3e6);
    expect(perSecond(a.left, 3)).toEqual([100, 100, 100]);
    // 1 Mbit/s, 125- and 250-byte packets alternating: 1 ms and 2 ms on the link.
    const b = queue({ unit: 'bps', value: 1e6 }, 10);
    for (let i = 0; i < 5; i++) b.offer(i, i % 2 === 0 ? 125 : 250);
    b.clock.advanceTo(1e6);
    expect(b.left.map((l) => l.at)).toEqual([0, 1000, 3000, 4000, 6000]);
  });

  it('an idle link sends at once; a packet arriving later starts a new busy period', () => {
    const { clock, left, offer } = queue({ unit: 'pps', value: 1000 }, 10, 5_000_000);
    offer(0);
    expect(left).toEqual([{ id: 0, at: 5_000_000, now: 5_000_000, after: 0 }]);
    clock.advance(300);
    offer(1); // the link is busy until +1000
    expect(left).toHaveLength(1);
    clock.advance(700);
    expect(left[1]).toEqual({ id: 1, at: 5_001_000, now: 5_001_000, after: 0 });
    clock.advance(10_000);
    offer(2); // idle for 9 ms: leaves on arrival
    expect(left[2]!.at).toBe(5_011_000);
  });

  it('a new rate applies from the next packet; unlimited sends what waits at once', () => {
    const { clock, q, left, offer } = queue({ unit: 'pps', value: 1000 }, 10);
    for (let i = 0; i < 5; i++) offer(i);
    clock.advanceTo(1500); // 0 left at 0, 1 at 1000 (the link is busy with it until 2000)
    q.setRate({ unit: 'pps', value: 500 }, clock.nowMicros());
    clock.advanceTo(4000);
    expect(left.map((l) => l.at)).toEqual([0, 1000, 2000, 4000]);
    q.setRate(undefined, clock.nowMicros());
    expect(left.map((l) => l.id)).toEqual([0, 1, 2, 3, 4]);
    expect(left[4]!.at).toBe(4000);
    expect(clock.pending).toBe(0);
  });
});

describe('PortQueue capacity', () => {
  it('tail-drops exactly the packets beyond the capacity, and admits again as it drains', () => {
    const { clock, q, left, offer } = queue({ unit: 'pps', value: 100 }, 5);
    // All at once: the first leaves on arrival, 5 wait (depths 0..4), the other 14 are refused.
    const depths = Array.from({ length: 20 }, (_, i) => offer(i));
    expect(depths).toEqual([0, 0, 1, 2, 3, 4, ...Array<number>(14).fill(-1)]);
    expect(q.stats()).toMatchObject({ depth: 5, maxDepth: 5, enqueued: 6, departed: 1, tailDrops: 14 });
    clock.advanceTo(10_000); // one more left: room for one
    expect(offer(20)).toBe(4);
    expect(offer(21)).toBe(-1);
    clock.advanceTo(1e6);
    expect(left.map((l) => l.id)).toEqual([0, 1, 2, 3, 4, 5, 20]);
    expect(q.stats()).toMatchObject({ depth: 0, enqueued: 7, departed: 7, tailDrops: 15 });
  });

  it('deq depth counts the packets still behind; flush drops them and cancels the timer', () => {
    const { clock, q, left, offer } = queue({ unit: 'pps', value: 1000 }, 10);
    for (let i = 0; i < 4; i++) offer(i);
    clock.advanceTo(1000);
    expect(left.map((l) => l.after)).toEqual([0, 2]);
    expect(q.flush()).toBe(2);
    expect(clock.pending).toBe(0);
    clock.advanceTo(10_000);
    expect(left).toHaveLength(2);
    expect(q.stats()).toMatchObject({ depth: 0, flushed: 2 });
  });

  it('a smaller capacity keeps what is queued and refuses new packets until it drains below', () => {
    const { clock, q, offer } = queue({ unit: 'pps', value: 1000 }, 10);
    for (let i = 0; i < 6; i++) offer(i); // 5 wait
    q.setCapacity(2);
    expect(q.depth).toBe(5);
    expect(offer(6)).toBe(-1);
    clock.advanceTo(3000); // 3 more left: 2 wait
    expect(offer(7)).toBe(-1);
    clock.advanceTo(4000);
    expect(offer(8)).toBe(1);
  });
});
