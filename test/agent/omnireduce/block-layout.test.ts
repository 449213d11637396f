import { describe, expect, it } from 'vitest';
import { BlockLayout, WorkerBlocks } from '../../../src/agent/omnireduce/block-layout.js';
import { chunkExponents } from '../../../src/agent/switchml/quantisation.js';
import { NEXT_TSI_NONE } from '../../../src/wire/omnireduce.js';

function blocksOf(data: Float32Array, blockSize: number, slots: number, threshold = 0): WorkerBlocks {
  const layout = new BlockLayout(data.length, blockSize, slots);
  const exponents = new Int8Array(layout.blockCount);
  chunkExponents(data, blockSize, exponents);
  return new WorkerBlocks(layout, data, exponents, threshold);
}

describe('OmniReduce block layout', () => {
  it('cuts a tensor into padded blocks assigned to slots round-robin', () => {
    const layout = new BlockLayout(10, 4, 2);
    expect([layout.blockCount, layout.activeSlots]).toEqual([3, 2]);
    expect([0, 1, 2].map((b) => layout.elementsIn(b))).toEqual([4, 4, 2]);
    expect([0, 4, 8].map((tsi) => [layout.inStream(0, tsi), layout.inStream(1, tsi)])).toEqual([[true, false], [false, true], [true, false]]);
    expect(layout.inStream(0, 12)).toBe(false);
    expect(layout.inStream(0, 2)).toBe(false);
    expect(new BlockLayout(5, 8, 16).activeSlots).toBe(1);
  });

  it('names each slot\'s next non-zero block and its exponent; -0 and below-threshold blocks are zero', () => {
    // Blocks of 2, 3 slots: slot 0 holds blocks 0, 3, 6; slot 1 holds 1, 4, 7.
    const data = new Float32Array(16);
    data[6 * 2] = 3; // block 6 (slot 0), exponent 2
    data[4 * 2 + 1] = -0; // block 4 stays zero
    data[7 * 2] = 0.001; // block 7: below a threshold of 0.01
    const exact = blocksOf(data, 2, 3);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((b) => exact.sends(b))).toEqual([true, true, true, false, false, false, true, true]);
    expect(exact.nextAfter(0)).toBe(12);
    expect(exact.exponentAt(12)).toBe(2);
    expect(exact.nextAfter(12)).toBe(NEXT_TSI_NONE);
    expect(exact.nextAfter(2)).toBe(14);
    expect(exact.exponentAt(NEXT_TSI_NONE)).toBe(-127);
    const lossy = blocksOf(data, 2, 3, 0.01);
    expect(lossy.nextAfter(2)).toBe(NEXT_TSI_NONE);
  });
});
