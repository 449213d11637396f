/**
 * A protobuf wire reader for hand-written decoders of hot messages
 * (write-request-decoder.ts). It reads only what a conformant encoder writes:
 * varints that end inside their message (at most 5 bytes for 32-bit fields,
 * 10 for 64-bit ones) and lengths that stay inside it. Anything else throws
 * NOT_PLAIN, and the caller hands the bytes to protobufjs, whose reading of
 * odd input stays the reference. Values come out as protobufjs gives them
 * under the conversion options of load.ts.
 */

/** Thrown when the bytes are not in the form the reader handles; one instance, since it is never shown. */
export class NotPlainMessage extends Error {}
export const NOT_PLAIN = new NotPlainMessage('not in the plain form the fast decoder reads');

/** Shared by every empty bytes field read (nothing can be written into zero bytes). */
export const EMPTY_BYTES: Buffer = Buffer.alloc(0);
/** Wire types. */
export const VARINT = 0;
export const LEN = 2;
/** The tag of a field: its number and wire type. */
export const key = (field: number, wireType: number): number => (field << 3) | wireType;
const TWO_POW_32 = 4294967296;
/** Above this high word a uint64 is past 2^53 and is converted through bigint. */
const SAFE_HIGH = 0x200000;

export class WireReader {
  pos = 0;
  /** Where the message being read ends. */
  end: number;

  constructor(readonly buf: Buffer) {
    this.end = buf.length;
  }

  /**
   * A varint of at most 5 bytes, as its low 32 bits unsigned: what protobufjs
   * reads for uint32 (and, through `| 0` or `!== 0`, for int32, enums and bool).
   * Longer varints (negative int32s) are NOT_PLAIN.
   */
  varint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    if (pos >= this.end) throw NOT_PLAIN;
    let b = buf[pos++]!;
    if (b < 128) {
      this.pos = pos;
      return b;
    }
    let value = b & 127;
    for (let shift = 7; shift < 35; shift += 7) {
      if (pos >= this.end) throw NOT_PLAIN;
      b = buf[pos++]!;
      // At shift 28 only the low 4 bits stay in 32 bits, as protobufjs keeps them.
      value |= (b & 127) << shift;
      if (b < 128) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    throw NOT_PLAIN;
  }

  int32(): number {
    return this.varint32() | 0;
  }

  bool(): boolean {
    return this.varint32() !== 0;
  }

  /** A 64-bit varint as a decimal string: uint64, or int64 when `signed` (two's complement). */
  varint64(signed: boolean): string {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (pos >= this.end) throw NOT_PLAIN;
      const b = buf[pos++]!;
      if (i < 4) lo |= (b & 127) << (7 * i);
      else if (i === 4) {
        lo |= (b & 15) << 28;
        hi = (b & 127) >> 4;
      } else if (i < 9) hi |= (b & 127) << (7 * (i - 5) + 3);
      else if (b > 1) throw NOT_PLAIN;
      else hi |= b << 31;
      if (b < 128) {
        this.pos = pos;
        return decimal(lo >>> 0, hi >>> 0, signed);
      }
    }
    throw NOT_PLAIN;
  }

  /** Length-delimited bytes, sharing memory with the message (as protobufjs's Buffer reader does). */
  bytes(): Buffer {
    const end = this.lengthEnd();
    const start = this.pos;
    this.pos = end;
    return start === end ? EMPTY_BYTES : this.buf.subarray(start, end);
  }

  string(): string {
    const end = this.lengthEnd();
    const start = this.pos;
    this.pos = end;
    return this.buf.toString('utf8', start, end);
  }

  /** Reads the length of a nested message and narrows `end` to it; returns the end to restore afterwards. */
  enter(): number {
    const outer = this.end;
    this.end = this.lengthEnd();
    return outer;
  }

  leave(outer: number): void {
    this.end = outer;
  }

  private lengthEnd(): number {
    const length = this.varint32();
    const end = this.pos + length;
    if (end > this.end) throw NOT_PLAIN;
    return end;
  }
}

function decimal(lo: number, hi: number, signed: boolean): string {
  if (hi < SAFE_HIGH) return String(hi * TWO_POW_32 + lo);
  const value = (BigInt(hi) << 32n) | BigInt(lo);
  return (signed ? BigInt.asIntN(64, value) : value).toString();
}
