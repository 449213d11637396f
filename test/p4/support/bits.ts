// Bit-level helpers for the IR oracle: values are BigInt bit patterns.

/** `v` wrapped to `width` bits (two's complement patterns stay unsigned). */
export function wrap(v: bigint, width: number): bigint {
  return v & ((1n << BigInt(width)) - 1n);
}

/** The signed value of a `width`-bit pattern. */
export function toSigned(v: bigint, width: number): bigint {
  return (v >> BigInt(width - 1)) & 1n ? v - (1n << BigInt(width)) : v;
}

/** `width` bits of `buf` from bit `position` (bit 0 = the MSB of byte 0). */
export function readBits(buf: Uint8Array, position: number, width: number): bigint {
  let v = 0n;
  for (let i = 0; i < width; i++) {
    const bit = position + i;
    v = (v << 1n) | BigInt((buf[bit >> 3]! >> (7 - (bit & 7))) & 1);
  }
  return v;
}

/** Appends `width` bits of `v`, most significant first. */
export function pushBits(out: number[], v: bigint, width: number): void {
  for (let i = width - 1; i >= 0; i--) out.push(Number((v >> BigInt(i)) & 1n));
}

export function bitsToBytes(bits: readonly number[]): Buffer {
  const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
  bits.forEach((b, i) => {
    if (b) bytes[i >> 3] = bytes[i >> 3]! | (1 << (7 - (i & 7)));
  });
  return bytes;
}

/** v1model's csum16 over fields given as [value, width]: RFC 1071. */
export function csum16(fields: readonly (readonly [bigint, number])[]): bigint {
  const bits: number[] = [];
  for (const [v, w] of fields) pushBits(bits, v, w);
  const bytes = bitsToBytes(bits);
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 2) sum += (bytes[i]! << 8) | (bytes[i + 1] ?? 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  return BigInt(~sum & 0xffff);
}
