import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../src/util/seeded-random.js';
import { bytesToBits, readBits, toSigned, wrap, writeBits } from '../../../src/switch/pipeline/bits.js';

/** Reference: one bit at a time, as a bigint. */
function slowRead(buf: Uint8Array, offset: number, width: number): bigint {
  let v = 0n;
  for (let i = 0; i < width; i++) v = (v << 1n) | BigInt((buf[(offset + i) >>> 3]! >>> (7 - ((offset + i) & 7))) & 1);
  return v;
}

describe('bit fields on the wire', () => {
  it('readBits and writeBits agree with a bit-by-bit reference for every offset and width up to 80', () => {
    const rng = new SeededRandom(11);
    for (let trial = 0; trial < 3000; trial++) {
      const buf = Buffer.alloc(16);
      for (let i = 0; i < buf.length; i++) buf[i] = Math.floor(rng.nextFloat() * 256);
      const width = 1 + Math.floor(rng.nextFloat() * 80);
      const offset = Math.floor(rng.nextFloat() * (128 - width));
      const read = readBits(buf, offset, width);
      expect(typeof read).toBe(width > 32 ? 'bigint' : 'number');
      expect(BigInt(read)).toBe(slowRead(buf, offset, width));
      const before = Buffer.from(buf);
      let value = 0n;
      for (let i = 0; i < width; i++) value = (value << 1n) | (rng.nextFloat() < 0.5 ? 1n : 0n);
      writeBits(buf, offset, width, width > 32 ? value : Number(value));
      expect(slowRead(buf, offset, width)).toBe(value);
      // Bits around the field are untouched.
      expect(slowRead(buf, 0, offset)).toBe(slowRead(before, 0, offset));
      expect(slowRead(buf, offset + width, 128 - offset - width)).toBe(slowRead(before, offset + width, 128 - offset - width));
    }
  });

  it('wraps and reads signed values exactly at 32 and 64 bits', () => {
    expect(wrap(-1, 32)).toBe(0xffffffff);
    expect(wrap(2 ** 40 + 5, 32)).toBe(5);
    expect(wrap(-1n, 64)).toBe(0xffffffffffffffffn);
    expect(wrap(0x1_0000_0001n, 8)).toBe(1);
    expect(toSigned(0xff, 8)).toBe(-1n);
    expect(toSigned(0x8000000000000000n, 64)).toBe(-(2n ** 63n));
  });

  it('bytesToBits reads any number of bytes and wraps to the width: numbers up to 32 bits, bigints beyond', () => {
    const random = new SeededRandom(7);
    for (let round = 0; round < 500; round++) {
      const bytes = Uint8Array.from({ length: random.nextInt(13) }, () => random.nextInt(256));
      const width = 1 + random.nextInt(80);
      let value = 0n;
      for (const b of bytes) value = (value << 8n) | BigInt(b);
      const expected = BigInt.asUintN(width, value);
      expect(bytesToBits(bytes, width)).toBe(width > 32 ? expected : Number(expected));
    }
  });
});
