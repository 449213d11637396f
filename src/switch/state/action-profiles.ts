/**
 * Action profile members and action selector groups (spec §9.2), and the
 * references table entries of indirect tables hold to them. Members bind an
 * id to an action of the profile's tables; groups list weighted members.
 * A member or group still referenced cannot be deleted (FAILED_PRECONDITION).
 *
 * One-shot programming (spec §"One Shot Action Selector Programming"): a
 * table entry whose action is an action set gets a hidden group and one
 * hidden member per action, made with the entry and removed with it (or when
 * a MODIFY replaces the set). While a selector has one-shot entries, all its
 * members and groups are hidden ones: member and group reads leave them out,
 * and member/group writes and entries naming members or groups are refused
 * with INVALID_ARGUMENT, as mixing the two styles is; a one-shot entry is
 * refused the same way while the selector has members or groups.
 *
 * Weights: the data plane picks among a group's `slots`, where each member
 * appears `weight` times, as PI installs a weighted member into BMv2 that many
 * times. Watch ports are refused with UNIMPLEMENTED (the spec's answer for a
 * target that cannot watch ports): this switch does not track port status.
 */
import type { ActionProfileInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { ActionValidator, type ActionCall } from './action-call.js';
import { alreadyExists, failedPrecondition, invalidArgument, notFound, resourceExhausted, unimplemented } from './entity-error.js';
import type { EntryAction, OneShotAction } from './table-store.js';
import { Store, type UndoLog } from './undo-log.js';
import { describe, type UpdateType } from './validation.js';

export interface GroupMember {
  readonly memberId: number;
  readonly weight: number;
}

export interface GroupRecord {
  /** As written (for reads and reference counts). */
  readonly members: readonly GroupMember[];
  readonly maxSize: number;
  /** What the data plane picks from, by hash: member ids, each repeated `weight` times. */
  readonly slots: readonly number[];
  /** Made from a one-shot action set: hidden from reads, removed with its table entry. */
  readonly oneShot: boolean;
}

export interface ActionProfileState {
  readonly info: ActionProfileInfo;
  readonly label: string;
  readonly actions: ActionValidator;
  readonly members: Map<number, ActionCall>;
  readonly groups: Map<number, GroupRecord>;
  /** How many groups and table entries use each member / each group. */
  readonly memberRefs: Map<number, number>;
  readonly groupRefs: Map<number, number>;
  /** Where the search for a free hidden (one-shot) member or group id starts. */
  hiddenIdCursor: number;
}

/**
 * Most weight units (sum of weights) in one group when the P4Info sets no smaller limit: each unit is
 * one slot in the data plane's selection list, so the limit bounds a group's memory.
 */
export const MAX_GROUP_WEIGHT_UNITS = 4096;

/** True when a member entry of a group or action set sets a watch port. */
export function watches(m: { readonly watch_kind?: string; readonly watch?: number; readonly watch_port?: Buffer }): boolean {
  return (m.watch_kind === 'watch' && !!m.watch) || (m.watch_kind === 'watch_port' && !!m.watch_port?.length);
}

/** Member ids repeated by weight: the selection list of a group. */
function slotsOf(members: readonly GroupMember[]): number[] {
  const slots: number[] = [];
  for (const m of members) for (let i = 0; i < m.weight; i++) slots.push(m.memberId);
  return slots;
}

/** True while the profile's members and groups are the hidden ones of one-shot table entries. */
function inOneShotUse(p: ActionProfileState): boolean {
  const first = p.groups.values().next();
  return !first.done && first.value.oneShot;
}

function refuseMixing(p: ActionProfileState, what: string): void {
  if (inOneShotUse(p)) {
    throw invalidArgument(
      `${p.label} is programmed with one-shot action sets by its table entries, so ${what} cannot be used with it: P4Runtime forbids mixing one-shot and member/group programming on one action selector`,
    );
  }
}

export class ActionProfileStore extends Store {
  private readonly profiles = new Map<number, ActionProfileState>();

  constructor(schema: P4Schema, undo: UndoLog) {
    super(undo);
    for (const info of schema.actionProfiles.all) {
      const label = describe(info.withSelector ? 'action selector' : 'action profile', info.name, info.id);
      const firstTable = info.tableIds.map((id) => schema.tables.find(id)).find((t) => t !== undefined);
      const actions = new ActionValidator(firstTable?.actionRefs ?? new Map(), label);
      this.profiles.set(info.id, { info, label, actions, members: new Map(), groups: new Map(), memberRefs: new Map(), groupRefs: new Map(), hiddenIdCursor: 1 });
    }
  }

  profile(id: number): ActionProfileState | undefined {
    return this.profiles.get(id);
  }

  all(): IterableIterator<ActionProfileState> {
    return this.profiles.values();
  }

  lookup(id: number): ActionProfileState {
    const p = this.profiles.get(id);
    if (!p) throw notFound(`no action profile with id ${id} in the P4Info`);
    return p;
  }

  writeMember(type: UpdateType, m: p4r.ActionProfileMember__Output): void {
    const p = this.lookup(m.action_profile_id);
    refuseMixing(p, 'action profile members');
    if (m.member_id === 0) throw invalidArgument(`member_id 0 is not a valid member id in ${p.label}`);
    const existing = p.members.get(m.member_id);
    if (type === 'DELETE') {
      if (!existing) throw notFound(`${p.label} has no member ${m.member_id}`);
      if (p.memberRefs.get(m.member_id)) throw failedPrecondition(`member ${m.member_id} of ${p.label} is still used by a group or a table entry`);
      this.put(p.members, m.member_id, undefined);
      return;
    }
    if (type === 'INSERT' && existing) throw alreadyExists(`${p.label} already has member ${m.member_id}`);
    if (type === 'MODIFY' && !existing) throw notFound(`${p.label} has no member ${m.member_id}`);
    if (!m.action) throw invalidArgument(`member ${m.member_id} of ${p.label} has no action`);
    const call = p.actions.parse(m.action, 'entry');
    if (type === 'INSERT' && p.info.size > 0 && p.members.size >= p.info.size) {
      throw resourceExhausted(`${p.label} is full: it holds ${p.info.size} members`);
    }
    this.put(p.members, m.member_id, call);
  }

  writeGroup(type: UpdateType, g: p4r.ActionProfileGroup__Output): void {
    const p = this.lookup(g.action_profile_id);
    if (!p.info.withSelector) throw invalidArgument(`${p.label} has no selector: only action selectors have groups`);
    refuseMixing(p, 'action profile groups');
    if (g.group_id === 0) throw invalidArgument(`group_id 0 is not a valid group id in ${p.label}`);
    const existing = p.groups.get(g.group_id);
    if (type === 'DELETE') {
      if (!existing) throw notFound(`${p.label} has no group ${g.group_id}`);
      if (p.groupRefs.get(g.group_id)) throw failedPrecondition(`group ${g.group_id} of ${p.label} is still used by a table entry`);
      for (const m of existing.members) this.bump(p.memberRefs, m.memberId, -1);
      this.put(p.groups, g.group_id, undefined);
      return;
    }
    if (type === 'INSERT' && existing) throw alreadyExists(`${p.label} already has group ${g.group_id}`);
    if (type === 'MODIFY' && !existing) throw notFound(`${p.label} has no group ${g.group_id}`);
    if (existing && existing.maxSize !== g.max_size) {
      throw invalidArgument(`max_size of group ${g.group_id} is ${existing.maxSize}; it cannot change (asked for ${g.max_size})`);
    }
    const record = this.checkGroup(p, g);
    if (existing) for (const m of existing.members) this.bump(p.memberRefs, m.memberId, -1);
    for (const m of record.members) this.bump(p.memberRefs, m.memberId, 1);
    this.put(p.groups, g.group_id, record);
  }

  private checkGroup(p: ActionProfileState, g: p4r.ActionProfileGroup__Output): GroupRecord {
    const maxGroupSize = p.info.maxGroupSize;
    if (g.max_size < 0) throw invalidArgument(`max_size ${g.max_size} of group ${g.group_id} is negative`);
    if (maxGroupSize > 0 && g.max_size > maxGroupSize) {
      throw invalidArgument(`max_size ${g.max_size} of group ${g.group_id} is above the max_group_size ${maxGroupSize} of ${p.label}`);
    }
    const seen = new Set<number>();
    const members: GroupMember[] = [];
    for (const m of g.members) {
      if (seen.has(m.member_id)) throw invalidArgument(`member ${m.member_id} appears twice in group ${g.group_id}; use its weight instead`);
      seen.add(m.member_id);
      if (!p.members.has(m.member_id)) throw notFound(`group ${g.group_id} refers to member ${m.member_id}, which ${p.label} does not have`);
      if (m.weight <= 0) throw invalidArgument(`member ${m.member_id} of group ${g.group_id} has weight ${m.weight}; weights must be > 0`);
      if (m.weight !== 1 && p.info.raw.weights_disallowed) throw invalidArgument(`${p.label} disallows weights (weights_disallowed): member ${m.member_id} of group ${g.group_id} must have weight 1`);
      if (watches(m)) {
        throw unimplemented(`member ${m.member_id} of group ${g.group_id} sets a watch port; this switch does not track port status`);
      }
      members.push({ memberId: m.member_id, weight: m.weight });
    }
    const weights = members.reduce((s, m) => s + m.weight, 0);
    const bySum = p.info.raw.selector_size_semantics === 'sum_of_members' ? members.length : weights;
    const limit = g.max_size || maxGroupSize;
    if (limit > 0 && bySum > limit) throw resourceExhausted(`group ${g.group_id} needs ${bySum} slots but its limit is ${limit}`);
    if (weights > MAX_GROUP_WEIGHT_UNITS) {
      throw resourceExhausted(`the weights of group ${g.group_id} add up to ${weights}; this switch supports at most ${MAX_GROUP_WEIGHT_UNITS} per group`);
    }
    return { members, maxSize: g.max_size, slots: slotsOf(members), oneShot: false };
  }

  /**
   * Checks a one-shot action set (already parsed against the table's actions) for an entry of a
   * table of `profileId`, changing nothing. `replacing` is the entry's current action when a MODIFY
   * replaces it: its hidden members are freed first, so they do not count against the profile's size.
   */
  checkActionSet(profileId: number, actions: readonly OneShotAction[], replacing: EntryAction | undefined, owner: string): void {
    const p = this.lookup(profileId);
    if (!p.info.withSelector) {
      throw invalidArgument(`${owner} is implemented by ${p.label}, which has no selector: one-shot action sets need an action selector; give a member id`);
    }
    if (!inOneShotUse(p) && (p.members.size > 0 || p.groups.size > 0)) {
      throw invalidArgument(
        `${p.label} is programmed with members and groups, so a one-shot action set cannot be used with it: P4Runtime forbids mixing one-shot and member/group programming on one action selector`,
      );
    }
    // As BMv2 (PI: "No support for empty action profile groups").
    if (actions.length === 0) throw unimplemented(`an empty one-shot action set is not supported (${owner}); give at least one action`);
    const maxGroupSize = p.info.maxGroupSize;
    const weights = actions.reduce((s, a) => s + a.weight, 0);
    const raw = p.info.raw;
    if (raw.weights_disallowed && actions.some((a) => a.weight !== 1)) throw invalidArgument(`${p.label} disallows weights (weights_disallowed): every action of the set must have weight 1 (${owner})`);
    if (raw.selector_size_semantics === 'sum_of_members') {
      if (maxGroupSize > 0 && actions.length > maxGroupSize) {
        throw invalidArgument(`the action set has ${actions.length} actions, more than the max_group_size ${maxGroupSize} of ${p.label} (${owner})`);
      }
      const maxWeight = raw.sum_of_members?.max_member_weight ?? 0;
      const heavy = actions.find((a) => maxWeight > 0 && a.weight > maxWeight);
      if (heavy) throw invalidArgument(`an action of the set has weight ${heavy.weight}, above the max_member_weight ${maxWeight} of ${p.label} (${owner})`);
    } else if (maxGroupSize > 0 && weights > maxGroupSize) {
      throw invalidArgument(`the weights of the action set add up to ${weights}, more than the max_group_size ${maxGroupSize} of ${p.label} (${owner})`);
    }
    if (weights > MAX_GROUP_WEIGHT_UNITS) {
      throw resourceExhausted(`the weights of the action set add up to ${weights}; this switch supports at most ${MAX_GROUP_WEIGHT_UNITS} per group (${owner})`);
    }
    const freed = replacing?.kind === 'group' && replacing.oneShot ? replacing.oneShot.length : 0;
    if (p.info.size > 0 && p.members.size - freed + actions.length > p.info.size) {
      throw resourceExhausted(`${p.label} is full: it holds ${p.info.size} members, and the action set needs ${actions.length} of them`);
    }
  }

  /**
   * Takes on a table entry's action: counts its use of a member or group, or makes the hidden
   * members and group of a (checked) one-shot action set. Returns the action to store.
   */
  attach(profileId: number, action: EntryAction): EntryAction {
    if (action.kind === 'group' && action.oneShot) return this.installActionSet(this.lookup(profileId), action.oneShot);
    this.reference(profileId, action, 1);
    return action;
  }

  /** Lets go of a table entry's action: the reverse of attach. */
  detach(profileId: number, action: EntryAction): void {
    if (action.kind === 'group' && action.oneShot) {
      const p = this.lookup(profileId);
      const group = p.groups.get(action.groupId);
      if (group) for (const m of group.members) this.put(p.members, m.memberId, undefined);
      this.put(p.groups, action.groupId, undefined);
      return;
    }
    this.reference(profileId, action, -1);
  }

  private installActionSet(p: ActionProfileState, actions: readonly OneShotAction[]): EntryAction {
    const members: GroupMember[] = [];
    for (const a of actions) {
      const memberId = this.hiddenId(p, p.members);
      this.put(p.members, memberId, a.call);
      members.push({ memberId, weight: a.weight });
    }
    const groupId = this.hiddenId(p, p.groups);
    this.put(p.groups, groupId, { members, maxSize: 0, slots: slotsOf(members), oneShot: true });
    return { kind: 'group', groupId, oneShot: actions };
  }

  /** A free id for a hidden member or group (1 .. 2^32-1); hidden ids are never shown, so any free one does. */
  private hiddenId(p: ActionProfileState, used: ReadonlyMap<number, unknown>): number {
    let id = p.hiddenIdCursor;
    while (used.has(id)) id = id >= 0xffffffff ? 1 : id + 1;
    p.hiddenIdCursor = id >= 0xffffffff ? 1 : id + 1;
    return id;
  }

  /** Checks that an indirect table entry's member or group exists (NOT_FOUND otherwise). */
  checkTarget(profileId: number, action: EntryAction): void {
    const p = this.lookup(profileId);
    refuseMixing(p, `a table entry naming ${action.kind === 'group' ? 'a group' : 'a member'}`);
    if (action.kind === 'member' && !p.members.has(action.memberId)) throw notFound(`${p.label} has no member ${action.memberId}`);
    if (action.kind === 'group') {
      if (!p.info.withSelector) throw invalidArgument(`${p.label} has no selector: a table entry cannot point to a group`);
      if (!p.groups.has(action.groupId)) throw notFound(`${p.label} has no group ${action.groupId}`);
    }
  }

  /** Counts a table entry's use of a member or group (delta +1 on insert, -1 on delete). */
  reference(profileId: number, action: EntryAction, delta: 1 | -1): void {
    const p = this.profiles.get(profileId);
    if (!p) return;
    if (action.kind === 'member') this.bump(p.memberRefs, action.memberId, delta);
    if (action.kind === 'group') this.bump(p.groupRefs, action.groupId, delta);
  }

  readMembers(profileId: number, memberId: number): p4r.Entity[] {
    const out: p4r.Entity[] = [];
    for (const p of this.select(profileId)) {
      if (inOneShotUse(p)) continue; // hidden members of one-shot entries
      for (const [id, call] of p.members) {
        if (memberId && id !== memberId) continue;
        out.push({ action_profile_member: { action_profile_id: p.info.id, member_id: id, action: p.actions.toProto(call) } });
      }
    }
    return out;
  }

  readGroups(profileId: number, groupId: number): p4r.Entity[] {
    const out: p4r.Entity[] = [];
    for (const p of this.select(profileId)) {
      if (inOneShotUse(p)) continue; // hidden groups of one-shot entries
      for (const [id, g] of p.groups) {
        if (groupId && id !== groupId) continue;
        const members = g.members.map((m) => ({ member_id: m.memberId, weight: m.weight }));
        out.push({ action_profile_group: { action_profile_id: p.info.id, group_id: id, members, max_size: g.maxSize } });
      }
    }
    return out;
  }

  private select(profileId: number): ActionProfileState[] {
    return profileId ? [this.lookup(profileId)] : [...this.profiles.values()];
  }

  private put<V>(map: Map<number, V>, key: number, value: V | undefined): void {
    const had = map.has(key);
    const old = map.get(key);
    if (value === undefined) map.delete(key);
    else map.set(key, value);
    this.touch();
    if (this.undo.active) {
      this.undo.record(() => {
        if (had) map.set(key, old as V);
        else map.delete(key);
        this.touch();
      });
    }
  }

  private bump(refs: Map<number, number>, key: number, delta: number): void {
    const next = (refs.get(key) ?? 0) + delta;
    this.put(refs, key, next > 0 ? next : undefined);
  }
}
