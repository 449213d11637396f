/**
 * Errors raised while turning entities into P4Runtime messages (or back):
 * each has a stable code and a message naming what to fix, and is thrown
 * before anything is sent to a switch.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export class P4EntityError extends P4inaError {}

/** Stable codes of P4EntityError. */
export const EntityErrorCode = {
  /** A match input that does not fit the field's match kind (bad prefix length, unknown syntax…). */
  BAD_MATCH: 'ENTITY_BAD_MATCH',
  /** A write leaves out an exact field, which P4Runtime cannot treat as "don't care". */
  MISSING_MATCH: 'ENTITY_MISSING_MATCH',
  /** A range whose low end is above its high end. */
  RANGE_INVERTED: 'ENTITY_RANGE_INVERTED',
  /** A field with a match kind this library cannot encode (architecture-specific kinds). */
  UNSUPPORTED_MATCH_KIND: 'ENTITY_UNSUPPORTED_MATCH_KIND',
  /** The table has ternary, range or optional fields, so entries need a priority above 0. */
  PRIORITY_REQUIRED: 'ENTITY_PRIORITY_REQUIRED',
  /** The table has only exact/LPM fields (or the entry is a default entry): priority must be 0. */
  PRIORITY_NOT_ALLOWED: 'ENTITY_PRIORITY_NOT_ALLOWED',
  /** A priority that is not an integer between 0 and 2^31-1. */
  BAD_PRIORITY: 'ENTITY_BAD_PRIORITY',
  /** An action without a value for one of its parameters. */
  MISSING_PARAM: 'ENTITY_MISSING_PARAM',
  /** The same parameter or match field given twice (e.g. by full name and by suffix). */
  DUPLICATE_NAME: 'ENTITY_DUPLICATE_NAME',
  /** The action is not one of the table's (or action profile's) actions. */
  ACTION_NOT_IN_TABLE: 'ENTITY_ACTION_NOT_IN_TABLE',
  /** A @tableonly action used as a default action, or a @defaultonly action in an entry. */
  ACTION_SCOPE: 'ENTITY_ACTION_SCOPE',
  /** An INSERT or MODIFY of a table entry or member without an action. */
  ACTION_REQUIRED: 'ENTITY_ACTION_REQUIRED',
  /** A direct action for a table with an action profile, or a member/group for one without. */
  ACTION_KIND: 'ENTITY_ACTION_KIND',
  /** A write to a const table. */
  CONST_TABLE: 'ENTITY_CONST_TABLE',
  /** A write to the default entry of a table whose default action is const. */
  CONST_DEFAULT_ACTION: 'ENTITY_CONST_DEFAULT_ACTION',
  /** An update type the entity does not allow (INSERT of a counter, DELETE of a default entry…). */
  UPDATE_NOT_ALLOWED: 'ENTITY_UPDATE_NOT_ALLOWED',
  /** A wildcard (every table, every counter…) used in a write. */
  WILDCARD_WRITE: 'ENTITY_WILDCARD_WRITE',
  /** An index that is negative, not an integer or past the end of the array. */
  BAD_INDEX: 'ENTITY_BAD_INDEX',
  /** An id (multicast group, clone session, member, group) that is 0 in a write or not an integer. */
  BAD_ID: 'ENTITY_BAD_ID',
  /** An action profile group with more members than the profile's max group size. */
  GROUP_TOO_LARGE: 'ENTITY_GROUP_TOO_LARGE',
  /** Two replicas with the same (port, instance). */
  DUPLICATE_REPLICA: 'ENTITY_DUPLICATE_REPLICA',
  /** A write that needs a value (register cell, …) without one. */
  MISSING_VALUE: 'ENTITY_MISSING_VALUE',
  /** The table has no direct counter / direct meter for a direct entry. */
  NO_DIRECT_RESOURCE: 'ENTITY_NO_DIRECT_RESOURCE',
  /** A P4Data value this library cannot encode for the declared type. */
  UNSUPPORTED_TYPE: 'ENTITY_UNSUPPORTED_TYPE',
  /** A message from the switch that does not hold what its kind says (decoding only). */
  MALFORMED: 'ENTITY_MALFORMED',
  /** An entity kind this library does not model (extern entries, value sets). */
  UNSUPPORTED_KIND: 'ENTITY_UNSUPPORTED_KIND',
} as const;

export function entityError(code: string, message: string): P4EntityError {
  return new P4EntityError(code, message);
}

/**
 * Runs `fn`, prefixing the message of any P4inaError it throws with `context`
 * ("table ingress.l2, field hdr.ethernet.dst_addr: …"), so a user sees where a
 * bad value sits. The error keeps its class and code: only the text grows.
 */
export function inContext<T>(context: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw withContext(err, context);
  }
}

/** The same prefixing for hot paths that catch themselves, so no context string is built unless something fails. */
export function withContext(err: unknown, context: string): unknown {
  if (P4inaError.is(err) && !err.message.startsWith(context)) err.message = `${context}: ${err.message}`;
  return err;
}
