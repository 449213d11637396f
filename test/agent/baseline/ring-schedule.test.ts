import { describe, expect, it } from 'vitest';
import { RingSchedule } from '../../../src/agent/baseline/ring-schedule.js';

const sizes = [1, 2, 3, 4, 8];
const lengths = (n: number): number[] => [0, 1, n - 1, n, n + 1, 1000003];

describe('RingSchedule', () => {
  it.each(sizes)('cuts the tensor into n contiguous chunks differing by at most one element (n = %i)', (n) => {
    for (const length of lengths(n)) {
      const s = new RingSchedule(length, n, 0, 10);
      let next = 0;
      const chunkLengths: number[] = [];
      for (let c = 0; c < n; c++) {
        expect(s.chunkStart(c)).toBe(next);
        next += s.chunkLength(c);
        chunkLengths.push(s.chunkLength(c));
      }
      expect(next).toBe(length);
      expect(Math.max(...chunkLengths) - Math.min(...chunkLengths)).toBeLessThanOrEqual(1);
    }
  });

  it('has 2(n-1) steps', () => {
    expect(sizes.map((n) => new RingSchedule(10, n, 0, 1).steps)).toEqual([0, 2, 4, 6, 14]);
  });

  it.each(sizes.filter((n) => n > 1))('each rank receives what its predecessor sends, and forwards it the next step (n = %i)', (n) => {
    for (let r = 0; r < n; r++) {
      const me = new RingSchedule(100, n, r, 7);
      const predecessor = new RingSchedule(100, n, (r + n - 1) % n, 7);
      for (let step = 0; step < me.steps; step++) {
        expect(me.recvChunk(step)).toBe(predecessor.sendChunk(step));
        if (step > 0) expect(me.sendChunk(step)).toBe(me.recvChunk(step - 1));
      }
      // After reduce-scatter the chunk received last is the one this rank owns.
      expect(me.recvChunk(n - 2)).toBe(me.ownedChunk());
    }
  });

  it('ends with every rank holding the full sum when simulated step by step', () => {
    for (const n of sizes) {
      for (const length of lengths(n).filter((l) => l < 1000)) {
        // Integer inputs make the sum exact, so this checks the data movement alone.
        const data = Array.from({ length: n }, (_, r) => Array.from({ length }, (_, i) => (r + 1) * 1000 + i));
        const schedules = Array.from({ length: n }, (_, r) => new RingSchedule(length, n, r, 3));
        for (let step = 0; step < (schedules[0]?.steps ?? 0); step++) {
          const sent = schedules.map((s, r) => {
            const c = s.sendChunk(step);
            return data[r]!.slice(s.chunkStart(c), s.chunkStart(c) + s.chunkLength(c));
          });
          schedules.forEach((s, r) => {
            const c = s.recvChunk(step);
            const incoming = sent[(r + n - 1) % n]!;
            incoming.forEach((v, i) => {
              const at = s.chunkStart(c) + i;
              data[r]![at] = s.isReduceStep(step) ? data[r]![at]! + v : v;
            });
          });
        }
        const expected = Array.from({ length }, (_, i) => Array.from({ length: n }, (_, r) => (r + 1) * 1000 + i).reduce((a, b) => a + b, 0));
        for (const copy of data) expect(copy).toEqual(expected);
      }
    }
  });

  it('counts pieces with a short last piece and none for an empty chunk', () => {
    const s = new RingSchedule(23, 2, 0, 5); // chunks of 11 and 12
    expect([s.pieceCount(0), s.pieceLength(0, 2), s.pieceCount(1), s.pieceLength(1, 2)]).toEqual([3, 1, 3, 2]);
    expect(new RingSchedule(1, 4, 0, 5).pieceCount(0)).toBe(0);
  });

  it('rejects impossible shapes as programming errors', () => {
    expect(() => new RingSchedule(10, 0, 0, 1)).toThrow(RangeError);
    expect(() => new RingSchedule(10, 2, 2, 1)).toThrow(RangeError);
    expect(() => new RingSchedule(-1, 2, 0, 1)).toThrow(RangeError);
    expect(() => new RingSchedule(10, 2, 0, 0)).toThrow(RangeError);
  });
});
