/**
 * A small seeded pseudo-random generator for reproducible impairments, tests
 * and the emulator's `random` extern: xoshiro128** over four 32-bit words,
 * filled from the seed by splitmix32. The same seed gives the same sequence
 * on every machine and Node version (only 32-bit integer arithmetic is used).
 * Not for cryptography.
 */

const TWO_POW_32 = 0x1_0000_0000;

/** splitmix32's output function: a strong 32-bit mixer. */
function mix32(z: number): number {
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** FNV-1a over the UTF-16 code units: turns a text seed or label into 32 bits. */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** Folds any finite integer (negative or beyond 32 bits) into a 32-bit seed. */
function seedWord(seed: number | string): number {
  if (typeof seed === 'string') return hashText(seed);
  if (!Number.isInteger(seed)) throw new TypeError(`a seed must be an integer or a string, not ${seed}`);
  const low = seed >>> 0;
  const high = Math.floor(seed / TWO_POW_32) >>> 0;
  return (low ^ mix32(high)) >>> 0;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export class SeededRandom {
  /** The 32-bit seed this generator started from (for logs: "rerun with seed N"). */
  readonly seed: number;
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number | string) {
    this.seed = seedWord(seed);
    let state = this.seed;
    const next = (): number => {
      state = (state + 0x9e3779b9) | 0;
      return mix32(state);
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    // xoshiro must not start from all zeros; splitmix32 makes that
    // astronomically unlikely, but one word is enough to rule it out.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /**
   * An independent generator for one purpose (a port, a direction, a worker),
   * reproducible from this generator's seed and the label alone, whatever has
   * been drawn from this one so far.
   */
  derive(label: string | number): SeededRandom {
    const salt = typeof label === 'string' ? hashText(label) : seedWord(label);
    return new SeededRandom((mix32(this.seed ^ 0x5bd1e995) ^ mix32(salt)) >>> 0);
  }

  /** Uniform in [0, 2^32). */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /**
   * Fills `out` with the next `out.length` draws of nextUint32, in order:
   * the same stream, for callers that consume many draws (a tensor of
   * millions of values) without a method call per draw.
   */
  fillUint32(out: Uint32Array): void {
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    for (let i = 0; i < out.length; i++) {
      out[i] = Math.imul(rotl(Math.imul(s1, 5), 7), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 11);
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  /** Uniform in [0, 1), with 32 bits of resolution. */
  nextFloat(): number {
    return this.nextUint32() / TWO_POW_32;
  }

  /** Uniform integer in [0, bound), without modulo bias; bound in 1..2^32. */
  nextInt(bound: number): number {
    if (!Number.isInteger(bound) || bound < 1 || bound > TWO_POW_32) {
      throw new RangeError(`nextInt takes a bound in 1..2^32, not ${bound}`);
    }
    // Reject draws from the incomplete last block so every residue is equally
    // likely. Each try succeeds with probability > 1/2; the cap keeps the loop
    // bounded and is never reached in practice.
    const limit = TWO_POW_32 - (TWO_POW_32 % bound);
    let x = this.nextUint32();
    for (let tries = 0; x >= limit && tries < 64; tries++) x = this.nextUint32();
    return x % bound;
  }

  /** True with probability p (p <= 0: never; p >= 1: always). */
  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.nextFloat() < p;
  }
}
