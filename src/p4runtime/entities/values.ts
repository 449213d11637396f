/**
 * How decoded values look in p4ina's client library: a P4 bitstring becomes a
 * `number` when its field is at most 53 bits wide (so ports, addresses and
 * MACs compare with `===`), and a `bigint` when it is wider. The choice
 * depends on the field's width, never on the value, so a field always has one
 * JS type. 64-bit protocol integers (counters, timeouts, meter rates) are
 * always bigints.
 */
import { bytesToBigInt } from '../../p4info/index.js';

/** A decoded P4 value: number up to 53 bits of width, bigint above. */
export type P4Number = number | bigint;

/** The widest field decoded as a JS number. */
export const MAX_NUMBER_BITS = 53;

/** The JS form of a value of a field `bitwidth` bits wide (or of unknown width when undefined). */
export function toP4Number(value: bigint, bitwidth?: number): P4Number {
  const fitsWidth = bitwidth === undefined || bitwidth <= MAX_NUMBER_BITS;
  return fitsWidth && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** A bytestring as a P4Number for a field of `bitwidth` bits; padded input comes back canonical. */
export function bytesToP4Number(bytes: Uint8Array, bitwidth?: number): P4Number {
  return toP4Number(bytesToBigInt(bytes), bitwidth);
}

/** An int64/uint64 protobuf field from a user value; throws RangeError on a non-integer (programming error). */
export function int64(value: number | bigint | undefined, what: string): string {
  if (value === undefined) return '0';
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError(`${what} must be an integer, got ${value}`);
  return value.toString();
}

/** A decoded int64/uint64 field (a decimal string under p4ina's conversion options) as a bigint. */
export function bigintOf(text: string | number): bigint {
  return BigInt(text);
}
