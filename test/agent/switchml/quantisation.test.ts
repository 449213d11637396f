import { describe, expect, test } from 'vitest';
import {
  chunkExponents,
  compareWithFloat64Sum,
  dequantiseInto,
  exponentOfMagnitudeBits,
  INT32_MAX,
  jobChunkExponents,
  quantiseInto,
  ScaleTable,
  scaleExponent,
  switchMlErrorBound,
} from '../../../src/agent/switchml/quantisation.js';
import { SeededRandom } from '../../../src/util/seeded-random.js';
import { Int32BeView } from '../../../src/wire/index.js';

function bitsOf(x: number): number {
  return new Uint32Array(Float32Array.of(Math.abs(x)).buffer)[0]!;
}

/** The smallest e with m < 2^e, by search. */
function frexpExponent(m: number): number {
  let e = 0;
  while (2 ** e <= m) e++;
  while (2 ** (e - 1) > m) e--;
  return e;
}

describe('chunk exponents', () => {
  test.each([
    [0, -127],
    [1, 1],
    [0.5, 0],
    [0.75, 0],
    [1.5, 1],
    [2, 2],
    [3, 2],
    [2 ** -126, -125],
    [2 ** -127, -126],
    [2 ** -149, -127],
    [2 ** 126, 127],
    [2 ** 127, 127],
    [3.4028234663852886e38, 127],
  ])('|x| = %d has exponent %i (max|x| < 2^e, clamped to -127..127)', (x, e) => {
    expect(exponentOfMagnitudeBits(bitsOf(x))).toBe(e);
  });

  test('agrees with a frexp by search on seeded values of every magnitude', () => {
    const random = new SeededRandom('frexp');
    for (let i = 0; i < 5000; i++) {
      const x = Math.fround(random.nextFloat() * 2 ** (random.nextInt(250) - 125));
      if (x === 0) continue;
      expect(exponentOfMagnitudeBits(bitsOf(x))).toBe(Math.max(-127, Math.min(127, frexpExponent(x))));
    }
  });

  test('per chunk, the last one short; the sign does not matter', () => {
    const data = Float32Array.of(0.25, -3, 1, 0, 0, 0, -0.1);
    const out = new Int8Array(3);
    expect(chunkExponents(data, 3, out)).toBe(-1);
    expect([...out]).toEqual([2, -127, -3]);
  });

  test('reports the index of the first NaN or Infinity', () => {
    const out = new Int8Array(4);
    expect(chunkExponents(Float32Array.of(1, 2, 3, 4, NaN, Infinity), 2, out)).toBe(4);
    expect(chunkExponents(Float32Array.of(1, -Infinity), 2, out)).toBe(1);
  });

  test('jobChunkExponents takes the maximum over the workers', () => {
    expect([...jobChunkExponents([Float32Array.of(1, 0, 0), Float32Array.of(0, 5, 0.001)], 2)]).toEqual([3, -9]);
  });
});

describe('scaling', () => {
  test('f = (2^31 - 1) / (n * 2^s), with 127 read as 128', () => {
    const t = new ScaleTable(3);
    expect(t.factor(0)).toBe(INT32_MAX / 3);
    expect(t.factor(-127)).toBe(INT32_MAX / (3 * 2 ** -127));
    expect(scaleExponent(127)).toBe(128);
    expect(t.factor(127)).toBe(INT32_MAX / (3 * 2 ** 128));
    expect(() => t.factor(-128)).toThrow(RangeError);
  });

  test('the sum of n scaled values never overflows int32, even at the edge of each exponent', () => {
    const random = new SeededRandom('overflow');
    for (const n of [1, 2, 3, 7, 8, 31, 32]) {
      const table = new ScaleTable(n);
      for (let trial = 0; trial < 200; trial++) {
        const e = random.nextInt(255) - 127;
        const top = e === 127 ? 3.4028234663852886e38 : Math.fround(2 ** e * (1 - 2 ** -24));
        const sign = random.chance(0.5) ? 1 : -1;
        const buf = Buffer.alloc(4 * n);
        const view = new DataView(buf.buffer);
        let sum = 0;
        for (let w = 0; w < n; w++) {
          quantiseInto(Float32Array.of(sign * top), 0, 1, table.factor(e), new DataView(buf.buffer, 4 * w, 4), 0);
          sum += view.getInt32(4 * w);
        }
        expect(Math.abs(sum)).toBeLessThanOrEqual(INT32_MAX);
      }
    }
  });

  test('quantiseInto rounds toward zero and pads past the end with zeros', () => {
    const buf = Buffer.alloc(16);
    quantiseInto(Float32Array.of(1.9, -1.9, 0.4), 0, 4, 1, new DataView(buf.buffer), 0);
    expect([...new Int32BeView(buf, 0, 4).toInt32Array()]).toEqual([1, -1, 0, 0]);
  });

  test('dequantiseInto divides the sums back', () => {
    const buf = Buffer.alloc(8);
    buf.writeInt32BE(6, 0);
    buf.writeInt32BE(-3, 4);
    const out = new Float32Array(3);
    dequantiseInto(new Int32BeView(buf, 0, 2), 2, 4, out, 1);
    expect([...out]).toEqual([0, 1.5, -0.75]);
  });

  test('the error bound: n^2 * 2^s / (2^31 - 1) plus the float32 and float64 roundings', () => {
    expect(switchMlErrorBound(1, 0, 0, 0)).toBeCloseTo((1 / INT32_MAX) * (1 + 2 ** -19) + 2 ** -149, 20);
    expect(switchMlErrorBound(4, 10, 100, 200)).toBeCloseTo(((16 * 1024) / INT32_MAX) * (1 + 2 ** -19) + 100 * 2 ** -24 + 4 * 2 ** -52 * 200, 15);
    expect(switchMlErrorBound(2, 127, 0, 0) / ((4 * 2 ** 128) / INT32_MAX)).toBeCloseTo(1, 5);
  });

  test('compareWithFloat64Sum counts exactly the elements past the bound, as the formula applied one by one does', () => {
    const random = new SeededRandom(7);
    const n = 3;
    const perChunk = 5;
    const length = 23; // a short last chunk
    const tensors = Array.from({ length: n }, (_, t) => Float32Array.from({ length }, (_, i) => (random.nextFloat() * 2 - 1) * 2 ** ((i % 7) - 3 + t)));
    const exponents = jobChunkExponents(tensors, perChunk);
    const sums = Array.from({ length }, (_, i) => tensors.reduce((s, x) => s + x[i]!, 0));
    const absSums = Array.from({ length }, (_, i) => tensors.reduce((s, x) => s + Math.abs(x[i]!), 0));
    const bound = (i: number): number => switchMlErrorBound(n, exponents[Math.floor(i / perChunk)]!, sums[i]!, absSums[i]!);
    // Each element off by a fraction of its own bound: every third by 3x (a violation), the others by 0.5x.
    const result = Float32Array.from({ length }, (_, i) => sums[i]! + (i % 3 === 0 ? 3 : 0.5) * bound(i));
    let expectedViolations = 0;
    let expectedMax = 0;
    for (let i = 0; i < length; i++) {
      const error = Math.abs(result[i]! - sums[i]!);
      expectedMax = Math.max(expectedMax, error);
      if (!(error <= bound(i))) expectedViolations++;
    }
    expect(expectedViolations).toBe(8); // elements 0, 3, …, 21
    expect(compareWithFloat64Sum(result, tensors, exponents, perChunk)).toEqual({ maxAbsError: expectedMax, violations: expectedViolations });
    expect(() => compareWithFloat64Sum(result, tensors, exponents, 0)).toThrow(RangeError);
  });
});
