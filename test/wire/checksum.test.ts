import { describe, expect, test } from 'vitest';
import { foldSum, internetChecksum, onesComplementSum, pseudoHeaderSum } from '../../src/wire/index.js';

describe('the Internet checksum', () => {
  test("RFC 1071's worked example: the sum of 00 01 f2 03 f4 f5 f6 f7 folds to ddf2", () => {
    const bytes = Buffer.from('0001f203f4f5f6f7', 'hex');
    expect(foldSum(onesComplementSum(bytes, 0, bytes.length))).toBe(0xddf2);
    expect(internetChecksum(bytes, 0, bytes.length)).toBe(0x220d);
  });

  test('a well-known IPv4 header (192.168.0.1 → 192.168.0.199, UDP) has checksum b861', () => {
    const header = Buffer.from('450000730000400040110000c0a80001c0a800c7', 'hex');
    expect(internetChecksum(header, 0, 20)).toBe(0xb861);
  });

  test('an odd last byte counts as the high byte of a word', () => {
    expect(onesComplementSum(Buffer.from([0x12, 0x34, 0x56]), 0, 3)).toBe(0x1234 + 0x5600);
  });

  test('offsets and partial sums chain', () => {
    const bytes = Buffer.from('ff0001f203f4f5f6f7', 'hex');
    const first = onesComplementSum(bytes, 1, 4);
    expect(internetChecksum(bytes, 5, 4, first)).toBe(0x220d);
  });

  test('folding carries: 0x1fffe → 0xffff, large sums fold completely', () => {
    expect(foldSum(0x1fffe)).toBe(0xffff);
    expect(foldSum(0xffff_ffff)).toBe(0xffff);
    expect(foldSum(2 ** 40 + 5)).toBe(foldSum(foldSum(2 ** 40 + 5)));
    expect(foldSum(2 ** 40 + 5)).toBeLessThanOrEqual(0xffff);
  });

  test('the pseudo-header sum adds address halves, protocol and length', () => {
    expect(pseudoHeaderSum(0x0a000001, 0x0a000002, 17, 10)).toBe(0x0a00 + 0x0001 + 0x0a00 + 0x0002 + 17 + 10);
  });
});
