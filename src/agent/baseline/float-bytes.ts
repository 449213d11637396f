/**
 * float32 arrays to and from little-endian bytes, the byte order of the
 * baselines' payloads. On little-endian hosts (all the usual ones) an aligned
 * region is copied in one go; otherwise each element goes through a DataView.
 */
import { endianness } from 'node:os';

const HOST_IS_LITTLE_ENDIAN = endianness() === 'LE';

/** Writes `values` as little-endian float32 into `target` at byte `offset`. */
export function writeFloatsLE(values: Float32Array, target: Buffer, offset: number): void {
  const byteOffset = target.byteOffset + offset;
  if (HOST_IS_LITTLE_ENDIAN && byteOffset % 4 === 0) {
    new Float32Array(target.buffer, byteOffset, values.length).set(values);
    return;
  }
  const view = new DataView(target.buffer, byteOffset, values.length * 4);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true);
}

/**
 * The little-endian float32s in `bytes` (length a multiple of 4). A view
 * when the bytes are aligned and the host is little-endian, else a copy; so
 * the caller must not keep it past the life of `bytes`.
 */
export function readFloatsLE(bytes: Buffer): Float32Array {
  const count = bytes.length >>> 2;
  if (HOST_IS_LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) {
    return new Float32Array(bytes.buffer, bytes.byteOffset, count);
  }
  const out = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 4);
  for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
