/**
 * Action profile groups (action selectors): `actionProfileGroup('ingress.ecmp_selector', 7, [{ memberId: 1 }, { memberId: 2, weight: 2 }])`.
 * A table with that profile then points at the group with `groupRef(7)`.
 */
import type * as p4r from '../../proto/p4r.js';
import { encodeValue, type P4Schema, type ValueInput } from '../../p4info/index.js';
import { isWrite, type EncodeIntent, type P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { checkEntityId } from './entity-id.js';
import { PORT_BITS } from './table-action.js';
import { bytesToP4Number } from './values.js';

export interface GroupMember {
  readonly memberId: number;
  /** Defaults to 1. */
  readonly weight?: number;
  readonly watchPort?: ValueInput;
}

export class ActionProfileGroup implements P4Entity {
  readonly kind = 'action_profile_group';

  constructor(
    /** Profile name; undefined means every profile (reads only). */
    readonly profile: string | undefined,
    readonly groupId: number = 0,
    readonly members: readonly GroupMember[] = [],
    /** The most members the group may ever hold; 0 = the profile's max_group_size. */
    readonly maxSize: number = 0,
  ) {}

  describe(): string {
    return `action profile group ${this.profile ?? '*'}#${this.groupId || '*'}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    const write = isWrite(intent);
    if (write && this.profile === undefined) throw entityError(EntityErrorCode.WILDCARD_WRITE, 'a group write needs the action profile name');
    const info = this.profile === undefined ? undefined : schema.actionProfiles.get(this.profile);
    const groupId = checkEntityId(this.groupId, 'group id', write);
    const members = this.members.map((m) => {
      const out: p4r._p4_v1_ActionProfileGroup_Member = { member_id: checkEntityId(m.memberId, 'member id', true), weight: m.weight ?? 1 };
      if (m.watchPort !== undefined) out.watch_port = encodeValue(m.watchPort, PORT_BITS);
      return out;
    });
    if (info && info.maxGroupSize > 0 && members.length > info.maxGroupSize) {
      throw entityError(EntityErrorCode.GROUP_TOO_LARGE, `${this.describe()}: ${members.length} members exceed the profile's max group size ${info.maxGroupSize}`);
    }
    return { action_profile_group: { action_profile_id: info?.id ?? 0, group_id: groupId, members, max_size: this.maxSize } };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): ActionProfileGroup {
    const e = msg.action_profile_group;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no action_profile_group');
    const profile = e.action_profile_id ? schema.actionProfiles.get(e.action_profile_id).name : undefined;
    const members = e.members.map((m) => {
      const out: { memberId: number; weight: number; watchPort?: ValueInput } = { memberId: m.member_id, weight: m.weight };
      if (m.watch_kind === 'watch_port' && m.watch_port) out.watchPort = bytesToP4Number(m.watch_port, PORT_BITS);
      return out;
    });
    return new ActionProfileGroup(profile, e.group_id, members, e.max_size);
  }
}

/** A group of an action selector; leave id and members out to read every group. */
export function actionProfileGroup(profile: string, groupId = 0, members: readonly GroupMember[] = [], options: { maxSize?: number } = {}): ActionProfileGroup {
  return new ActionProfileGroup(profile === '*' ? undefined : profile, groupId, members, options.maxSize ?? 0);
}
