/**
 * Guards for the encoders. A value that does not fit its field, or a buffer
 * without room for the header, is a bug in the caller: writing it anyway would
 * put a corrupt packet on the wire, so these throw RangeError. They are plain
 * integer comparisons, cheap enough for every packet.
 */

/** Throws unless `size` bytes fit in `buf` from `offset`. */
export function requireRoom(buf: Uint8Array, offset: number, size: number, what: string): void {
  if (!Number.isInteger(offset) || offset < 0 || offset + size > buf.length) {
    throw new RangeError(`${what} needs ${size} bytes at offset ${offset}, but the buffer has ${buf.length}`);
  }
}

/** Throws unless `value` is an integer in 0 .. 2^bits − 1 (bits ≤ 32). */
export function requireUint(value: number, bits: number, name: string): void {
  const max = bits === 32 ? 0xffff_ffff : (1 << bits) - 1;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be an integer in 0..${max}, not ${value}`);
  }
}

/** Throws unless `value` is an integer in −2^(bits−1) .. 2^(bits−1) − 1. */
export function requireInt(value: number, bits: number, name: string): void {
  const max = 2 ** (bits - 1) - 1;
  if (!Number.isInteger(value) || value < -max - 1 || value > max) {
    throw new RangeError(`${name} must be an integer in ${-max - 1}..${max}, not ${value}`);
  }
}

/** Throws unless `value` is an integer in `min .. max`. */
export function requireRange(value: number, min: number, max: number, name: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in ${min}..${max}, not ${value}`);
  }
}

/**
 * Throws unless `offset` (and `end`, when given) lie within the buffer in
 * order. Decoders call this on their arguments, which come from the caller,
 * never from the packet: bad bytes are a WireError, a bad offset is a bug.
 */
export function requireSpan(buf: Uint8Array, offset: number, end = buf.length): void {
  if (!Number.isInteger(offset) || !Number.isInteger(end) || offset < 0 || end < offset || end > buf.length) {
    throw new RangeError(`offset ${offset} and end ${end} must satisfy 0 <= offset <= end <= ${buf.length}`);
  }
}
