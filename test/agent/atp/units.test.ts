import { describe, expect, test } from 'vitest';
import { initialAggregatorIndex } from '../../../src/agent/atp/aggregator-hash.js';
import { layoutAtpJob } from '../../../src/agent/atp/atp-job-layout.js';
import { AtpScale, INT32_MAX } from '../../../src/agent/atp/atp-scale.js';
import { CongestionWindow } from '../../../src/agent/atp/congestion-window.js';
import { findExactCover } from '../../../src/agent/atp/exact-cover.js';

describe('ATP fixed point (docs/atp.md, "Workers")', () => {
  test('the scale: at least ATP’s 10^6 for every n ≤ 10 at ATP’s range of 213; no n workers’ sum can overflow', () => {
    for (let n = 1; n <= 10; n++) expect(new AtpScale(n, 213).factor).toBeGreaterThanOrEqual(1e6);
    for (const n of [1, 2, 3, 7, 8, 31, 961]) {
      const scale = new AtpScale(n, 213);
      expect(scale.maxMagnitude).toBe(Math.floor(INT32_MAX / n));
      expect(n * scale.maxMagnitude).toBeLessThanOrEqual(INT32_MAX);
    }
  });

  test('a value past the range makes the packet overflow; one at the range does not', () => {
    const scale = new AtpScale(4, 2);
    const view = new DataView(new ArrayBuffer(16));
    expect(scale.quantiseInto(new Float32Array([2, -2, 1.5, 0]), 0, 4, view, 0)).toBe(true);
    expect(view.getInt32(0)).toBe(scale.maxMagnitude);
    expect(view.getInt32(4)).toBe(-scale.maxMagnitude);
    expect(scale.quantiseInto(new Float32Array([0, 2.0000005]), 0, 4, view, 0)).toBe(false);
    // Zero padding past the tensor's end.
    expect(scale.quantiseInto(new Float32Array([1]), 0, 4, view, 0)).toBe(true);
    expect([view.getInt32(4), view.getInt32(8), view.getInt32(12)]).toEqual([0, 0, 0]);
  });
});

describe('the congestion window (AIMD on ECN)', () => {
  test('grows by about one packet per window of unmarked ACKs, up to the maximum', () => {
    const w = new CongestionWindow(4, 1, 8);
    let acked = 0;
    for (let i = 0; i < 4; i++) w.onAck(false, acked++, 10);
    expect(w.size).toBe(4);
    for (let i = 0; i < 4; i++) w.onAck(false, acked++, 10);
    expect(w.size).toBe(5);
    for (let i = 0; i < 1000; i++) w.onAck(false, acked++, 2000);
    expect(w.size).toBe(8);
  });

  test('halves once per window of marks, never below 1', () => {
    const w = new CongestionWindow(16, 1, 100);
    w.onAck(true, 0, 15);
    expect(w.size).toBe(8);
    // Marks on packets sent before the halving (up to 15) are the same congestion event.
    for (let s = 1; s <= 15; s++) w.onAck(true, s, 23);
    expect(w.size).toBe(8);
    w.onAck(true, 16, 23);
    expect(w.size).toBe(4);
    for (let s = 17; s < 200; s++) w.onAck(true, s, s);
    expect(w.size).toBe(1);
    expect(w.minReached).toBe(1);
    expect(w.halvings).toBeGreaterThanOrEqual(4);
  });
});

describe('job layout and aggregator hash', () => {
  test('aggregating racks are one level-1 contributor; legacy-rack workers one each', () => {
    const layout = layoutAtpJob([
      { aggregating: true, workers: ['a0', 'a1', 'a2'] },
      { aggregating: false, workers: ['b0', 'b1'] },
      { aggregating: true, workers: ['c0'] },
    ]);
    expect(layout.worldSize).toBe(6);
    expect(layout.contributors.map((c) => c.workers)).toEqual([['a0', 'a1', 'a2'], ['b0'], ['b1'], ['c0']]);
    expect(layout.workers).toEqual([
      { rank: 0, bitmap0Bit: 0, bitmap1Bit: 0, fanIn0: 3, fanIn1: 4 },
      { rank: 1, bitmap0Bit: 1, bitmap1Bit: 0, fanIn0: 3, fanIn1: 4 },
      { rank: 2, bitmap0Bit: 2, bitmap1Bit: 0, fanIn0: 3, fanIn1: 4 },
      { rank: 3, bitmap0Bit: undefined, bitmap1Bit: 1, fanIn0: 0, fanIn1: 4 },
      { rank: 4, bitmap0Bit: undefined, bitmap1Bit: 2, fanIn0: 0, fanIn1: 4 },
      { rank: 5, bitmap0Bit: 0, bitmap1Bit: 3, fanIn0: 1, fanIn1: 4 },
    ]);
    expect(() => layoutAtpJob([{ aggregating: false, workers: Array.from({ length: 32 }, (_, i) => i) }])).toThrow(RangeError);
    expect(() => layoutAtpJob([{ aggregating: true, workers: [] }])).toThrow(RangeError);
  });

  test('the hash spreads positions over the pool and differs between jobs', () => {
    const pool = 1024;
    const a = Array.from({ length: 100 }, (_, p) => initialAggregatorIndex(1, p, pool));
    const b = Array.from({ length: 100 }, (_, p) => initialAggregatorIndex(2, p, pool));
    for (const i of [...a, ...b]) expect(i >= 0 && i < pool && Number.isInteger(i)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(90);
    expect(a.filter((x, p) => x === b[p]).length).toBeLessThan(5);
  });
});

describe('exact cover search', () => {
  const cov = (...masks: number[]) => ({ masks: Uint32Array.from(masks) });
  test('finds the disjoint cover among overlapping pieces, says none when there is none, stops at its budget', () => {
    const full = Uint32Array.from([0b111, 1]);
    const pieces = [cov(0b011, 0), cov(0b110, 1), cov(0b001, 0), cov(0b100, 0), cov(0, 1)];
    expect(findExactCover(pieces, full, 1000)).toEqual({ cover: [0, 3, 4], exhausted: false });
    expect(findExactCover([cov(0b011, 0), cov(0b110, 1)], full, 1000)).toEqual({ cover: undefined, exhausted: false });
    // Every pair of 11 workers: an odd count has no cover by pairs, and the search tree is large.
    const pairs = [];
    for (let i = 0; i < 11; i++) for (let j = i + 1; j < 11; j++) pairs.push(cov((1 << i) | (1 << j)));
    expect(findExactCover(pairs, Uint32Array.from([2 ** 11 - 1]), 50)).toEqual({ cover: undefined, exhausted: true });
  });
});
