import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../src/util/seeded-random.js';
import { BitPacker, packFields } from '../../../src/switch/externs/bit-packer.js';
import { csum16, xor16 } from '../../../src/switch/externs/checksum16.js';
import { CRC16_BMV2, CRC32_BMV2, CrcEngine, type CrcParameters } from '../../../src/switch/externs/crc.js';
import {
  HASH_ALGORITHMS,
  createHashFunction,
  hashInRange,
  hashInRangeBigInt,
  isHashAlgorithm,
  type CustomCrcHash,
} from '../../../src/switch/externs/hash-algorithms.js';

const CHECK = Buffer.from('123456789', 'ascii');

/** A bit-at-a-time CRC straight from the textbook definition, to check the table-driven engine. */
function referenceCrc(p: CrcParameters, data: Uint8Array): number {
  const top = 2 ** (p.width - 1);
  const modulus = 2 ** p.width;
  let reg = p.init;
  for (const byte of data) {
    for (let b = 0; b < 8; b++) {
      const bit = p.reflectData ? (byte >> b) & 1 : (byte >> (7 - b)) & 1;
      const msb = reg >= top ? 1 : 0;
      reg = (reg * 2) % modulus;
      if ((msb ^ bit) === 1) reg = (reg ^ p.polynomial) >>> 0;
    }
  }
  if (p.reflectRemainder) {
    let r = 0;
    for (let i = 0; i < p.width; i++) r = r * 2 + (Math.floor(reg / 2 ** i) & 1);
    reg = r;
  }
  return (reg ^ p.xorOut) >>> 0;
}

describe('CRC engine (BMv2 calculations.cpp)', () => {
  it('gives the catalogued check values over "123456789"', () => {
    // BMv2's crc16 is CRC-16/ARC; its crc32 is the IEEE CRC-32.
    expect(new CrcEngine(CRC16_BMV2).compute(CHECK)).toBe(0xbb3d);
    expect(new CrcEngine(CRC32_BMV2).compute(CHECK)).toBe(0xcbf43926);
    // Other parameter sets, as crc16_custom/crc32_custom may be configured.
    const catalogue: [CrcParameters, number][] = [
      [{ width: 16, polynomial: 0x1021, init: 0xffff, xorOut: 0, reflectData: false, reflectRemainder: false }, 0x29b1], // CCITT-FALSE
      [{ width: 16, polynomial: 0x1021, init: 0, xorOut: 0, reflectData: false, reflectRemainder: false }, 0x31c3], // XMODEM
      [{ width: 16, polynomial: 0x1021, init: 0, xorOut: 0, reflectData: true, reflectRemainder: true }, 0x2189], // KERMIT
      [{ width: 32, polynomial: 0x1edc6f41, init: 0xffffffff, xorOut: 0xffffffff, reflectData: true, reflectRemainder: true }, 0xe3069283], // CRC-32C
      [{ width: 32, polynomial: 0x04c11db7, init: 0xffffffff, xorOut: 0, reflectData: false, reflectRemainder: false }, 0x0376e6e7], // MPEG-2
      [{ width: 8, polynomial: 0x07, init: 0, xorOut: 0, reflectData: false, reflectRemainder: false }, 0xf4], // CRC-8 (BMv2's crc8_custom default)
    ];
    for (const [params, check] of catalogue) expect(new CrcEngine(params).compute(CHECK)).toBe(check);
  });

  it('matches a bit-at-a-time reference and zlib on random inputs, for every reflection combination', () => {
    const rng = new SeededRandom(2024);
    for (let trial = 0; trial < 50; trial++) {
      const data = Buffer.alloc(rng.nextInt(64));
      for (let i = 0; i < data.length; i++) data[i] = rng.nextInt(256);
      for (const reflectData of [false, true]) {
        for (const reflectRemainder of [false, true]) {
          for (const base of [CRC16_BMV2, CRC32_BMV2]) {
            const params = { ...base, init: rng.nextUint32() % 2 ** base.width, reflectData, reflectRemainder };
            expect(new CrcEngine(params).compute(data)).toBe(referenceCrc(params, data));
          }
        }
      }
      if (typeof zlib.crc32 === 'function') expect(new CrcEngine(CRC32_BMV2).compute(data)).toBe(zlib.crc32(data));
    }
  });

  it('hashes only the first `length` bytes and refuses parameters that do not fit', () => {
    const engine = new CrcEngine(CRC32_BMV2);
    expect(engine.compute(Buffer.concat([CHECK, Buffer.from('junk')]), 9)).toBe(0xcbf43926);
    expect(() => new CrcEngine({ ...CRC16_BMV2, polynomial: 0x18005 })).toThrow(RangeError);
  });
});

describe('16-bit sums', () => {
  it('csum16 gives the IPv4 header checksum', () => {
    // 192.168.0.1 -> 192.168.0.199, UDP, total length 0x73, DF, TTL 64; checksum field zeroed.
    const header = Buffer.from('450000730000400040110000c0a80001c0a800c7', 'hex');
    expect(csum16(header)).toBe(0xb861);
    // Verifying a header with its checksum in place yields 0.
    header.writeUInt16BE(0xb861, 10);
    expect(csum16(header)).toBe(0);
  });

  it('csum16 pads an odd last byte with zero and folds carries', () => {
    expect(csum16(Buffer.from([0x01]))).toBe(0xfeff);
    expect(csum16(Buffer.from([0xff, 0xff, 0x00, 0x01]))).toBe(0xfffe);
    expect(csum16(Buffer.alloc(0))).toBe(0xffff);
    expect(csum16(Buffer.alloc(200_000, 0xff))).toBe(0);
  });

  it('xor16 XORs big-endian words, an odd last byte as the high byte', () => {
    expect(xor16(CHECK)).toBe(0x3132 ^ 0x3334 ^ 0x3536 ^ 0x3738 ^ 0x3900);
    expect(xor16(CHECK)).toBe(0x3908);
    expect(xor16(Buffer.alloc(0))).toBe(0);
  });
});

describe('v1model HashAlgorithm', () => {
  it('knows every v1model algorithm', () => {
    expect(HASH_ALGORITHMS).toEqual(['crc32', 'crc32_custom', 'crc16', 'crc16_custom', 'random', 'identity', 'csum16', 'xor16']);
    expect(isHashAlgorithm('csum16')).toBe(true);
    expect(isHashAlgorithm('crc64')).toBe(false);
  });

  it('computes each deterministic algorithm over a packed field list', () => {
    const data = packFields([[0x0a000001, 32], [0x0a000002, 32], [6, 8], [1234, 16], [80, 16]]);
    const expected = {
      crc16: referenceCrc(CRC16_BMV2, data),
      crc16_custom: referenceCrc(CRC16_BMV2, data),
      crc32: referenceCrc(CRC32_BMV2, data),
      crc32_custom: referenceCrc(CRC32_BMV2, data),
      csum16: csum16(data),
      xor16: xor16(data),
    };
    for (const [algorithm, value] of Object.entries(expected)) {
      const fn = createHashFunction(algorithm as keyof typeof expected);
      expect(fn.hashNumber(data)).toBe(value);
      expect(fn.hashBigInt(data)).toBe(BigInt(value));
      expect(fn.exactAsNumber(data.length)).toBe(true);
    }
    expect(createHashFunction('crc32').hashNumber(CHECK)).toBe(0xcbf43926);
    expect(createHashFunction('crc16').hashNumber(CHECK)).toBe(0xbb3d);
  });

  it('identity keeps the first 8 bytes as a big-endian number', () => {
    const id = createHashFunction('identity');
    expect(id.outputBits).toBe(64);
    expect(id.hashNumber(Buffer.from('0a000001', 'hex'))).toBe(0x0a000001);
    expect(id.hashNumber(Buffer.from('aabbccddeeff', 'hex'))).toBe(0xaabbccddeeff);
    expect(id.hashBigInt(Buffer.from('0102030405060708090a', 'hex'))).toBe(0x0102030405060708n);
    expect(id.exactAsNumber(7)).toBe(false);
    expect(() => id.hashNumber(Buffer.alloc(7))).toThrow(RangeError);
    // Works on a packer's reused buffer without copying.
    const p = new BitPacker().push(0x1ff, 9);
    expect(id.hashNumber(p.bytes(), p.byteLength)).toBe(0xff80);
  });

  it('crc16_custom and crc32_custom can be reconfigured; the plain ones cannot be confused with them', () => {
    const custom = createHashFunction('crc16_custom') as CustomCrcHash;
    custom.configure({ width: 16, polynomial: 0x1021, init: 0xffff, xorOut: 0, reflectData: false, reflectRemainder: false });
    expect(custom.hashNumber(CHECK)).toBe(0x29b1);
    expect(createHashFunction('crc16_custom').hashNumber(CHECK)).toBe(0xbb3d); // each instance has its own state
    expect(() => custom.configure(CRC32_BMV2)).toThrow(/16-bit CRC/);
  });

  it('random draws 32-bit values from the given generator, reproducibly', () => {
    const a = createHashFunction('random', { random: new SeededRandom(9) });
    const b = createHashFunction('random', { random: new SeededRandom(9) });
    const xs = [1, 2, 3].map(() => a.hashNumber(CHECK));
    expect([1, 2, 3].map(() => b.hashNumber(Buffer.alloc(0)))).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 2 ** 32 && Number.isInteger(x)).toBe(true);
  });

  it('reduces to v1model\'s range: base + (h % max), and base when max is 0', () => {
    expect(hashInRange(0xcbf43926, 10, 100)).toBe(10 + (0xcbf43926 % 100));
    expect(hashInRange(0xcbf43926, 10, 100)).toBe(72);
    expect(hashInRange(12345, 7, 0)).toBe(7);
    expect(hashInRange(5, 0, 1)).toBe(0);
    expect(hashInRangeBigInt(0x0102030405060708n, 1n, 1000n)).toBe(1n + (0x0102030405060708n % 1000n));
    expect(hashInRangeBigInt(99n, 5n, 0n)).toBe(5n);
    // BMv2 works in uint64: the sum wraps.
    expect(hashInRangeBigInt(10n, 2n ** 64n - 1n, 2n ** 64n - 1n)).toBe(9n);
  });
});
