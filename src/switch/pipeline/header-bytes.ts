/** Headers to and from wire bytes, by their IR layout (fields MSB first, no alignment). */
import type { IrHeaderType } from '../../p4c/ir/types.js';
import { readBits, writeBits } from './bits.js';
import { HeaderValue, StackValue, StructValue, type Value } from './values.js';

/** Fills `h` from `buf` at byte `offset` and makes it valid (the caller checked the length). */
export function readHeader(layout: IrHeaderType, buf: Uint8Array, offset: number, h: HeaderValue): void {
  const base = offset * 8;
  const fields = layout.fields;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    h.fields[i] = readBits(buf, base + f.bitOffset, f.width);
  }
  h.valid = true;
}

export function writeHeader(layout: IrHeaderType, h: HeaderValue): Buffer {
  const out = Buffer.alloc(layout.bytes);
  writeHeaderAt(layout, h, out, 0);
  return out;
}

/** Writes `h` into `out` at byte `offset` (the caller checked the room; every bit of the header is written). */
export function writeHeaderAt(layout: IrHeaderType, h: HeaderValue, out: Uint8Array, offset: number): void {
  const base = offset * 8;
  const fields = layout.fields;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    writeBits(out, base + f.bitOffset, f.width, h.fields[i]!);
  }
}

/** Where emitted headers go (the packet context): each valid header with its layout, in order. */
export interface EmitSink {
  emit(layout: IrHeaderType, h: HeaderValue): void;
}

/** Emits the valid headers in `v` (a header, stack, or struct/union of them) in order. */
export function emitValue(v: Value, layoutOf: (h: HeaderValue, path: number[]) => IrHeaderType | undefined, out: EmitSink, path: number[] = []): void {
  if (v instanceof HeaderValue) {
    const layout = layoutOf(v, path);
    if (v.valid && layout) out.emit(layout, v);
  } else if (v instanceof StackValue) {
    for (const e of v.elements) emitValue(e, layoutOf, out, path);
  } else if (v instanceof StructValue) {
    v.fields.forEach((f, i) => emitValue(f, layoutOf, out, [...path, i]));
  }
}
