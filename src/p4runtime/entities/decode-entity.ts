/** Every entity kind as one union, and the decoder that picks the kind from a `p4.v1.Entity`. */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { ActionProfileGroup } from './action-profile-group.js';
import { ActionProfileMember } from './action-profile-member.js';
import { CloneSessionEntry } from './clone-session.js';
import { CounterEntry } from './counter-entry.js';
import { DigestEntry } from './digest-entry.js';
import { DirectCounterEntry } from './direct-counter-entry.js';
import { DirectMeterEntry } from './direct-meter-entry.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { MeterEntry } from './meter-entry.js';
import { MulticastGroupEntry } from './multicast-group.js';
import { RegisterEntry } from './register-entry.js';
import { TableEntry } from './table-entry.js';

export type Entity =
  | TableEntry
  | ActionProfileMember
  | ActionProfileGroup
  | MeterEntry
  | DirectMeterEntry
  | CounterEntry
  | DirectCounterEntry
  | MulticastGroupEntry
  | CloneSessionEntry
  | RegisterEntry
  | DigestEntry;

/**
 * The entity a switch sent, with names resolved through the schema. Throws
 * P4InfoError for ids the P4Info lacks and P4EntityError for kinds this
 * library does not model (extern entries, value sets).
 */
export function decodeEntity(msg: p4r.Entity__Output, schema: P4Schema): Entity {
  switch (msg.entity) {
    case 'table_entry':
      return TableEntry.decode(msg, schema);
    case 'action_profile_member':
      return ActionProfileMember.decode(msg, schema);
    case 'action_profile_group':
      return ActionProfileGroup.decode(msg, schema);
    case 'meter_entry':
      return MeterEntry.decode(msg, schema);
    case 'direct_meter_entry':
      return DirectMeterEntry.decode(msg, schema);
    case 'counter_entry':
      return CounterEntry.decode(msg, schema);
    case 'direct_counter_entry':
      return DirectCounterEntry.decode(msg, schema);
    case 'register_entry':
      return RegisterEntry.decode(msg, schema);
    case 'digest_entry':
      return DigestEntry.decode(msg, schema);
    case 'packet_replication_engine_entry': {
      const pre = msg.packet_replication_engine_entry;
      if (pre?.type === 'multicast_group_entry') return MulticastGroupEntry.decode(msg);
      if (pre?.type === 'clone_session_entry') return CloneSessionEntry.decode(msg);
      throw entityError(EntityErrorCode.MALFORMED, 'packet replication engine entry with neither a multicast group nor a clone session');
    }
    default:
      throw entityError(EntityErrorCode.UNSUPPORTED_KIND, `cannot decode a ${msg.entity ?? 'empty'} entity`);
  }
}
