import { describe, expect, it } from 'vitest';
import { BitPacker, packFields } from '../../../src/switch/externs/bit-packer.js';

const hex = (fields: [number | bigint, number][]): string => packFields(fields).toString('hex');

describe('field-list packing (MSB first, BMv2 order)', () => {
  it('packs byte-aligned fields big-endian', () => {
    expect(hex([[0x0a000001, 32], [0x1234, 16], [0x11, 8]])).toBe('0a000001123411');
    expect(hex([[0xaabbccddeeff, 48]])).toBe('aabbccddeeff');
    expect(hex([[0xffffffffffffn, 48], [0x0102030405060708n, 64]])).toBe('ffffffffffff0102030405060708');
  });

  it('packs unaligned fields bit by bit and pads the last byte with zeros on the right', () => {
    expect(hex([[0x1, 4], [0x23, 8], [0x4, 4]])).toBe('1234');
    expect(hex([[0x1ff, 9], [0, 7]])).toBe('ff80');
    expect(hex([[0b101, 3]])).toBe('a0');
    expect(hex([[1, 1], [0, 1], [1, 1], [0x1ff, 9]])).toBe('bff0');
    expect(hex([[0x3, 2], [0xabcdef, 24]])).toBe('eaf37bc0');
    // A 9-bit port, then a 48-bit MAC starting mid-byte.
    expect(hex([[0x101, 9], [0xaabbccddeeff, 48]])).toBe('80d55de66ef77f80');
  });

  it('writes negative values as two\'s complement and cuts values to their width', () => {
    expect(hex([[-1, 8]])).toBe('ff');
    expect(hex([[-2, 12]])).toBe('ffe0');
    expect(hex([[-1, 40]])).toBe('ffffffffff');
    expect(hex([[-2n, 72]])).toBe('fffffffffffffffffe');
    expect(hex([[0x1ff, 8]])).toBe('ff');
    expect(hex([[0x1_0000_0001, 33]])).toBe('8000000080');
    expect(hex([[2 ** 60, 64]])).toBe('1000000000000000');
  });

  it('packs wide bigint fields of any width', () => {
    const v = 0x0102030405060708090a0b0c0d0e0f10n;
    expect(hex([[v, 128]])).toBe('0102030405060708090a0b0c0d0e0f10');
    expect(hex([[1, 4], [v, 128], [0xf, 4]])).toBe('10102030405060708090a0b0c0d0e0f10f');
    expect(hex([[1n, 65]])).toBe('000000000000000080');
  });

  it('reuses its buffer: a shorter list after reset carries no stale bits, and the buffer grows when needed', () => {
    const p = new BitPacker(2);
    p.push(0xffffffff, 32).push(0xffffffff, 32).push(0xff, 8);
    expect(p.byteLength).toBe(9);
    p.reset().push(1, 4);
    expect(p.bitLength).toBe(4);
    expect(p.byteLength).toBe(1);
    expect(p.bytes()[0]).toBe(0x10);
    expect(p.toBuffer().toString('hex')).toBe('10');
    p.push(0, 0); // zero-width fields add nothing
    expect(p.bitLength).toBe(4);
  });

  it('refuses widths and values that are not integers', () => {
    const p = new BitPacker();
    expect(() => p.push(1, -1)).toThrow(RangeError);
    expect(() => p.push(1.5, 8)).toThrow(RangeError);
    expect(() => p.push(1, 2.5)).toThrow(RangeError);
  });
});
