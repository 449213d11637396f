// The pass layout of docs/rina.md §1, checked for the properties the ToR and
// the senders rely on rather than for its formulas: every chunk holds its
// values once, a ToR's copies are used strictly in turn in the senders'
// order (also from one pass to the next), round i's slot was last used by
// round i − w, and a member's round k of a chunk comes after its
// predecessor's round k − 1 in that order.
import { describe, expect, it } from 'vitest';
import { PassLayout } from '../../../src/agent/rina/pass-layout.js';

const shapes: [number, number, number, number][] = [];
for (const L of [1, 7, 64, 1000, 4097]) for (const R of [1, 2, 3, 5]) for (const E of [8, 64]) for (const W of [1, 3, 16]) shapes.push([L, R, E, W]);

describe.each(shapes)('L=%i R=%i E=%i W=%i', (L, R, E, W) => {
  const layout = new PassLayout(L, R, E, W);
  const { chunks, window: w } = layout;

  it('covers every value once, with the window within the pool and chunks a multiple of 2w', () => {
    const hits = new Uint8Array(L);
    for (let g = 0; g < R; g++) for (let c = 0; c < chunks; c++) for (let k = 0; k < layout.count(g, c); k++) hits[layout.start(g, c) + k]!++;
    expect(hits.every((h) => h === 1)).toBe(true);
    expect(w).toBeLessThanOrEqual(W);
    expect(chunks % (2 * w)).toBe(0);
    expect(chunks - Math.max(1, Math.ceil(Math.ceil(L / R) / E))).toBeLessThan(2 * Math.ceil(chunks / (2 * w)));
  });

  it('orders rounds one to one, each copy used in turn, the slot last used w places before', () => {
    const seen = new Set<number>();
    const lastSet = new Map<number, number>();
    for (let i = 0; i < R * chunks; i++) {
      const k = layout.rowAt(R, i);
      const c = layout.chunkAt(R, i);
      expect(layout.order(R, k, c)).toBe(i);
      seen.add(i);
      const slot = layout.slot(c);
      const set = layout.set(k, c);
      if (lastSet.has(slot)) expect(set).not.toBe(lastSet.get(slot));
      lastSet.set(slot, set);
      if (i >= w) expect(layout.slot(layout.chunkAt(R, i - w))).toBe(slot);
    }
    expect(seen.size).toBe(R * chunks);
    // The next pass starts every slot in set 0: the last use of each was set 1.
    for (const set of lastSet.values()) expect(set).toBe(1);
  });

  it('puts the predecessor\'s round k − 1 of a chunk before our round k, in the other set of the same slot', () => {
    for (let k = 1; k < R; k++) {
      for (let c = 0; c < chunks; c++) {
        expect(layout.order(R, k - 1, c)).toBeLessThan(layout.order(R, k, c));
        expect(layout.set(k - 1, c)).not.toBe(layout.set(k, c));
      }
    }
  });
});
