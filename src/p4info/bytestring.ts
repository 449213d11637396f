/**
 * P4Runtime bytestrings (spec §8.3 "Bytestrings"): big-endian, canonical form
 * is the shortest string with zero as a single 0x00 byte. Receivers accept
 * zero-padded strings whose value fits the bitwidth; senders send canonical.
 * These helpers work on bytes only and allocate only when they must, because
 * the server runs them for every field of every entry it is sent.
 */

/** Why a received bytestring was refused. */
export type BytestringProblem = 'empty' | 'too-wide';

/** Number of significant bits in a bytestring (0 for all zeros). */
export function bitLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]!));
}

/**
 * The canonical form of a received bytestring for a field of `bitwidth` bits,
 * or the problem with it. Returns the input itself when it is canonical already.
 */
export function canonicalize(bytes: Uint8Array, bitwidth: number): Buffer | BytestringProblem {
  if (bytes.length === 0) return 'empty';
  if (bitLength(bytes) > bitwidth) return 'too-wide';
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const view = i === 0 ? bytes : bytes.subarray(i);
  return Buffer.isBuffer(view) ? view : Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/** The value of a bytestring as a bigint. */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** The canonical bytestring of a non-negative bigint. */
export function bigIntToBytes(value: bigint): Buffer {
  if (value < 0n) throw new RangeError(`bigIntToBytes: negative value ${value}`);
  if (value === 0n) return Buffer.from([0]);
  let hex = value.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Buffer.from(hex, 'hex');
}

/** The bytestring padded with leading zeros to the full byte width of `bitwidth` (as the P4 tutorials send). */
export function padToWidth(bytes: Uint8Array, bitwidth: number): Buffer {
  const width = Math.ceil(bitwidth / 8);
  const canonical = canonicalize(bytes, bitwidth);
  if (typeof canonical === 'string') throw new RangeError(`padToWidth: value does not fit ${bitwidth} bits`);
  if (canonical.length >= width) return canonical;
  const out = Buffer.alloc(width);
  canonical.copy(out, width - canonical.length);
  return out;
}

/** A value with its low `bitwidth` bits set: the all-ones mask. */
export function fullMask(bitwidth: number): bigint {
  if (!Number.isInteger(bitwidth) || bitwidth < 0) throw new RangeError(`fullMask: bitwidth ${bitwidth} is not a non-negative integer`);
  return (1n << BigInt(bitwidth)) - 1n;
}

/** The mask of an LPM prefix of `prefixLen` bits in a field of `bitwidth` bits. */
export function prefixMask(prefixLen: number, bitwidth: number): bigint {
  if (!Number.isInteger(prefixLen) || prefixLen < 0 || prefixLen > bitwidth) {
    throw new RangeError(`prefixMask: prefix length ${prefixLen} is not between 0 and the field's ${bitwidth} bits`);
  }
  return fullMask(bitwidth) ^ fullMask(bitwidth - prefixLen);
}

/** Byte-wise equality of two bytestrings. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** `bytes` without its leading zero bytes (one 0x00 for zero): a view, not a copy. */
export function withoutLeadingZeros(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return i === 0 ? bytes : bytes.subarray(i);
}

/**
 * Clears, in place, every bit of the big-endian `bytes` below the top `prefixLen` bits of a
 * `bitwidth`-bit field (the bits an LPM prefix leaves out), and returns the canonical result
 * (a view of `bytes`). Same value as masking with prefixMask, without bigint.
 */
export function clearOutsidePrefix(bytes: Buffer, prefixLen: number, bitwidth: number): Buffer {
  let clear = bitwidth - prefixLen;
  for (let i = bytes.length - 1; i >= 0 && clear > 0; i--, clear -= 8) {
    bytes[i] = clear >= 8 ? 0 : bytes[i]! & (0xff << clear);
  }
  return withoutLeadingZeros(bytes);
}

/** The canonical bytestring of `a & b` (big-endian, right-aligned). */
export function andBytes(a: Uint8Array, b: Uint8Array): Buffer {
  const length = Math.min(a.length, b.length);
  const out = Buffer.allocUnsafe(Math.max(length, 1));
  out[0] = 0;
  for (let i = 1; i <= length; i++) out[length - i] = a[a.length - i]! & b[b.length - i]!;
  return withoutLeadingZeros(out);
}

/** Compares `width` bytes of `x` at `i` with `width` bytes of `y` at `j`, as big-endian numbers: negative, 0 or positive. */
export function compareAt(x: Uint8Array, i: number, y: Uint8Array, j: number, width: number): number {
  for (let k = 0; k < width; k++) if (x[i + k] !== y[j + k]) return x[i + k]! - y[j + k]!;
  return 0;
}

/** Compares two bytestrings as unsigned big-endian numbers (leading zeros allowed): negative, 0 or positive. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  let i = 0;
  let j = 0;
  while (a.length - i > b.length - j) if (a[i++] !== 0) return 1;
  while (b.length - j > a.length - i) if (b[j++] !== 0) return -1;
  return compareAt(a, i, b, j, a.length - i);
}

/** True when `bytes` holds every one of the low `bitwidth` bits set and nothing above (fullMask's value). */
export function isFullMask(bytes: Uint8Array, bitwidth: number): boolean {
  return bitLength(bytes) === bitwidth && allOnesBelow(bytes, bitwidth);
}

function allOnesBelow(bytes: Uint8Array, bitwidth: number): boolean {
  for (let i = bytes.length - 1, left = bitwidth; left > 0; i--, left -= 8) {
    const want = left >= 8 ? 0xff : (1 << left) - 1;
    if (i < 0 || bytes[i] !== want) return false;
  }
  return true;
}
