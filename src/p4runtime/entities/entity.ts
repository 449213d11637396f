/**
 * What every entity has: a kind (the name of its `p4.v1.Entity` oneof member,
 * or the PRE member for multicast groups and clone sessions), an encoder and
 * a one-line description for messages.
 *
 * `encode(schema)` checks names, widths and the shape of the entity; with an
 * intent of 'insert', 'modify' or 'delete' (as `Update` passes it) it also
 * checks the write rules of the spec (exact fields present, priorities,
 * action scopes, const tables, which update types an entity allows), so that
 * mistakes are reported before anything is sent.
 */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';

export type EncodeIntent = 'read' | 'insert' | 'modify' | 'delete';

export type EntityKind =
  | 'table_entry'
  | 'action_profile_member'
  | 'action_profile_group'
  | 'meter_entry'
  | 'direct_meter_entry'
  | 'counter_entry'
  | 'direct_counter_entry'
  | 'multicast_group_entry'
  | 'clone_session_entry'
  | 'register_entry'
  | 'digest_entry';

export interface P4Entity {
  readonly kind: EntityKind;
  encode(schema: P4Schema, intent?: EncodeIntent): p4r.Entity;
  /** A short description for logs and errors, e.g. "table entry ingress.l2". */
  describe(): string;
}

/** True for the intents of a write. */
export const isWrite = (intent: EncodeIntent): boolean => intent !== 'read';
