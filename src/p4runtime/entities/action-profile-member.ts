/**
 * Action profile members: `actionProfileMember('ingress.ecmp_profile', 1, action('set_nhop', {…}))`.
 * A table with that profile then points at the member with `memberRef(1)`.
 * Member id 0 (or no profile) reads every member.
 */
import type * as p4r from '../../proto/p4r.js';
import type { ActionProfileInfo, P4Schema } from '../../p4info/index.js';
import { Action } from './action.js';
import { isWrite, type EncodeIntent, type P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { checkEntityId } from './entity-id.js';

/** Throws unless `act` is an action of some table that uses the profile. */
export function checkProfileAction(act: Action, profile: ActionProfileInfo, schema: P4Schema): void {
  const info = act.info(schema);
  const allowed = profile.tableIds.some((id) => schema.tables.find(id)?.actionRefs.has(info.id));
  if (!allowed) throw entityError(EntityErrorCode.ACTION_NOT_IN_TABLE, `action ${info.name} is not an action of the tables that use action profile ${profile.name}`);
}

export class ActionProfileMember implements P4Entity {
  readonly kind = 'action_profile_member';

  constructor(
    /** Profile name; undefined means every profile (reads only). */
    readonly profile: string | undefined,
    readonly memberId: number = 0,
    readonly action?: Action,
  ) {}

  describe(): string {
    return `action profile member ${this.profile ?? '*'}#${this.memberId || '*'}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    const write = isWrite(intent);
    if (write && this.profile === undefined) throw entityError(EntityErrorCode.WILDCARD_WRITE, 'a member write needs the action profile name');
    const info = this.profile === undefined ? undefined : schema.actionProfiles.get(this.profile);
    const memberId = checkEntityId(this.memberId, 'member id', write);
    const out: p4r.ActionProfileMember = { action_profile_id: info?.id ?? 0, member_id: memberId };
    if (this.action) {
      if (info) checkProfileAction(this.action, info, schema);
      out.action = this.action.encode(schema);
    } else if (intent === 'insert' || intent === 'modify') {
      throw entityError(EntityErrorCode.ACTION_REQUIRED, `${this.describe()}: ${intent.toUpperCase()} needs an action`);
    }
    return { action_profile_member: out };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): ActionProfileMember {
    const e = msg.action_profile_member;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no action_profile_member');
    const profile = e.action_profile_id ? schema.actionProfiles.get(e.action_profile_id).name : undefined;
    return new ActionProfileMember(profile, e.member_id, e.action ? Action.decode(e.action, schema) : undefined);
  }
}

/** A member of an action profile; leave id and action out to read every member. */
export function actionProfileMember(profile: string, memberId = 0, act?: Action): ActionProfileMember {
  return new ActionProfileMember(profile === '*' ? undefined : profile, memberId, act);
}
