/**
 * What a table entry runs: a direct action, a reference to an action profile
 * member or group, or a one-shot action set (an action selector's group given
 * inline). Checks that the action belongs to the table and respects its scope.
 */
import type * as p4r from '../../proto/p4r.js';
import { encodeValue, type P4Schema, type TableInfo, type ValueInput } from '../../p4info/index.js';
import { Action } from './action.js';
import { EntityErrorCode, entityError, inContext } from './entity-error.js';
import { checkEntityId } from './entity-id.js';
import { bytesToP4Number } from './values.js';

/** A table entry that points at an action profile member. */
export interface MemberRef {
  readonly memberId: number;
}
/** A table entry that points at an action profile group. */
export interface GroupRef {
  readonly groupId: number;
}
export interface WeightedAction {
  readonly action: Action;
  /** Defaults to 1. */
  readonly weight?: number;
  /** A port whose liveness decides if the action is used (P4Runtime `watch_port`). */
  readonly watchPort?: ValueInput;
}
/** A one-shot action set: the group of an action selector written with its table entry. */
export class ActionSet {
  constructor(readonly actions: readonly WeightedAction[]) {}
}
export type TableActionSpec = Action | MemberRef | GroupRef | ActionSet;

export const memberRef = (memberId: number): MemberRef => ({ memberId });
export const groupRef = (groupId: number): GroupRef => ({ groupId });
export const actionSet = (actions: readonly WeightedAction[]): ActionSet => new ActionSet(actions);

/** Port values (watch ports, replica ports) are encoded as bytestrings of at most 32 bits. */
export const PORT_BITS = 32;

/** Checks that `act` may run in `table`; scope rules only when `checkScope` (writes). */
export function checkTableAction(act: Action, table: TableInfo, schema: P4Schema, isDefault: boolean, checkScope: boolean): void {
  const info = act.info(schema);
  const ref = table.actionRefs.get(info.id);
  if (!ref) {
    const known = [...table.actionRefs.values()].map((r) => r.action.name).join(', ');
    throw entityError(EntityErrorCode.ACTION_NOT_IN_TABLE, `table ${table.name} has no action ${info.name}; its actions are ${known}`);
  }
  if (!checkScope) return;
  if (isDefault && ref.scope === 'TABLE_ONLY') {
    throw entityError(EntityErrorCode.ACTION_SCOPE, `action ${info.name} is @tableonly in table ${table.name}: it cannot be the default action`);
  }
  if (!isDefault && ref.scope === 'DEFAULT_ONLY') {
    throw entityError(EntityErrorCode.ACTION_SCOPE, `action ${info.name} is @defaultonly in table ${table.name}: use it with defaultEntry()`);
  }
}

export function encodeTableAction(
  spec: TableActionSpec,
  table: TableInfo,
  schema: P4Schema,
  isDefault: boolean,
  checkScope: boolean,
): p4r.TableAction {
  const viaProfile = table.implementationId !== 0;
  const kindError = (what: string): Error =>
    entityError(
      EntityErrorCode.ACTION_KIND,
      viaProfile
        ? `table ${table.name} takes its actions from an action profile: give a member, group or action set, not ${what}`
        : `table ${table.name} has no action profile: give a direct action, not ${what}`,
    );
  if (spec instanceof Action) {
    if (viaProfile && !isDefault) throw kindError('a direct action');
    checkTableAction(spec, table, schema, isDefault, checkScope);
    return { action: spec.encode(schema) };
  }
  if (!viaProfile) throw kindError(spec instanceof ActionSet ? 'an action set' : 'a member or group reference');
  if (spec instanceof ActionSet) {
    const actions = spec.actions.map((w, i) =>
      inContext(`action set item ${i}`, () => {
        checkTableAction(w.action, table, schema, false, checkScope);
        const out: p4r.ActionProfileAction = { action: w.action.encode(schema), weight: w.weight ?? 1 };
        if (w.watchPort !== undefined) out.watch_port = encodeValue(w.watchPort, PORT_BITS);
        return out;
      }),
    );
    return { action_profile_action_set: { action_profile_actions: actions } };
  }
  if ('memberId' in spec) return { action_profile_member_id: checkEntityId(spec.memberId, 'member id', true) };
  return { action_profile_group_id: checkEntityId(spec.groupId, 'group id', true) };
}

export function decodeTableAction(msg: p4r.TableAction__Output, schema: P4Schema): TableActionSpec | undefined {
  switch (msg.type) {
    case 'action':
      return Action.decode(msg.action!, schema);
    case 'action_profile_member_id':
      return memberRef(msg.action_profile_member_id!);
    case 'action_profile_group_id':
      return groupRef(msg.action_profile_group_id!);
    case 'action_profile_action_set':
      return new ActionSet(
        msg.action_profile_action_set!.action_profile_actions.map((a) => {
          if (!a.action) throw entityError(EntityErrorCode.MALFORMED, 'an action set item has no action');
          const item: { action: Action; weight: number; watchPort?: ValueInput } = { action: Action.decode(a.action, schema), weight: a.weight };
          if (a.watch_kind === 'watch_port' && a.watch_port) item.watchPort = bytesToP4Number(a.watch_port, PORT_BITS);
          return item;
        }),
      );
    default:
      return undefined;
  }
}
