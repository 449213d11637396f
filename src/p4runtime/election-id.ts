/**
 * Election ids: 128-bit unsigned integers sent as `Uint128 { high, low }`.
 * p4ina takes them as bigints (or `{ high, low }`) and keeps them as bigints.
 */
import type * as p4r from '../proto/p4r.js';

export type ElectionIdInput = bigint | number | { readonly high: bigint | number | string; readonly low: bigint | number | string };

const U64 = (1n << 64n) - 1n;

/** The election id as a bigint; throws RangeError outside 0..2^128-1 (a programming error). */
export function toElectionId(input: ElectionIdInput): bigint {
  const id = typeof input === 'object' ? (BigInt(input.high) << 64n) | BigInt(input.low) : BigInt(input);
  if (typeof input === 'object' && (BigInt(input.high) > U64 || BigInt(input.low) > U64 || BigInt(input.low) < 0n)) {
    throw new RangeError(`election id halves must be 64-bit unsigned, got ${String(input.high)}, ${String(input.low)}`);
  }
  if (id < 0n || id >> 128n !== 0n) throw new RangeError(`election id must be a 128-bit unsigned integer, got ${id}`);
  return id;
}

export function electionIdMessage(id: bigint): p4r.Uint128 {
  return { high: (id >> 64n).toString(), low: (id & U64).toString() };
}

/** The id in a message, or undefined when the field is unset. */
export function electionIdFromMessage(msg: p4r.Uint128__Output | null | undefined): bigint | undefined {
  return msg ? (BigInt(msg.high) << 64n) | BigInt(msg.low) : undefined;
}
