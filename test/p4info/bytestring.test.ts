import { describe, expect, test } from 'vitest';
import { bigIntToBytes, bitLength, bytesEqual, bytesToBigInt, canonicalize, fullMask, padToWidth, prefixMask } from '../../src/p4info/index.js';

const b = (...bytes: number[]): Buffer => Buffer.from(bytes);

describe('canonicalize (P4Runtime spec: accept zero-padded, refuse empty and too wide)', () => {
  test('a canonical string comes back as it is', () => {
    const input = b(0x01, 0xff);
    expect(canonicalize(input, 9)).toBe(input);
    expect(canonicalize(b(0), 8)).toEqual(b(0));
  });

  test('zero padding is removed; zero stays one byte', () => {
    expect(canonicalize(b(0, 0, 0x05), 9)).toEqual(b(0x05));
    expect(canonicalize(b(0, 0, 0), 32)).toEqual(b(0));
    expect(canonicalize(new Uint8Array([0, 0x80]), 8)).toEqual(b(0x80));
    expect(Buffer.isBuffer(canonicalize(new Uint8Array([0, 1]), 8))).toBe(true);
  });

  test('empty and too-wide inputs are refused, at exactly one bit over', () => {
    expect(canonicalize(new Uint8Array(), 8)).toBe('empty');
    expect(canonicalize(b(0x01, 0xff), 9)).not.toBe('too-wide');
    expect(canonicalize(b(0x02, 0x00), 9)).toBe('too-wide');
    expect(canonicalize(b(0, 0, 0x02, 0x00), 9)).toBe('too-wide');
    expect(canonicalize(b(0xff), 7)).toBe('too-wide');
  });
});

describe('bit and byte helpers', () => {
  test('bitLength counts significant bits', () => {
    expect(bitLength(new Uint8Array())).toBe(0);
    expect(bitLength(b(0, 0))).toBe(0);
    expect(bitLength(b(1))).toBe(1);
    expect(bitLength(b(0x80))).toBe(8);
    expect(bitLength(b(0, 0x01, 0x00))).toBe(9);
    expect(bitLength(b(0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(48);
  });

  test('prefixMask and fullMask', () => {
    expect(prefixMask(24, 32)).toBe(0xffffff00n);
    expect(prefixMask(32, 32)).toBe(0xffffffffn);
    expect(prefixMask(0, 32)).toBe(0n);
    expect(prefixMask(1, 9)).toBe(0x100n);
    expect(prefixMask(64, 128)).toBe(((1n << 64n) - 1n) << 64n);
    expect(() => prefixMask(33, 32)).toThrow(RangeError);
    expect(() => prefixMask(-1, 32)).toThrow(RangeError);
    expect(fullMask(9)).toBe(0x1ffn);
    expect(fullMask(0)).toBe(0n);
    expect(() => fullMask(-1)).toThrow(RangeError);
  });

  test('bigint conversions', () => {
    expect(bigIntToBytes(0n)).toEqual(b(0));
    expect(bigIntToBytes(0x1ffn)).toEqual(b(0x01, 0xff));
    expect(bytesToBigInt(b(0x01, 0x00, 0x00))).toBe(65536n);
    expect(() => bigIntToBytes(-1n)).toThrow(RangeError);
  });

  test('padToWidth pads to the full byte width, as the P4 tutorials send', () => {
    expect(padToWidth(b(0x05), 9)).toEqual(b(0, 0x05));
    expect(padToWidth(b(0, 0, 0x0a), 32)).toEqual(b(0, 0, 0, 0x0a));
    expect(padToWidth(b(0x0a), 8)).toEqual(b(0x0a));
    expect(() => padToWidth(b(0x02, 0), 9)).toThrow(RangeError);
  });

  test('bytesEqual', () => {
    expect(bytesEqual(b(1, 2), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(b(1, 2), b(1))).toBe(false);
    expect(bytesEqual(b(0, 1), b(1))).toBe(false);
  });
});
