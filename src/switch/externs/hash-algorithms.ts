/**
 * v1model's HashAlgorithm values with BMv2's definitions
 * (bm_sim/calculations.cpp), over the bytes a BitPacker builds from the
 * field list:
 *   crc16          CRC-16/ARC (poly 0x8005, reflected, init 0, xorOut 0)
 *   crc16_custom   the same until reconfigured
 *   crc32          IEEE CRC-32 (poly 0x04C11DB7, reflected, init and xorOut 0xFFFFFFFF)
 *   crc32_custom   the same until reconfigured
 *   csum16         the Internet checksum (RFC 1071)
 *   xor16          XOR of big-endian 16-bit words
 *   identity       the first (at most) 8 bytes of the input as a big-endian integer
 *   random         not in BMv2's table; here a uniform 32-bit value from a seeded generator
 * and v1model's reduction of a hash to a range: `hash(result, algo, base, data, max)`
 * writes base + (h % max), or base when max is 0.
 */
import { SeededRandom } from '../../util/seeded-random.js';
import { csum16, xor16 } from './checksum16.js';
import { CRC16_BMV2, CRC32_BMV2, CrcEngine, type CrcParameters } from './crc.js';

export const HASH_ALGORITHMS = ['crc32', 'crc32_custom', 'crc16', 'crc16_custom', 'random', 'identity', 'csum16', 'xor16'] as const;

export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

export function isHashAlgorithm(name: string): name is HashAlgorithm {
  return (HASH_ALGORITHMS as readonly string[]).includes(name);
}

export interface HashFunction {
  readonly algorithm: HashAlgorithm;
  /** The widest value it returns, in bits: 16, 32 or 64 (identity). */
  readonly outputBits: 16 | 32 | 64;
  /** True when hashNumber is exact for inputs of this many bytes (always, except identity beyond 6 bytes). */
  exactAsNumber(inputBytes: number): boolean;
  /** The hash of data[0, length) as a number. Throws RangeError where exactAsNumber is false. */
  hashNumber(data: Uint8Array, length?: number): number;
  /** The hash of data[0, length) as a bigint; exact for every algorithm. */
  hashBigInt(data: Uint8Array, length?: number): bigint;
}

/** A crc16_custom or crc32_custom hash, whose parameters can be changed at run time. */
export interface CustomCrcHash extends HashFunction {
  readonly parameters: CrcParameters;
  configure(parameters: CrcParameters): void;
}

export interface HashOptions {
  /** The generator behind `random` (default: seeded from the clock, i.e. not reproducible). */
  readonly random?: SeededRandom;
}

class NumericHash implements HashFunction {
  constructor(
    readonly algorithm: HashAlgorithm,
    readonly outputBits: 16 | 32,
    private readonly fn: (data: Uint8Array, length: number) => number,
  ) {}

  exactAsNumber(): boolean {
    return true;
  }

  hashNumber(data: Uint8Array, length: number = data.length): number {
    return this.fn(data, length);
  }

  hashBigInt(data: Uint8Array, length: number = data.length): bigint {
    return BigInt(this.fn(data, length));
  }
}

class CrcHash extends NumericHash implements CustomCrcHash {
  constructor(
    algorithm: HashAlgorithm,
    private readonly engine: CrcEngine,
  ) {
    super(algorithm, engine.parameters.width === 16 ? 16 : 32, (data, length) => engine.compute(data, length));
  }

  get parameters(): CrcParameters {
    return this.engine.parameters;
  }

  configure(parameters: CrcParameters): void {
    if (parameters.width !== this.outputBits) throw new RangeError(`${this.algorithm} is a ${this.outputBits}-bit CRC; parameters for width ${parameters.width} do not fit`);
    this.engine.configure(parameters);
  }
}

/** Largest input, in bytes, whose identity value a number holds exactly (48 bits < 2^53). */
const IDENTITY_EXACT_BYTES = 6;

class IdentityHash implements HashFunction {
  readonly algorithm = 'identity';
  readonly outputBits = 64;

  exactAsNumber(inputBytes: number): boolean {
    return inputBytes <= IDENTITY_EXACT_BYTES;
  }

  hashNumber(data: Uint8Array, length: number = data.length): number {
    if (length > IDENTITY_EXACT_BYTES) {
      throw new RangeError(`identity over ${length} bytes does not fit a number exactly; use hashBigInt`);
    }
    let value = 0;
    for (let i = 0; i < length; i++) value = value * 256 + data[i]!;
    return value;
  }

  hashBigInt(data: Uint8Array, length: number = data.length): bigint {
    // BMv2 keeps the first 8 bytes (not the last) when the input is longer.
    const n = Math.min(length, 8);
    let value = 0n;
    for (let i = 0; i < n; i++) value = (value << 8n) | BigInt(data[i]!);
    return value;
  }
}

/** Makes the hash function for one algorithm; each call gets its own state (custom CRC parameters, random stream). */
export function createHashFunction(algorithm: HashAlgorithm, options: HashOptions = {}): HashFunction {
  switch (algorithm) {
    case 'crc16':
    case 'crc16_custom':
      return new CrcHash(algorithm, new CrcEngine(CRC16_BMV2));
    case 'crc32':
    case 'crc32_custom':
      return new CrcHash(algorithm, new CrcEngine(CRC32_BMV2));
    case 'csum16':
      return new NumericHash(algorithm, 16, csum16);
    case 'xor16':
      return new NumericHash(algorithm, 16, xor16);
    case 'identity':
      return new IdentityHash();
    case 'random': {
      const rng = options.random ?? new SeededRandom(Date.now());
      return new NumericHash(algorithm, 32, () => rng.nextUint32());
    }
  }
}

/**
 * v1model's `hash` result for values that fit numbers (hash, base and max
 * below 2^32, as for every algorithm but identity): base + (h % max), or
 * base when max is 0. The caller truncates to the result field's width.
 */
export function hashInRange(h: number, base: number, max: number): number {
  return max === 0 ? base : base + (h % max);
}

const U64 = (v: bigint): bigint => BigInt.asUintN(64, v);

/** The same in BMv2's 64-bit arithmetic (base and max cut to 64 bits, the sum wrapping at 2^64). */
export function hashInRangeBigInt(h: bigint, base: bigint, max: bigint): bigint {
  const m = U64(max);
  return m === 0n ? U64(base) : U64((U64(h) % m) + U64(base));
}
