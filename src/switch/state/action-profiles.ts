/**
 * Action profile members and action selector groups (spec §9.2), and the
 * references table entries of indirect tables hold to them. Members bind an
 * id to an action of the profile's tables; groups list weighted members.
 * A member or group still referenced cannot be deleted (FAILED_PRECONDITION).
 * One-shot programming (`action_profile_action_set`) is not supported and is
 * refused with UNIMPLEMENTED where it is used (table-entries.ts); watch ports
 * are refused the same way, because this switch does not track port status.
 */
import type { ActionProfileInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { ActionValidator, type ActionCall } from './action-call.js';
import { alreadyExists, failedPrecondition, invalidArgument, notFound, resourceExhausted, unimplemented } from './entity-error.js';
import type { EntryAction } from './table-store.js';
import { Store, type UndoLog } from './undo-log.js';
import { describe, type UpdateType } from './validation.js';

export interface GroupMember {
  readonly memberId: number;
  readonly weight: number;
}

export interface GroupRecord {
  readonly members: readonly GroupMember[];
  readonly maxSize: number;
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
}

export class ActionProfileStore extends Store {
  private readonly profiles = new Map<number, ActionProfileState>();

  constructor(schema: P4Schema, undo: UndoLog) {
    super(undo);
    for (const info of schema.actionProfiles.all) {
      const label = describe(info.withSelector ? 'action selector' : 'action profile', info.name, info.id);
      const firstTable = info.tableIds.map((id) => schema.tables.find(id)).find((t) => t !== undefined);
      const actions = new ActionValidator(firstTable?.actionRefs ?? new Map(), label);
      this.profiles.set(info.id, { info, label, actions, members: new Map(), groups: new Map(), memberRefs: new Map(), groupRefs: new Map() });
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
      if ((m.watch_kind === 'watch' && m.watch) || (m.watch_kind === 'watch_port' && m.watch_port?.length)) {
        throw unimplemented(`member ${m.member_id} of group ${g.group_id} sets a watch port; this switch does not track port status`);
      }
      members.push({ memberId: m.member_id, weight: m.weight });
    }
    const bySum = p.info.raw.selector_size_semantics === 'sum_of_members' ? members.length : members.reduce((s, m) => s + m.weight, 0);
    const limit = g.max_size || maxGroupSize;
    if (limit > 0 && bySum > limit) throw resourceExhausted(`group ${g.group_id} needs ${bySum} slots but its limit is ${limit}`);
    return { members, maxSize: g.max_size };
  }

  /** Checks that an indirect table entry's member or group exists (NOT_FOUND otherwise). */
  checkTarget(profileId: number, action: EntryAction): void {
    const p = this.lookup(profileId);
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
