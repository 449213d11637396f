import { describe, expect, it } from 'vitest';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import { CLUSTER_BLOCKS, nonZeroBlockMask, sparseSeededTensor, SPARSITY_PATTERNS, type Sparsity } from '../../../src/agent/baseline/sparse-tensor.js';

const count = (mask: Uint8Array): number => mask.reduce((n, bit) => n + bit, 0);

/** Blocks of `t` with some non-zero element, counted straight from the values. */
function blocksWithValues(t: Float32Array, block: number): number[] {
  const out: number[] = [];
  for (let b = 0; b * block < t.length; b++) if (t.subarray(b * block, (b + 1) * block).some((x) => x !== 0)) out.push(b);
  return out;
}

describe('sparseSeededTensor', () => {
  it.each(SPARSITY_PATTERNS)('%s keeps exactly round((1 − sparsity) · blocks) blocks, holding the dense values', (pattern) => {
    const length = 1000 * 8 + 3; // 1001 blocks of 8, the last one short
    const s: Sparsity = { sparsity: 0.9, pattern, blockElements: 8 };
    const dense = seededTensor(length, 7, 2);
    const sparse = sparseSeededTensor(length, 7, 2, 4, s);
    const kept = blocksWithValues(sparse, 8);
    expect(kept.length).toBe(Math.round(0.1 * 1001));
    for (let i = 0; i < length; i++) expect(sparse[i] === 0 || sparse[i] === dense[i]).toBe(true);
    for (const b of kept) expect(Array.from(sparse.subarray(b * 8, (b + 1) * 8))).toEqual(Array.from(dense.subarray(b * 8, (b + 1) * 8)));
  });

  it('sparsity 0 is the dense tensor and sparsity 1 is all zeros', () => {
    for (const pattern of SPARSITY_PATTERNS) {
      expect(sparseSeededTensor(500, 's', 1, 3, { sparsity: 0, pattern, blockElements: 16 })).toEqual(seededTensor(500, 's', 1));
      expect(sparseSeededTensor(500, 's', 1, 3, { sparsity: 1, pattern, blockElements: 16 }).every((x) => x === 0)).toBe(true);
    }
  });

  it('is the same for the same seed and rank, and differs between ranks', () => {
    const s: Sparsity = { sparsity: 0.5, pattern: 'random', blockElements: 4 };
    expect(sparseSeededTensor(4096, 3, 0, 2, s)).toEqual(sparseSeededTensor(4096, 3, 0, 2, s));
    expect(nonZeroBlockMask(1024, s, 3, 0, 2)).not.toEqual(nonZeroBlockMask(1024, s, 3, 1, 2));
  });

  it('per-worker gives disjoint runs while density × workers ≤ 1', () => {
    const s: Sparsity = { sparsity: 0.75, pattern: 'per-worker', blockElements: 1 };
    const masks = [0, 1, 2, 3].map((rank) => nonZeroBlockMask(400, s, 1, rank, 4));
    const union = new Uint8Array(400);
    for (const m of masks) m.forEach((bit, b) => (union[b]! += bit));
    expect(Math.max(...union)).toBe(1);
    expect(count(union.map((n) => (n > 0 ? 1 : 0)))).toBe(400);
    // Each rank's run starts at rank · blocks / N.
    expect(masks[2]!.indexOf(1)).toBe(200);
  });

  it('shared gives every rank the same blocks, with its own values in them', () => {
    const s: Sparsity = { sparsity: 0.9, pattern: 'shared', blockElements: 4 };
    const masks = [0, 1, 2].map((rank) => nonZeroBlockMask(500, s, 'x', rank, 3));
    expect(masks[1]).toEqual(masks[0]);
    expect(masks[2]).toEqual(masks[0]);
    expect(count(masks[0]!)).toBe(50);
    expect(sparseSeededTensor(2000, 'x', 0, 3, s)).not.toEqual(sparseSeededTensor(2000, 'x', 1, 3, s));
  });

  it('clustered blocks come in whole runs of CLUSTER_BLOCKS', () => {
    const s: Sparsity = { sparsity: 0.5, pattern: 'clustered', blockElements: 2 };
    const mask = nonZeroBlockMask(CLUSTER_BLOCKS * 20, s, 9, 0, 2);
    expect(count(mask)).toBe(CLUSTER_BLOCKS * 10);
    for (let run = 0; run < 20; run++) {
      const bits = mask.subarray(run * CLUSTER_BLOCKS, (run + 1) * CLUSTER_BLOCKS);
      expect([0, CLUSTER_BLOCKS]).toContain(count(bits));
    }
  });

  it('refuses a sparsity outside 0..1 or a bad block', () => {
    expect(() => nonZeroBlockMask(10, { sparsity: 1.5, pattern: 'random', blockElements: 1 }, 1, 0, 1)).toThrow(RangeError);
    expect(() => nonZeroBlockMask(10, { sparsity: 0.5, pattern: 'random', blockElements: 0 }, 1, 0, 1)).toThrow(RangeError);
    expect(() => nonZeroBlockMask(10, { sparsity: 0.5, pattern: 'random', blockElements: 1 }, 1, 2, 2)).toThrow(RangeError);
  });
});
