/**
 * Writes of `TableEntry` (spec §9.1): INSERT, MODIFY (full snapshot, except
 * that an unset action keeps the action and an unset counter_data keeps the
 * counter), DELETE (reads only the key), the default entry (MODIFY only),
 * const tables, priorities, direct resources and idle timeouts. Every check
 * runs before the store changes, so a refused update leaves no trace.
 */
import type * as p4r from '../../proto/p4r.js';
import type { ActionUse } from './action-call.js';
import { watches, type ActionProfileStore } from './action-profiles.js';
import { parseCounterData, type CounterCell } from './counter-cell.js';
import { alreadyExists, invalidArgument, notFound, permissionDenied, resourceExhausted, unimplemented } from './entity-error.js';
import type { KeyedMatch } from './match-key.js';
import { parseMeterConfig, refuseMeterCounterData, type MeterSettings } from './meter-config.js';
import type { EntryAction, OneShotAction, TableStore } from './table-store.js';
import type { TableStores } from './tables.js';
import { keepBytes, type UpdateType } from './validation.js';

/** The priority of an entry of `t`: > 0 when the table has ternary, range or optional fields, else 0. */
export function checkPriority(t: TableStore, priority: number): number {
  if (priority < 0) throw invalidArgument(`priority ${priority} is negative (${t.label})`);
  if (t.info.needsPriority && priority === 0) {
    throw invalidArgument(`${t.label} has ternary, range or optional fields, so its entries need a priority > 0`);
  }
  if (!t.info.needsPriority && priority !== 0) {
    throw invalidArgument(`${t.label} has only exact and LPM fields, so its entries take no priority (got ${priority}); send 0`);
  }
  return priority;
}

/** The key of the entry a TableEntry names (match + priority), validated. */
export function entryKeyOf(t: TableStore, te: p4r.TableEntry__Output): { key: string; parsed: KeyedMatch; priority: number } {
  const priority = checkPriority(t, te.priority);
  const parsed = t.layout.parseKey(te.match);
  return { key: t.entryKey(parsed.matchKey, priority), parsed, priority };
}

/**
 * The action of a written entry, checked against the table's implementation, actions and scopes.
 * A one-shot action set comes back checked but not yet made (groupId 0): `ActionProfileStore.attach`
 * makes it once every other check of the update has passed. `replacing` is the entry's current
 * action in a MODIFY.
 */
export function entryAction(ta: p4r.TableAction__Output, t: TableStore, profiles: ActionProfileStore, use: ActionUse, replacing?: EntryAction): EntryAction {
  const profileId = t.info.implementationId;
  switch (ta.type) {
    case 'action':
      if (profileId) throw invalidArgument(`${t.label} is indirect (action profile): give an action_profile_member_id or action_profile_group_id, not an action`);
      return t.sharedAction(t.actions.check(ta.action!, use));
    case 'action_profile_member_id':
    case 'action_profile_group_id': {
      if (!profileId) throw invalidArgument(`${t.label} is a direct table: give an action, not an action profile member or group`);
      const action: EntryAction =
        ta.type === 'action_profile_member_id' ? { kind: 'member', memberId: ta.action_profile_member_id! } : { kind: 'group', groupId: ta.action_profile_group_id! };
      profiles.checkTarget(profileId, action);
      return action;
    }
    case 'action_profile_action_set': {
      if (!profileId) throw invalidArgument(`${t.label} is a direct table: give an action, not an action set`);
      const actions = ta.action_profile_action_set!.action_profile_actions.map((a, i): OneShotAction => {
        if (!a.action) throw invalidArgument(`action ${i} of the action set has no action (${t.label})`);
        const call = t.actions.parse(a.action, use);
        if (a.weight <= 0) throw invalidArgument(`action ${i} of the action set has weight ${a.weight}; weights must be > 0 (${t.label})`);
        if (watches(a)) throw unimplemented(`action ${i} of the action set sets a watch port; this switch does not track port status (${t.label})`);
        return { call, weight: a.weight };
      });
      profiles.checkActionSet(profileId, actions, replacing, t.label);
      return { kind: 'group', groupId: 0, oneShot: actions };
    }
    default:
      throw invalidArgument(`the entry's action is empty (${t.label})`);
  }
}

function counterOf(te: p4r.TableEntry__Output, t: TableStore): CounterCell | undefined {
  if (!te.counter_data) return undefined;
  if (!t.info.directCounterId) throw invalidArgument(`${t.label} has no direct counter, so its entries take no counter_data`);
  return parseCounterData(te.counter_data, `counter_data of an entry of ${t.label}`);
}

function meterOf(te: p4r.TableEntry__Output, t: TableStore): MeterSettings | undefined {
  if (te.meter_counter_data) refuseMeterCounterData(te.meter_counter_data, `entry of ${t.label}`);
  if (!te.meter_config) return undefined;
  if (!t.directMeterType) throw invalidArgument(`${t.label} has no direct meter, so its entries take no meter_config`);
  return parseMeterConfig(te.meter_config, t.directMeterType, `meter_config of an entry of ${t.label}`);
}

function idleTimeoutOf(te: p4r.TableEntry__Output, t: TableStore): string {
  if (te.time_since_last_hit) throw invalidArgument(`time_since_last_hit is read-only: leave it unset in writes (${t.label})`);
  const ttl = te.idle_timeout_ns;
  if (ttl.startsWith('-')) throw invalidArgument(`idle_timeout_ns ${ttl} is negative (${t.label})`);
  if (ttl !== '0' && !t.info.idleTimeout) throw invalidArgument(`${t.label} does not support idle timeouts; leave idle_timeout_ns at 0`);
  return ttl;
}

/**
 * Applies one TableEntry update. `fromProgram` marks the entries the P4
 * program itself declares (`const entries`, `entries`), which the pipeline
 * installs into const tables; controllers never get that right.
 */
export function writeTableEntry(type: UpdateType, te: p4r.TableEntry__Output, tables: TableStores, profiles: ActionProfileStore, fromProgram = false): void {
  if (te.table_id === 0) throw invalidArgument('table_id is 0: a write must name its table');
  const t = tables.lookup(te.table_id);
  if (te.is_const) throw invalidArgument(`is_const must be false in a write (${t.label})`);
  if (te.is_default_action) return writeDefaultEntry(type, te, t, profiles);
  if (t.info.isConstTable && type !== 'MODIFY' && !fromProgram) {
    throw permissionDenied(`${t.label} is const: its entries are fixed by the P4 program and cannot be ${type === 'INSERT' ? 'inserted' : 'deleted'}`);
  }
  if (type === 'INSERT' && t.layout.slots.length === 0) {
    throw invalidArgument(`${t.label} has no match fields: it only has a default entry, set with is_default_action and MODIFY`);
  }
  const { key, parsed, priority } = entryKeyOf(t, te);
  const existing = t.get(key);
  const profileId = t.info.implementationId;

  if (type === 'DELETE') {
    if (!existing) throw notFound(`${t.label} has no entry with that match and priority`);
    if (profileId) profiles.detach(profileId, existing.action);
    t.remove(key);
    return;
  }

  if (type === 'INSERT') {
    if (existing) throw alreadyExists(`${t.label} already has an entry with that match and priority; use MODIFY to change it`);
    if (!te.action) throw invalidArgument(`an INSERT needs an action (${t.label})`);
    const action = entryAction(te.action, t, profiles, 'entry');
    const counter = counterOf(te, t);
    const meter = meterOf(te, t);
    const idleTimeoutNs = idleTimeoutOf(te, t);
    if (t.size >= t.capacity) throw resourceExhausted(`${t.label} is full: it holds ${t.capacity} entries`);
    t.insert({
      key,
      matchKey: parsed.matchKey,
      fullRanges: parsed.fullRanges,
      priority,
      // Attached last: every check above has passed, so nothing has to be undone.
      action: profileId ? profiles.attach(profileId, action) : action,
      controllerMetadata: te.controller_metadata,
      metadata: keepBytes(te.metadata),
      idleTimeoutNs,
      counter: t.info.directCounterId ? (counter ?? { packets: 0, bytes: 0 }) : undefined,
      meter,
      lastHit: t.hitClock ? t.hitClock() : 0,
      // Only tables with a hit clock are ever checked for idleness; elsewhere a small integer keeps the field unboxed.
      idleNotified: t.hitClock ? Number.NEGATIVE_INFINITY : 0,
    });
    return;
  }

  // MODIFY
  if (t.info.isConstTable && te.action) {
    throw permissionDenied(`${t.label} is const: only the direct resources of its entries can be modified; leave the action unset`);
  }
  if (!existing) throw notFound(`${t.label} has no entry with that match and priority; INSERT it first`);
  let action = te.action ? entryAction(te.action, t, profiles, 'entry', existing.action) : existing.action;
  const counter = counterOf(te, t);
  const meter = meterOf(te, t);
  const idleTimeoutNs = idleTimeoutOf(te, t);
  if (profileId && action !== existing.action) {
    profiles.detach(profileId, existing.action);
    action = profiles.attach(profileId, action);
  }
  if (counter && existing.counter) t.writeCounter(existing.counter, counter.packets, counter.bytes);
  t.change(key, {
    action,
    controllerMetadata: te.controller_metadata,
    metadata: keepBytes(te.metadata),
    idleTimeoutNs,
    meter,
  });
}

function writeDefaultEntry(type: UpdateType, te: p4r.TableEntry__Output, t: TableStore, profiles: ActionProfileStore): void {
  if (type !== 'MODIFY') throw invalidArgument(`the default entry of ${t.label} always exists: use MODIFY, not ${type}`);
  if (te.match.length) throw invalidArgument(`the default entry of ${t.label} has no match; leave match empty`);
  if (te.priority !== 0) throw invalidArgument(`the default entry of ${t.label} has no priority; send 0`);
  if (te.idle_timeout_ns !== '0' || te.time_since_last_hit) throw invalidArgument(`default entries have no idle timeout (${t.label})`);
  if (t.info.constDefaultActionId) throw permissionDenied(`the default action of ${t.label} is const in the P4 program and cannot be changed`);
  if (te.action && t.info.implementationId) {
    throw permissionDenied(`the default entry of indirect ${t.label} is fixed (NoAction) by the P4Runtime spec`);
  }
  const action = te.action ? entryAction(te.action, t, profiles, 'default') : undefined;
  const counter = counterOf(te, t);
  const meter = meterOf(te, t);
  const current = t.defaultEntry;
  if (counter && current.counter) t.writeCounter(current.counter, counter.packets, counter.bytes);
  if (!action) {
    // No action: back to the program's default; metadata and direct-resource configuration reset with it.
    t.setDefault({ ...t.initialDefault(), counter: current.counter });
    return;
  }
  t.setDefault({
    action,
    isProgramDefault: false,
    controllerMetadata: te.controller_metadata,
    metadata: keepBytes(te.metadata),
    counter: current.counter,
    meter,
  });
}
