import { describe, expect, test } from 'vitest';
import { Int32BeView } from '../../src/wire/index.js';

describe('Int32BeView', () => {
  test('reads big-endian int32s in place, at any byte offset', () => {
    const buf = Buffer.from('ff' + '00000001' + 'ffffffff' + '80000000' + '7fffffff', 'hex');
    const view = new Int32BeView(buf, 1, 4);
    expect([0, 1, 2, 3].map((i) => view.get(i))).toEqual([1, -1, -0x80000000, 0x7fffffff]);
    buf.writeInt32BE(42, 1);
    expect(view.get(0)).toBe(42); // a view, not a copy
  });

  test('works on a Buffer that is a slice of a larger ArrayBuffer', () => {
    const backing = Buffer.alloc(64);
    const slice = backing.subarray(10, 30);
    slice.writeInt32BE(-7, 4);
    expect(new Int32BeView(slice, 4, 1).get(0)).toBe(-7);
  });

  test('set, copyTo, toInt32Array, getFloat32', () => {
    const buf = Buffer.alloc(16);
    const view = new Int32BeView(buf, 0, 4);
    view.set(0, -2);
    view.set(1, 0x12345678);
    buf.writeFloatBE(1.5, 8);
    expect(buf.subarray(0, 8).toString('hex')).toBe('fffffffe12345678');
    expect(view.getFloat32(2)).toBe(1.5);
    const target = new Int32Array(6);
    view.copyTo(target, 2);
    expect(Array.from(target)).toEqual([0, 0, -2, 0x12345678, 0x3fc00000, 0]);
    expect(Array.from(view.toInt32Array())).toEqual([-2, 0x12345678, 0x3fc00000, 0]);
  });

  test('copyFrom pads past the end of the source with zeros', () => {
    const buf = Buffer.alloc(16, 0xff);
    const view = new Int32BeView(buf, 0, 4);
    view.copyFrom(Int32Array.of(1, 2, 3, 4, 5), 3);
    expect(Array.from(view.toInt32Array())).toEqual([4, 5, 0, 0]);
    view.copyFrom([9, -9], 0);
    expect(Array.from(view.toInt32Array())).toEqual([9, -9, 0, 0]);
    view.copyFrom([1], 5);
    expect(Array.from(view.toInt32Array())).toEqual([0, 0, 0, 0]);
  });

  test('misuse throws RangeError', () => {
    const buf = Buffer.alloc(8);
    expect(() => new Int32BeView(buf, 1, 2)).toThrow(RangeError);
    expect(() => new Int32BeView(buf, 0, -1)).toThrow(RangeError);
    const view = new Int32BeView(buf, 0, 2);
    expect(() => view.get(2)).toThrow(RangeError);
    expect(() => view.get(-1)).toThrow(RangeError);
    expect(() => view.set(2, 0)).toThrow(RangeError);
    expect(() => view.copyTo(new Int32Array(1))).toThrow(RangeError);
    expect(() => view.copyFrom([0.5])).toThrow(RangeError);
    expect(() => view.copyFrom([2 ** 31])).toThrow(RangeError);
    expect(() => view.copyFrom([1], -1)).toThrow(RangeError);
  });
});
