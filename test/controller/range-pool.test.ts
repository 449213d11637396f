import { describe, expect, test } from 'vitest';
import { RangePool } from '../../src/controller/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';

describe('RangePool', () => {
  test('first fit, gaps, release', () => {
    const pool = new RangePool(10, 29);
    expect(pool.capacity).toBe(20);
    expect(pool.findFirstFit(5)).toBe(10);
    pool.take(10, 5);
    pool.take(20, 5);
    expect(pool.findFirstFit(5)).toBe(15);
    expect(pool.findFirstFit(6)).toBeUndefined();
    expect(pool.findFirstFit(5)).toBe(15); // finding takes nothing
    expect([pool.free, pool.largestFree]).toEqual([10, 5]);
    pool.release(10, 5);
    expect(pool.findFirstFit(10)).toBe(10);
    expect(pool.spans()).toEqual([{ start: 20, size: 5 }]);
  });

  test('misuse is a RangeError and changes nothing', () => {
    const pool = new RangePool(0, 9);
    pool.take(2, 3);
    expect(() => pool.take(4, 2)).toThrow(RangeError);
    expect(() => pool.take(8, 3)).toThrow(RangeError);
    expect(() => pool.release(2, 2)).toThrow(RangeError);
    expect(() => pool.findFirstFit(0)).toThrow(RangeError);
    expect(() => new RangePool(5, 4)).toThrow(RangeError);
    expect(pool.spans()).toEqual([{ start: 2, size: 3 }]);
  });

  test('seeded take/release sequences keep the books straight', () => {
    const rng = new SeededRandom('range-pool');
    const pool = new RangePool(0, 255);
    const held: { start: number; size: number }[] = [];
    for (let step = 0; step < 2000; step++) {
      if (held.length > 0 && rng.nextInt(3) === 0) {
        const [span] = held.splice(rng.nextInt(held.length), 1);
        pool.release(span!.start, span!.size);
      } else {
        const size = 1 + rng.nextInt(32);
        const start = pool.findFirstFit(size);
        if (start === undefined) {
          expect(pool.largestFree).toBeLessThan(size);
          continue;
        }
        pool.take(start, size);
        held.push({ start, size });
      }
      expect(pool.used).toBe(held.reduce((sum, s) => sum + s.size, 0));
      const cells = new Set<number>();
      for (const s of held) for (let i = s.start; i < s.start + s.size; i++) cells.add(i);
      expect(cells.size).toBe(pool.used);
    }
  });
});
