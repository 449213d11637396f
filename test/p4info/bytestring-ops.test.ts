// The byte-wise masks and comparisons the client's match encoding uses, held to bigint
// arithmetic (the spec's definitions: an LPM prefix keeps the top bits, a ternary value
// is ANDed with its mask, a range is ordered as unsigned numbers) on random values.
import { describe, expect, test } from 'vitest';
import { andBytes, bigIntToBytes, bytesToBigInt, clearOutsidePrefix, compareBytes, fullMask, isFullMask, prefixMask } from '../../src/p4info/index.js';
import { mulberry32 } from '../helpers/mulberry32.js';

const random = mulberry32(0x5eed);
const randomBits = (bitwidth: number): bigint => {
  let v = 0n;
  for (let i = 0; i < bitwidth; i++) if (random() < 0.5) v |= 1n << BigInt(i);
  return v;
};
/** The canonical bytes of `v`, sometimes with leading zero bytes (receivers accept those). */
const bytesOf = (v: bigint, padded: boolean): Buffer => (padded ? Buffer.concat([Buffer.alloc(1 + Math.floor(random() * 3)), bigIntToBytes(v)]) : bigIntToBytes(v));
const WIDTHS = [1, 3, 7, 8, 9, 12, 16, 20, 31, 32, 33, 48, 64, 65, 128];

describe('byte-wise bytestring operations agree with bigint arithmetic', () => {
  test('clearOutsidePrefix is the value masked with prefixMask, canonical', () => {
    for (const width of WIDTHS) {
      for (let round = 0; round < 40; round++) {
        const value = randomBits(width);
        const prefixLen = Math.floor(random() * (width + 1));
        const out = clearOutsidePrefix(bigIntToBytes(value), prefixLen, width);
        expect(out).toEqual(bigIntToBytes(value & prefixMask(prefixLen, width)));
      }
    }
  });

  test('andBytes is a & b, canonical, whatever the lengths', () => {
    for (const width of WIDTHS) {
      for (let round = 0; round < 40; round++) {
        const [a, m] = [randomBits(width), randomBits(Math.ceil(random() * width))];
        expect(andBytes(bytesOf(a, random() < 0.3), bytesOf(m, random() < 0.3))).toEqual(bigIntToBytes(a & m));
      }
    }
  });

  test('compareBytes orders as unsigned numbers, leading zeros or not', () => {
    for (const width of WIDTHS) {
      for (let round = 0; round < 40; round++) {
        const x = randomBits(width);
        const y = random() < 0.2 ? x : randomBits(width);
        const got = Math.sign(compareBytes(bytesOf(x, random() < 0.3), bytesOf(y, random() < 0.3)));
        expect(got).toBe(x === y ? 0 : x > y ? 1 : -1);
      }
    }
  });

  test('isFullMask is equality with fullMask', () => {
    for (const width of [0, ...WIDTHS]) {
      const full = fullMask(width);
      expect(isFullMask(bigIntToBytes(full), width)).toBe(true);
      expect(isFullMask(bytesOf(full, true), width)).toBe(true);
      if (width > 0) {
        expect(isFullMask(bigIntToBytes(full >> 1n), width)).toBe(false);
        expect(isFullMask(bigIntToBytes(full ^ (1n << BigInt(Math.floor(random() * width)))), width)).toBe(false);
        expect(isFullMask(bigIntToBytes((full << 1n) | 1n), width)).toBe(false);
      }
      expect(bytesToBigInt(bigIntToBytes(full))).toBe(full);
    }
  });
});
