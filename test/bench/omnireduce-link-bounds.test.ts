// The OmniReduce density sweep's link bounds, worked out by hand on tiny
// layouts from the protocol (docs/omnireduce.md) and checked against the
// bytes and rounds the real worker reported on loopback for a dense 1 MiB
// tensor (docs/omnireduce.md, "Running it": 1,061,632 bytes of OmniReduce
// messages and 1088 rounds per worker at 4 workers, 64 slots, blocks of 256).
import { describe, expect, test } from 'vitest';
import { linkBoundMs, omniReduceBusiestLink, omniReduceWire, ringLinkBytes, splitBlocks, switchMlLinkBytes, UDP_FRAME_OVERHEAD } from '../../bench/omnireduce-link-bounds.js';

const mask = (...bits: number[]): Uint8Array => Uint8Array.from(bits);

describe('OmniReduce link bytes', () => {
  test('2 workers, 4 blocks of 2 values, 2 slots: rounds and frames by hand', () => {
    // Slot 0 holds blocks 0 and 2, slot 1 blocks 1 and 3. Worker 0 holds block 2; worker 1 none.
    // Slot 0: priming, block 0 (opens the slot), block 2 (worker 0's): 3 rounds. Slot 1: priming, block 1: 2 rounds.
    const wire = omniReduceWire([mask(0, 0, 1, 0), mask(0, 0, 0, 0)], { blocks: 4, blockElements: 2, slots: 2 });
    const message = UDP_FRAME_OVERHEAD + 12; // 54 bytes with no values; values add 4 bytes each
    expect(wire.rounds).toBe(5);
    // Worker 0 sends values for blocks 0, 2 and 1; worker 1 for blocks 0 and 1; every reply but the two priming ones has 2 values.
    expect(wire.up).toEqual([5 * message + 3 * 8, 5 * message + 2 * 8]);
    expect(wire.down).toBe(5 * message + 3 * 8);
    // The switch multicasts: the busiest worker link. The host aggregator's link: both workers' messages in, two replies out.
    expect(omniReduceBusiestLink('switch', wire)).toBe(294);
    expect(omniReduceBusiestLink('hosts', wire)).toBe(Math.max(294 + 286, 2 * 294));
  });

  test('a block both workers hold is one round; one held by nobody is none', () => {
    const both = omniReduceWire([mask(1, 0, 1, 0), mask(0, 0, 1, 0)], { blocks: 4, blockElements: 1, slots: 1 });
    const none = omniReduceWire([mask(1, 0, 0, 0), mask(0, 0, 0, 0)], { blocks: 4, blockElements: 1, slots: 1 });
    expect([both.rounds, none.rounds]).toEqual([3, 2]);
  });

  test('dense 1 MiB, 4 workers, 64 slots of blocks of 256: the worker\'s own count of bytes and rounds, plus the frames\' headers', () => {
    const blocks = 1024;
    const dense = Array.from({ length: 4 }, () => new Uint8Array(blocks).fill(1));
    const wire = omniReduceWire(dense, { blocks, blockElements: 256, slots: 64 });
    expect(wire.rounds).toBe(1088);
    expect(wire.up).toEqual([0, 1, 2, 3].map(() => 1_061_632 + 1088 * UDP_FRAME_OVERHEAD));
    expect(wire.down).toBe(wire.up[0]);
  });

  test('a layout the helper does not cover is a RangeError', () => {
    expect(() => omniReduceWire([mask(1, 1)], { blocks: 2, blockElements: 8, slots: 3 })).toThrow(RangeError);
    expect(() => omniReduceWire([mask(1)], { blocks: 2, blockElements: 8, slots: 1 })).toThrow(RangeError);
    expect(() => splitBlocks(mask(1), 0)).toThrow(RangeError);
  });

  test('a mask at half the block size: each block in both halves', () => {
    expect([...splitBlocks(mask(0, 1, 1), 2)]).toEqual([0, 0, 1, 1, 1, 1]);
  });
});

describe('dense baselines and milliseconds', () => {
  test('SwitchML: 16 chunks of 64 values plus a pool of 4 priming packets, 312-byte frames', () => {
    expect(switchMlLinkBytes(1024, 4)).toBe(20 * (42 + 14 + 256));
  });

  test('ring: 2(n−1)/n of the tensor in 1514-byte frames of 1448', () => {
    expect(ringLinkBytes(3 * 1448, 2)).toBe(3 * 1514);
    expect(ringLinkBytes(4 * 1448, 4)).toBe(6 * 1514);
    expect(ringLinkBytes(1000, 1)).toBe(0);
  });

  test('1 MB at 1 Mbit/s is 8 s', () => {
    expect(linkBoundMs(1_000_000, 1)).toBe(8000);
  });
});
