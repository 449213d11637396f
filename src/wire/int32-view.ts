/**
 * A window onto big-endian int32 values inside a packet buffer, so decoders
 * hand out the values without copying them and encoders fill them in place.
 * Access goes through a DataView: in bench/wire-codec.ts it was among the
 * fastest ways on Node 20 (several times faster than Buffer.readInt32BE and
 * writeInt32BE, close to byte shifts and to a bulk copy + swap32, which needs
 * a 4-byte-aligned destination), and it bounds-checks every access against
 * the window at no extra cost.
 */
import { requireRoom } from './field-check.js';

export class Int32BeView {
  /** Number of int32 values. */
  readonly length: number;
  /** Where the first value starts in the underlying buffer. */
  readonly byteOffset: number;
  private readonly data: DataView;

  constructor(buf: Uint8Array, byteOffset: number, length: number) {
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`a value count must be a non-negative integer, not ${length}`);
    requireRoom(buf, byteOffset, length * 4, `${length} int32 values`);
    this.length = length;
    this.byteOffset = byteOffset;
    this.data = new DataView(buf.buffer, buf.byteOffset + byteOffset, length * 4);
  }

  /** Value `i`; RangeError outside 0..length−1. */
  get(i: number): number {
    return this.data.getInt32(i * 4);
  }

  /** Sets value `i` (taken modulo 2^32, as Int32Array does); RangeError outside 0..length−1. */
  set(i: number, value: number): void {
    this.data.setInt32(i * 4, value);
  }

  /** Value `i` read as a big-endian float32 (ATP sends raw floats when its overflow flag is set). */
  getFloat32(i: number): number {
    return this.data.getFloat32(i * 4);
  }

  /** Copies the values into `target` from `targetOffset`. */
  copyTo(target: Int32Array, targetOffset = 0): void {
    if (!Number.isInteger(targetOffset) || targetOffset < 0 || targetOffset + this.length > target.length) {
      throw new RangeError(`${this.length} values do not fit in an Int32Array of ${target.length} at ${targetOffset}`);
    }
    const data = this.data;
    for (let i = 0; i < this.length; i++) target[targetOffset + i] = data.getInt32(i * 4);
  }

  /**
   * Fills the window from `source`, starting at `sourceOffset`; values past
   * the end of `source` are written as 0 (the padding of a tensor's last
   * chunk). Plain numbers must be int32: anything else would wrap silently.
   */
  copyFrom(source: ArrayLike<number>, sourceOffset = 0): void {
    if (!Number.isInteger(sourceOffset) || sourceOffset < 0) throw new RangeError(`sourceOffset must be a non-negative integer, not ${sourceOffset}`);
    const data = this.data;
    const present = Math.max(0, Math.min(this.length, source.length - sourceOffset));
    const checked = !(source instanceof Int32Array);
    for (let i = 0; i < present; i++) {
      const v = source[sourceOffset + i]!;
      if (checked && (v | 0) !== v) throw new RangeError(`value ${sourceOffset + i} (${v}) is not an int32`);
      data.setInt32(i * 4, v);
    }
    for (let i = present; i < this.length; i++) data.setInt32(i * 4, 0);
  }

  /** A new Int32Array with the values (a copy: for tests and logs). */
  toInt32Array(): Int32Array {
    const out = new Int32Array(this.length);
    this.copyTo(out);
    return out;
  }
}
