/**
 * Reads of `TableEntry` (spec §9.1.6 "Wildcard Reads"): table_id 0 reads
 * every table; an empty match reads every non-default entry; a match reads
 * the entry with that key; `is_default_action` reads the default entry;
 * priority, action id, controller_metadata and metadata filter. Setting
 * `counter_data`, `meter_config` or `time_since_last_hit` in the request asks
 * for those values in the reply. Entries come back canonical, as written.
 */
import type * as p4r from '../../proto/p4r.js';
import { counterDataProto } from './counter-cell.js';
import { invalidArgument } from './entity-error.js';
import { meterConfigProto, refuseMeterCounterData } from './meter-config.js';
import { checkPriority } from './table-entries.js';
import type { DefaultEntryRecord, EntryAction, TableEntryRecord, TableStore } from './table-store.js';
import type { TableStores } from './tables.js';

interface ReadOptions {
  readonly counter: boolean;
  readonly meter: boolean;
  readonly hit: boolean;
}

export function actionProto(t: TableStore, action: EntryAction): p4r.TableAction {
  switch (action.kind) {
    case 'action':
      return { action: t.actions.toProto(action.call) };
    case 'member':
      return { action_profile_member_id: action.memberId };
    case 'group':
      // A one-shot entry reads back as the action set it was written with (spec: never desugared).
      if (action.oneShot) return { action_profile_action_set: { action_profile_actions: action.oneShot.map((a) => ({ action: t.actions.toProto(a.call), weight: a.weight })) } };
      return { action_profile_group_id: action.groupId };
  }
}

export function entryProto(t: TableStore, r: TableEntryRecord, opts: ReadOptions): p4r.TableEntry {
  const out: p4r.TableEntry = {
    table_id: t.info.id,
    match: t.layout.toProto(r.fields),
    action: actionProto(t, r.action),
    priority: r.priority,
    controller_metadata: r.controllerMetadata,
    metadata: Buffer.from(r.metadata),
    idle_timeout_ns: r.idleTimeoutNs,
  };
  if (t.info.isConstTable) out.is_const = true;
  if (opts.counter && r.counter) out.counter_data = counterDataProto(r.counter.packets, r.counter.bytes);
  if (opts.meter && r.meter) out.meter_config = meterConfigProto(r.meter);
  if (opts.hit && t.hitClock) out.time_since_last_hit = { elapsed_ns: String(Math.max(0, Math.round((t.hitClock() - r.lastHit) * 1e6))) };
  return out;
}

export function defaultEntryProto(t: TableStore, d: DefaultEntryRecord, opts: ReadOptions): p4r.TableEntry {
  const out: p4r.TableEntry = {
    table_id: t.info.id,
    is_default_action: true,
    controller_metadata: d.controllerMetadata,
    metadata: Buffer.from(d.metadata),
  };
  if (d.action) out.action = actionProto(t, d.action);
  if (opts.counter && d.counter) out.counter_data = counterDataProto(d.counter.packets, d.counter.bytes);
  if (opts.meter && d.meter) out.meter_config = meterConfigProto(d.meter);
  return out;
}

type EntryFilter = (r: TableEntryRecord) => boolean;

function filterOf(te: p4r.TableEntry__Output): EntryFilter | undefined {
  const tests: EntryFilter[] = [];
  if (te.priority) tests.push((r) => r.priority === te.priority);
  const actionId = te.action?.type === 'action' ? te.action.action?.action_id : undefined;
  if (actionId) tests.push((r) => r.action.kind === 'action' && r.action.call.actionId === actionId);
  if (te.controller_metadata !== '0') tests.push((r) => r.controllerMetadata === te.controller_metadata);
  if (te.metadata.length) tests.push((r) => r.metadata.equals(te.metadata));
  if (!tests.length) return undefined;
  return (r) => tests.every((test) => test(r));
}

/** Checks a read of one table now; the entries come as the caller iterates. */
function readTable(t: TableStore, te: p4r.TableEntry__Output, opts: ReadOptions): Iterable<p4r.Entity> {
  if (te.is_default_action) {
    if (te.match.length) throw invalidArgument(`a read of the default entry of ${t.label} takes no match`);
    return [{ table_entry: defaultEntryProto(t, t.defaultEntry, opts) }];
  }
  const filter = filterOf(te);
  if (te.match.length) {
    const { matchKey } = t.layout.parseKey(te.match);
    if (te.priority || !t.info.needsPriority) {
      const r = t.get(t.entryKey(matchKey, checkPriority(t, te.priority)));
      return r && (!filter || filter(r)) ? [{ table_entry: entryProto(t, r, opts) }] : [];
    }
    // Same match at any priority.
    return (function* sameMatch(): Generator<p4r.Entity> {
      for (const r of t.entries()) if (r.matchKey === matchKey && (!filter || filter(r))) yield { table_entry: entryProto(t, r, opts) };
    })();
  }
  return (function* all(): Generator<p4r.Entity> {
    for (const r of t.entries()) if (!filter || filter(r)) yield { table_entry: entryProto(t, r, opts) };
  })();
}

/**
 * The entries a TableEntry read selects. The request is checked when this is called (throws
 * EntityError); the entries are made one by one as the caller iterates, so a read of a large
 * table never exists as one array. Entries inserted or deleted while the caller iterates may or
 * may not be seen (a Map iterator's rules), never twice.
 */
export function readTableEntries(te: p4r.TableEntry__Output, tables: TableStores): Iterable<p4r.Entity> {
  refuseMeterCounterData(te.meter_counter_data, 'table entry read');
  const opts: ReadOptions = { counter: !!te.counter_data, meter: !!te.meter_config, hit: !!te.time_since_last_hit };
  if (te.table_id === 0) {
    if (te.match.length) throw invalidArgument('a read of all tables (table_id 0) cannot filter by match: match fields belong to one table');
    const reads = [...tables.all()].map((t) => readTable(t, te, opts));
    return (function* allTables(): Generator<p4r.Entity> {
      for (const r of reads) yield* r;
    })();
  }
  const t = tables.lookup(te.table_id);
  if (opts.hit && !t.info.idleTimeout) throw invalidArgument(`${t.label} does not support idle timeouts, so it has no time_since_last_hit`);
  return readTable(t, te, opts);
}
