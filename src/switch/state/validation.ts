/**
 * Checks shared by every entity kind: bytestrings against a bitwidth, int64
 * fields (decoded as decimal strings), array indexes and update types. Each
 * returns the canonical value or throws an EntityError that says what to fix.
 */
import { canonicalize } from '../../p4info/bytestring.js';
import type * as p4r from '../../proto/p4r.js';
import { invalidArgument, outOfRange } from './entity-error.js';

export type UpdateType = 'INSERT' | 'MODIFY' | 'DELETE';

/** Bytes needed for a value of `bitwidth` bits. */
export function byteWidth(bitwidth: number): number {
  return Math.ceil(bitwidth / 8);
}

/**
 * The canonical form of a received bytestring (P4Runtime accepts zero-padded
 * values that fit the width). Empty and too-wide values are INVALID_ARGUMENT,
 * as the match-format and action-parameter rules of the spec (and PI) say.
 * The result may share memory with the input; copy it before keeping it.
 * The message names `what`, followed by `part` when given.
 */
export function checkBytes(bytes: Buffer, bitwidth: number, what: string, part?: string): Buffer {
  const canonical = canonicalize(bytes, bitwidth);
  if (typeof canonical !== 'string') return canonical;
  // `part` ("value", "mask"…) is joined only here, so that the checks of valid entries build no strings.
  const subject = part ? `${what} ${part}` : what;
  if (canonical === 'empty') throw invalidArgument(`${subject} is an empty bytestring; send at least one byte`);
  throw invalidArgument(`${subject} 0x${bytes.toString('hex')} does not fit in ${bitwidth} bits`);
}

/** Writes a canonical value right-aligned into `width` bytes of `target` at `offset` (the bytes must be zero). */
export function padInto(target: Buffer, offset: number, width: number, canonical: Uint8Array): void {
  if (canonical.length > width) {
    // A canonical value of a field that fits its bitwidth is at most `width` bytes, except the single 0x00 of zero.
    target.set(canonical.subarray(canonical.length - width), offset);
    return;
  }
  target.set(canonical, offset + width - canonical.length);
}

/** The canonical (shortest, zero as 0x00) form of a padded value; shares memory with it. */
export function canonicalOf(value: Buffer): Buffer {
  let i = 0;
  while (i < value.length - 1 && value[i] === 0) i++;
  return i === 0 ? value : value.subarray(i);
}

/** The value of a bytestring of at most 6 bytes as a number. */
export function bytesToUint(bytes: Uint8Array): number {
  let v = 0;
  for (const b of bytes) v = v * 256 + b;
  return v;
}

/** The canonical bytestring of a non-negative safe integer. */
export function uintToBytes(value: number): Buffer {
  if (value === 0) return Buffer.from([0]);
  const out: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  return Buffer.from(out);
}

/** The one empty Buffer that stored empty bytes share. */
export const EMPTY_BYTES = Buffer.alloc(0);

/** A copy of an opaque bytes field (metadata) to keep; empty values share one buffer. */
export function keepBytes(bytes: Buffer): Buffer {
  return bytes.length === 0 ? EMPTY_BYTES : Buffer.from(bytes);
}

/** True when every byte of `value` from `start` to `end` is zero. */
export function isZero(value: Uint8Array, start = 0, end = value.length): boolean {
  for (let i = start; i < end; i++) if (value[i] !== 0) return false;
  return true;
}

/**
 * A non-negative int64 field (decoded as a decimal string) as a JS number.
 * Counts and rates past 2^53 - 1 cannot be kept exactly in the emulator's
 * number-based state, so they are refused rather than silently rounded.
 */
export function nonNegativeInt64(text: string, what: string): number {
  const value = Number(text);
  if (!Number.isInteger(value)) throw invalidArgument(`${what} "${text}" is not an integer`);
  if (value < 0) throw invalidArgument(`${what} is negative (${text}); it must be >= 0`);
  if (!Number.isSafeInteger(value)) throw outOfRange(`${what} ${text} is above 2^53-1, the largest value this switch keeps exactly`);
  return value;
}

/**
 * An `Index` of an indexed extern: undefined when unset (the whole array),
 * else the index, checked: negative → INVALID_ARGUMENT, past the end →
 * OUT_OF_RANGE (spec §CounterEntry, §MeterEntry, §RegisterEntry).
 */
export function arrayIndex(index: p4r.Index__Output | null, size: number, what: string): number | undefined {
  if (!index) return undefined;
  const value = Number(index.index);
  if (value < 0) throw invalidArgument(`${what} index ${index.index} is negative`);
  if (!Number.isSafeInteger(value) || value >= size) {
    throw outOfRange(`${what} index ${index.index} is past the end of the array (size ${size})`);
  }
  return value;
}

/** The update type as a string we handle; UNSPECIFIED (or anything else) is INVALID_ARGUMENT. */
export function updateType(type: string): UpdateType {
  if (type === 'INSERT' || type === 'MODIFY' || type === 'DELETE') return type;
  throw invalidArgument(`update type ${type || 'UNSPECIFIED'} is not allowed; use INSERT, MODIFY or DELETE`);
}

/** For entities that exist for the lifetime of the pipeline (counters, meters, registers, value sets…): only MODIFY. */
export function modifyOnly(type: UpdateType, what: string): void {
  if (type !== 'MODIFY') throw invalidArgument(`${what} can only be modified, not ${type === 'INSERT' ? 'inserted' : 'deleted'}; use MODIFY`);
}

/** "name (id 0x…)" for messages. */
export function describe(kind: string, name: string, id: number): string {
  return `${kind} ${name} (id ${id})`;
}
