/**
 * Packs field lists into bytes the way BMv2 builds the input of a hash,
 * checksum or digest: each (value, bitwidth) pair in order, most significant
 * bit first, fields following each other bit by bit without alignment, and
 * the last byte padded with zero bits on the right. Negative values (int<W>)
 * go in as their two's complement in W bits; values wider than W are cut to
 * their low W bits.
 *
 * A BitPacker reuses its buffer, so packing a field list per packet
 * allocates nothing once the buffer is big enough (bigint values excepted).
 */

const TWO_POW_32 = 0x1_0000_0000;

export type FieldValue = number | bigint;

export class BitPacker {
  private buffer: Buffer;
  private bits = 0;

  constructor(initialBytes = 64) {
    this.buffer = Buffer.alloc(initialBytes);
  }

  /** Starts a new field list. */
  reset(): this {
    this.bits = 0;
    return this;
  }

  /** Bits packed so far. */
  get bitLength(): number {
    return this.bits;
  }

  /** Bytes the packed bits occupy (the last one padded with zeros). */
  get byteLength(): number {
    return (this.bits + 7) >>> 3;
  }

  /**
   * The packed bytes, as a view of the packer's own buffer: valid until the
   * next push or reset. Hash functions take (bytes(), byteLength) without copying.
   */
  bytes(): Buffer {
    return this.buffer;
  }

  /** A copy of the packed bytes, exactly byteLength long. */
  toBuffer(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.byteLength));
  }

  /** Appends one field of `width` bits (width >= 0; 0 adds nothing). */
  push(value: FieldValue, width: number): this {
    if (!Number.isInteger(width) || width < 0) throw new RangeError(`a field width must be a non-negative integer, not ${width}`);
    if (width === 0) return this;
    this.reserve(width);
    if (typeof value === 'number') {
      if (!Number.isInteger(value)) throw new RangeError(`a field value must be an integer, not ${value}`);
      if (width <= 32) {
        this.putBits(value >>> 0, width);
        return this;
      }
      if (value >= 0 && value <= Number.MAX_SAFE_INTEGER) {
        // Bits above 2^53 are zero; put the top as zeros, then two 32-bit halves.
        const high = Math.floor(value / TWO_POW_32);
        this.putWide(high, width - 32);
        this.putBits(value >>> 0, 32);
        return this;
      }
      value = BigInt(value);
    }
    this.putBigInt(BigInt.asUintN(width, value), width);
    return this;
  }

  /** Puts `width` (> 32) bits whose value is `high` (< 2^21, so exact): zeros first, then the low 32 bits of high. */
  private putWide(high: number, width: number): void {
    if (width > 32) {
      this.putZeros(width - 32);
      this.putBits(high >>> 0, 32);
    } else {
      this.putBits(high >>> 0, width);
    }
  }

  private putZeros(width: number): void {
    for (let left = width; left > 0; left -= 32) this.putBits(0, Math.min(left, 32));
  }

  private putBigInt(value: bigint, width: number): void {
    // The first chunk takes the odd bits so every later chunk is exactly 32.
    let shift = width - (width % 32 || 32);
    this.putBits(Number((value >> BigInt(shift)) & 0xffffffffn), width - shift);
    while (shift > 0) {
      shift -= 32;
      this.putBits(Number((value >> BigInt(shift)) & 0xffffffffn), 32);
    }
  }

  /** Appends the low `width` (1..32) bits of `value` (an unsigned 32-bit number). */
  private putBits(value: number, width: number): void {
    let left = width;
    while (left > 0) {
      const byte = this.bits >>> 3;
      const used = this.bits & 7;
      const room = 8 - used;
      const n = left < room ? left : room; // 1..8
      // The next n bits of the value, from the top of what is left.
      const chunk = (value >>> (left - n)) & ((1 << n) - 1);
      const shifted = chunk << (room - n);
      // A byte first touched at its boundary is assigned, which clears any
      // stale bits from an earlier field list; later bits are OR-ed in.
      this.buffer[byte] = used === 0 ? shifted : this.buffer[byte]! | shifted;
      this.bits += n;
      left -= n;
    }
  }

  private reserve(width: number): void {
    const needed = (this.bits + width + 7) >>> 3;
    if (needed <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(needed, this.buffer.length * 2));
    this.buffer.copy(grown, 0, 0, this.byteLength);
    this.buffer = grown;
  }
}

/** Packs a whole field list into a fresh buffer (convenience for tests and setup code). */
export function packFields(fields: readonly (readonly [FieldValue, number])[]): Buffer {
  const packer = new BitPacker();
  for (const [value, width] of fields) packer.push(value, width);
  return packer.toBuffer();
}
