/**
 * `DirectCounterEntry` and `DirectMeterEntry` (spec §9.3.1, §9.4.1): the
 * counter and meter attached to a table entry, addressed by the entry's match
 * (or `is_default_action`). MODIFY only; the entry must exist (NOT_FOUND).
 * Reads accept wildcards: no table_entry or table_id 0 reads every table with
 * such a resource, an empty match every entry of the table.
 */
import type * as p4r from '../../proto/p4r.js';
import { counterDataProto, parseCounterData } from './counter-cell.js';
import { invalidArgument, notFound } from './entity-error.js';
import { meterConfigProto, parseMeterConfig, refuseMeterCounterData } from './meter-config.js';
import { entryKeyOf } from './table-entries.js';
import type { DefaultEntryRecord, TableEntryRecord, TableStore } from './table-store.js';
import type { TableStores } from './tables.js';
import { modifyOnly, type UpdateType } from './validation.js';

type Kind = 'direct counter' | 'direct meter';

function has(t: TableStore, kind: Kind): boolean {
  return kind === 'direct counter' ? !!t.info.directCounterId : !!t.info.directMeterId;
}

/** The entry a DirectCounterEntry/DirectMeterEntry names: a match entry or the default entry. */
function locate(
  te: p4r.TableEntry__Output | null,
  tables: TableStores,
  kind: Kind,
): { t: TableStore; entry: TableEntryRecord } | { t: TableStore; defaultEntry: DefaultEntryRecord } {
  if (!te || te.table_id === 0) throw invalidArgument(`a ${kind} write must name its table entry (table_entry.table_id is 0 or unset)`);
  const t = tables.lookup(te.table_id);
  if (!has(t, kind)) throw invalidArgument(`${t.label} has no ${kind}`);
  if (te.is_default_action) {
    if (te.match.length) throw invalidArgument(`the default entry of ${t.label} has no match; leave match empty`);
    return { t, defaultEntry: t.defaultEntry };
  }
  const { key } = entryKeyOf(t, te);
  const entry = t.get(key);
  if (!entry) throw notFound(`${t.label} has no entry with that match and priority, so it has no ${kind} value`);
  return { t, entry };
}

export function writeDirectCounter(type: UpdateType, e: p4r.DirectCounterEntry__Output, tables: TableStores): void {
  modifyOnly(type, 'a direct counter entry');
  const found = locate(e.table_entry, tables, 'direct counter');
  if (!e.data) return; // unset data leaves the counter as it is
  const value = parseCounterData(e.data, `direct counter of ${found.t.label}`);
  const cell = 'entry' in found ? found.entry.counter : found.defaultEntry.counter;
  if (cell) found.t.writeCounter(cell, value.packets, value.bytes);
}

export function writeDirectMeter(type: UpdateType, e: p4r.DirectMeterEntry__Output, tables: TableStores): void {
  modifyOnly(type, 'a direct meter entry');
  const found = locate(e.table_entry, tables, 'direct meter');
  const { t } = found;
  refuseMeterCounterData(e.counter_data, `direct meter of ${t.label}`);
  // An unset config resets the meter to its default (every packet GREEN).
  const meter = e.config ? parseMeterConfig(e.config, t.directMeterType!, `direct meter of ${t.label}`) : undefined;
  if ('entry' in found) t.change(found.entry.key, { meter });
  else t.setDefault({ ...found.defaultEntry, meter });
}

/** The key part of a table entry, as direct resource entries carry it. */
function keyProto(t: TableStore, entry: TableEntryRecord | undefined): p4r.TableEntry {
  if (!entry) return { table_id: t.info.id, is_default_action: true };
  return { table_id: t.info.id, match: t.layout.toProto(entry.fields), priority: entry.priority };
}

/** Checks a read now; the entries it selects come as the caller iterates. */
function select(te: p4r.TableEntry__Output | null, tables: TableStores, kind: Kind): Iterable<{ t: TableStore; entry: TableEntryRecord | undefined }> {
  if (!te || te.table_id === 0) {
    if (te?.match.length) throw invalidArgument(`a ${kind} read of all tables cannot filter by match`);
    const selected = [...tables.all()].filter((t) => has(t, kind));
    return (function* allTables() {
      for (const t of selected) for (const entry of t.entries()) yield { t, entry };
    })();
  }
  const t = tables.lookup(te.table_id);
  if (!has(t, kind)) throw invalidArgument(`${t.label} has no ${kind}`);
  if (te.is_default_action) return [{ t, entry: undefined }];
  if (!te.match.length) {
    return (function* oneTable() {
      for (const entry of t.entries()) yield { t, entry };
    })();
  }
  const found = locate(te, tables, kind);
  return [{ t, entry: 'entry' in found ? found.entry : undefined }];
}

export function readDirectCounters(e: p4r.DirectCounterEntry__Output, tables: TableStores): Iterable<p4r.Entity> {
  const selected = select(e.table_entry, tables, 'direct counter');
  return (function* counters(): Generator<p4r.Entity> {
    for (const { t, entry } of selected) {
      const cell = entry ? entry.counter : t.defaultEntry.counter;
      if (!cell) continue;
      yield { direct_counter_entry: { table_entry: keyProto(t, entry), data: counterDataProto(cell.packets, cell.bytes) } };
    }
  })();
}

export function readDirectMeters(e: p4r.DirectMeterEntry__Output, tables: TableStores): Iterable<p4r.Entity> {
  refuseMeterCounterData(e.counter_data, 'direct meter read');
  const selected = select(e.table_entry, tables, 'direct meter');
  return (function* meters(): Generator<p4r.Entity> {
    for (const { t, entry } of selected) {
      const meter = entry ? entry.meter : t.defaultEntry.meter;
      const item: p4r.DirectMeterEntry = { table_entry: keyProto(t, entry) };
      if (meter) item.config = meterConfigProto(meter);
      yield { direct_meter_entry: item };
    }
  })();
}
