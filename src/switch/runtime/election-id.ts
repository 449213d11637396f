/**
 * Election ids are 128-bit unsigned integers carried as two uint64 halves. An
 * unset id (the message field absent) is distinct from {high: 0, low: 0}: it
 * never makes a stream primary. Here they are bigints, `undefined` when unset.
 */
import type * as p4r from '../../proto/p4r.js';

export type ElectionId = bigint | undefined;

const MASK64 = (1n << 64n) - 1n;

/** The election id of a decoded message field; undefined when the field is absent. */
export function electionIdFrom(value: p4r.Uint128__Output | null | undefined): ElectionId {
  if (!value) return undefined;
  return (BigInt(value.high) << 64n) | BigInt(value.low);
}

/** The wire form of an election id, or null (field absent) when unset. */
export function electionIdTo(value: ElectionId): p4r.Uint128 | null {
  if (value === undefined) return null;
  return { high: (value >> 64n).toString(), low: (value & MASK64).toString() };
}

/** For messages and logs: `high,low` as p4runtime-shell writes it, or "unset". */
export function formatElectionId(value: ElectionId): string {
  if (value === undefined) return 'unset';
  return `${value >> 64n},${value & MASK64}`;
}
