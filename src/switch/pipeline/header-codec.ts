/**
 * Per-layout header readers and writers, generated as straight-line
 * JavaScript once per header type (at pipeline load): every field's offset,
 * width and representation is known then, so per packet there is no loop
 * over the layout and no branch on the width. Number fields (≤ 32 bits) at
 * any offset, and byte-aligned bigint fields up to 48 bits (MAC addresses),
 * are read and written byte by byte inline; other bigint fields, and a
 * value of an unexpected representation, go through readBits/writeBits.
 */
import { readBits, writeBits } from './bits.js';
import { isWide, type Bits } from './values.js';

/** Fills `fields` from `buf` at byte `offset` (the caller checked the length). */
export type HeaderReader = (buf: Uint8Array, offset: number, fields: Bits[]) => void;
/** Writes `fields` into `out` at byte `offset` (the caller checked the room). */
export type HeaderWriter = (out: Uint8Array, offset: number, fields: readonly Bits[]) => void;

/** Where each field sits: a header type's layout, or a field list's. */
export interface BitLayout {
  readonly fields: readonly { readonly bitOffset: number; readonly width: number }[];
}

type Generated<T> = (readBitsFn: typeof readBits, writeBitsFn: typeof writeBits) => T;

/** The bytes a field of `width` bits at `bitOffset` touches: per byte, the field's bits in it (shift in the byte, count, shift in the value). */
function pieces(bitOffset: number, width: number): { byte: number; inByte: number; count: number; inValue: number }[] {
  const out = [];
  const end = bitOffset + width;
  for (let j = bitOffset >>> 3; j * 8 < end; j++) {
    const lo = Math.max(bitOffset, j * 8);
    const hi = Math.min(end, j * 8 + 8);
    out.push({ byte: j, inByte: j * 8 + 8 - hi, count: hi - lo, inValue: end - hi });
  }
  return out;
}

function readField(i: string, bitOffset: number, width: number, rb = 'rb'): string {
  if (!isWide(width)) {
    // The value is < 2^32: a sum of byte parts, each scaled by a power of two (exact in a double).
    const terms = pieces(bitOffset, width).map((p) => {
      const part = p.count === 8 ? `b[o + ${p.byte}]` : `((b[o + ${p.byte}] >>> ${p.inByte}) & ${(1 << p.count) - 1})`;
      return p.inValue === 0 ? part : `${part} * ${2 ** p.inValue}`;
    });
    return `f[${i}] = ${terms.join(' + ')};`;
  }
  if ((bitOffset & 7) === 0 && (width & 7) === 0 && width <= 48) {
    const terms = pieces(bitOffset, width).map((p) => (p.inValue === 0 ? `b[o + ${p.byte}]` : `b[o + ${p.byte}] * ${2 ** p.inValue}`));
    return `f[${i}] = BigInt(${terms.join(' + ')});`;
  }
  return `f[${i}] = ${rb}(b, o * 8 + ${bitOffset}, ${width});`;
}

/**
 * The statements of a reader, for inlining into other generated code: they
 * read from `b` at byte `o` into `f` (field i at `f[index(i)]`: a packed
 * stack's data has an element's fields further on), and call `rb`
 * (readBits) for fields without an inline form.
 */
export function readerSource(layout: BitLayout, rb: string, index: (i: number) => string = String): string {
  return layout.fields.map((f, i) => readField(index(i), f.bitOffset, f.width, rb)).join(' ');
}

function writeField(i: string, bitOffset: number, width: number, wb = 'wb'): string {
  if (!isWide(width)) {
    // A number field holds a wrapped value < 2^width, so `>>>` is exact; partial bytes keep their other bits.
    const lines = pieces(bitOffset, width).map((p) => {
      const part = `(v >>> ${p.inValue})`;
      if (p.count === 8) return `b[o + ${p.byte}] = ${part} & 255;`;
      const mask = ((1 << p.count) - 1) << p.inByte;
      return `b[o + ${p.byte}] = (b[o + ${p.byte}] & ${~mask & 255}) | ((${part} << ${p.inByte}) & ${mask});`;
    });
    return `v = f[${i}]; if (typeof v === 'number') { ${lines.join(' ')} } else ${wb}(b, o * 8 + ${bitOffset}, ${width}, v);`;
  }
  if ((bitOffset & 7) === 0 && (width & 7) === 0 && width <= 48) {
    // A bigint < 2^48 is exact as a double: split it into a high and a low 32-bit part.
    const lines = pieces(bitOffset, width).map((p) =>
      p.inValue >= 32 ? `b[o + ${p.byte}] = (hi >>> ${p.inValue - 32}) & 255;` : `b[o + ${p.byte}] = (lo >>> ${p.inValue}) & 255;`,
    );
    return `v = f[${i}]; if (typeof v === 'bigint' && v >= 0n && v < ${2 ** width}n) { v = Number(v); lo = v % 4294967296; hi = (v - lo) / 4294967296; ${lines.join(' ')} } else ${wb}(b, o * 8 + ${bitOffset}, ${width}, v);`;
  }
  return `${wb}(b, o * 8 + ${bitOffset}, ${width}, f[${i}]);`;
}

/**
 * The statements of a writer, for inlining into other generated code: they
 * write `f` (field i at `f[index(i)]`) into `b` at byte `o`, use the
 * variables `v`, `lo` and `hi` (the caller declares them), and call `wb`
 * (writeBits) for fields without an inline form.
 */
export function writerSource(layout: BitLayout, wb: string, index: (i: number) => string = String): string {
  return layout.fields.map((f, i) => writeField(index(i), f.bitOffset, f.width, wb)).join(' ');
}

const readers = new WeakMap<BitLayout, HeaderReader>();
const writers = new WeakMap<BitLayout, HeaderWriter>();

export function headerReader(layout: BitLayout): HeaderReader {
  let r = readers.get(layout);
  if (!r) {
    const body = layout.fields.map((f, i) => readField(String(i), f.bitOffset, f.width)).join('\n');
    // The source is built from the layout only (numbers), once per layout
    const make = new Function('rb', 'wb', `return function read(b, o, f) {\n${body}\n};`) as Generated<HeaderReader>;
    r = make(readBits, writeBits);
    readers.set(layout, r);
  }
  return r;
}

export function headerWriter(layout: BitLayout): HeaderWriter {
  let w = writers.get(layout);
  if (!w) {
    const body = layout.fields.map((f, i) => writeField(String(i), f.bitOffset, f.width)).join('\n');
    // The source is built from the layout only (numbers), once per layout
    const make = new Function('rb', 'wb', `return function write(b, o, f) {\nlet v, lo, hi;\n${body}\n};`) as Generated<HeaderWriter>;
    w = make(readBits, writeBits);
    writers.set(layout, w);
  }
  return w;
}
