/**
 * Bit-string arithmetic in a width: numbers (≤ 32 bits) with masking,
 * bigints beyond. Values are unsigned patterns; `toSigned` reads int<W>.
 */
import { isWide, type Bits } from './values.js';

const TWO_32 = 0x1_0000_0000;

export function wrapNumber(v: number, width: number): number {
  if (width >= 32) return v >>> 0;
  if (width <= 0) return 0;
  return (v & ((1 << width) - 1)) >>> 0;
}

/** Wraps any integer (number or bigint, possibly negative) to `width` bits in the width's representation. */
export function wrap(v: Bits, width: number): Bits {
  if (isWide(width)) return BigInt.asUintN(width, typeof v === 'bigint' ? v : BigInt(v));
  if (typeof v === 'bigint') return Number(BigInt.asUintN(width, v));
  if (v >= 0 && v < TWO_32) return wrapNumber(v, width);
  // Outside int32/uint32 range (e.g. a product of two 32-bit values): go through bigint to stay exact.
  return Number(BigInt.asUintN(width, BigInt(Math.trunc(v))));
}

export function toBigInt(v: Bits): bigint {
  return typeof v === 'bigint' ? v : BigInt(v);
}

/** The signed reading of a W-bit pattern, as a bigint (exact for every width). */
export function toSigned(v: Bits, width: number): bigint {
  return BigInt.asIntN(width, toBigInt(v));
}

/** From a decimal string to the width's representation. */
export function parseConst(text: string, width: number): Bits {
  return wrap(BigInt(text), width);
}

/** A 32-bit-safe product wrapped to width. */
export function mulWrap(a: Bits, b: Bits, width: number): Bits {
  if (typeof a === 'number' && typeof b === 'number') return wrapNumber(Math.imul(a, b), width);
  return wrap(toBigInt(a) * toBigInt(b), width);
}

/** Reads `width` bits at bit offset `bitOffset` of `buf` (MSB first). */
export function readBits(buf: Uint8Array, bitOffset: number, width: number): Bits {
  if (!isWide(width)) {
    const first0 = bitOffset >>> 3;
    if ((bitOffset & 7) === 0 && (width & 7) === 0) {
      if (width === 8) return buf[first0]!;
      if (width === 16) return (buf[first0]! << 8) | buf[first0 + 1]!;
      if (width === 32) return ((buf[first0]! << 24) | (buf[first0 + 1]! << 16) | (buf[first0 + 2]! << 8) | buf[first0 + 3]!) >>> 0;
    }
    const within = 8 - (bitOffset & 7) - width;
    if (within >= 0) return (buf[first0]! >>> within) & ((1 << width) - 1);
    // At most 5 bytes span a field of ≤ 32 bits: their value (< 2^40) is exact in a double.
    const first = bitOffset >>> 3;
    const last = (bitOffset + width - 1) >>> 3;
    let acc = 0;
    for (let i = first; i <= last; i++) acc = acc * 256 + buf[i]!;
    const shift = (last + 1) * 8 - (bitOffset + width);
    return Math.floor(acc / 2 ** shift) % 2 ** width;
  }
  if ((bitOffset & 7) === 0 && (width & 7) === 0 && width <= 48) {
    // Byte-aligned up to 48 bits (MAC addresses): the value is exact in a double, so one bigint instead of one per chunk.
    const first = bitOffset >>> 3;
    let n = 0;
    for (let i = 0; i < width >>> 3; i++) n = n * 256 + buf[first + i]!;
    return BigInt(n);
  }
  // Wide: in chunks of at most 32 bits, the first one taking the odd bits.
  let acc = 0n;
  let done = 0;
  while (done < width) {
    const chunk = done === 0 ? width % 32 || 32 : 32;
    acc = (acc << BigInt(chunk)) | BigInt(readBits(buf, bitOffset + done, chunk) as number);
    done += chunk;
  }
  return acc;
}

/** Writes `width` bits of `v` at bit offset `bitOffset` of `buf` (MSB first). */
export function writeBits(buf: Uint8Array, bitOffset: number, width: number, v: Bits): void {
  if (typeof v === 'number' && width <= 32) {
    const first = bitOffset >>> 3;
    if ((bitOffset & 7) === 0 && (width & 7) === 0) {
      // The common byte-aligned widths with shifts (v is a wrapped value < 2^width, so `>>>` is exact).
      if (width === 8) {
        buf[first] = v & 0xff;
        return;
      }
      if (width === 16) {
        buf[first] = (v >>> 8) & 0xff;
        buf[first + 1] = v & 0xff;
        return;
      }
      if (width === 32) {
        buf[first] = (v >>> 24) & 0xff;
        buf[first + 1] = (v >>> 16) & 0xff;
        buf[first + 2] = (v >>> 8) & 0xff;
        buf[first + 3] = v & 0xff;
        return;
      }
      for (let i = (width >>> 3) - 1, rest = v; i >= 0; i--, rest = Math.floor(rest / 256)) buf[first + i] = rest & 0xff;
      return;
    }
    const within = 8 - (bitOffset & 7) - width;
    if (within >= 0) {
      const mask = ((1 << width) - 1) << within;
      buf[first] = (buf[first]! & ~mask) | ((v << within) & mask);
      return;
    }
    const last = (bitOffset + width - 1) >>> 3;
    let acc = 0;
    for (let i = first; i <= last; i++) acc = acc * 256 + buf[i]!;
    const scale = 2 ** ((last + 1) * 8 - (bitOffset + width));
    const old = Math.floor(acc / scale) % 2 ** width;
    acc += ((v % 2 ** width) - old) * scale;
    for (let i = last; i >= first; i--) {
      buf[i] = acc % 256;
      acc = Math.floor(acc / 256);
    }
    return;
  }
  if ((bitOffset & 7) === 0 && (width & 7) === 0 && width <= 48) {
    // Byte-aligned up to 48 bits (MAC addresses): exact in a double, written byte by byte without bigint arithmetic.
    const first = bitOffset >>> 3;
    const big = toBigInt(v);
    let rest = Number(big);
    // Number() rounds monotonically, so a bigint ≥ 2^width never passes this test and takes the wrapping path.
    if (!(big >= 0n && rest < 2 ** width)) rest = Number(BigInt.asUintN(width, big));
    for (let i = (width >>> 3) - 1; i >= 0; i--, rest = Math.floor(rest / 256)) buf[first + i] = rest % 256;
    return;
  }
  // Wide: in chunks of at most 32 bits from the low end, each written as a number.
  let big = toBigInt(v);
  let end = width;
  while (end > 0) {
    const chunk = Math.min(32, end);
    writeBits(buf, bitOffset + end - chunk, chunk, Number(BigInt.asUintN(chunk, big)));
    big >>= BigInt(chunk);
    end -= chunk;
  }
}

/** The big-endian bytes of a W-bit value, padded to whole bytes. */
export function bitsToBytes(v: Bits, width: number): Buffer {
  const n = (width + 7) >>> 3;
  const out = Buffer.alloc(n);
  let big = toBigInt(v);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = Number(big & 0xffn);
    big >>= 8n;
  }
  return out;
}

/** A byte string (any length) read as an unsigned integer and wrapped to width. */
export function bytesToBits(bytes: Uint8Array, width: number): Bits {
  if (!isWide(width)) {
    // Only the last 4 bytes can reach 32 bits: read them as a number (tables rebuild from stored bytes per write).
    let v = 0;
    for (let i = Math.max(0, bytes.length - 4); i < bytes.length; i++) v = v * 256 + bytes[i]!;
    return wrapNumber(v, width);
  }
  let big = 0n;
  for (const b of bytes) big = (big << 8n) | BigInt(b);
  return wrap(big, width);
}
