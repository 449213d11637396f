/**
 * Comparable forms of entities, so that what is on a switch can be compared
 * with what should be: a table entry's key (table, match, priority) and its
 * signature (key plus action), both as text of the client library's
 * canonical encoding (decode then encode gives the same message), and a
 * multicast group's replicas as a sorted list.
 * Extras the switch adds on reads (counters, timestamps) are left out.
 */
import type { P4Schema } from '../../p4info/index.js';
import { TableEntry, type MulticastGroupEntry } from '../../p4runtime/index.js';

/** The encoded entity as text: buffers become hex, and the encoder builds fields in one fixed order. */
function textOf(schema: P4Schema, entry: TableEntry): string {
  return JSON.stringify(entry.encode(schema, 'read'), (_key, value: unknown) =>
    value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer' ? Buffer.from((value as { data: number[] }).data).toString('hex') : value,
  );
}

/** What identifies the entry in its table. */
export function tableEntryKey(schema: P4Schema, entry: TableEntry): string {
  return textOf(schema, new TableEntry({ table: entry.table, match: entry.match, priority: entry.priority, isDefault: entry.isDefault }));
}

/** The key and the action: two entries with the same signature do the same thing. */
export function tableEntrySignature(schema: P4Schema, entry: TableEntry): string {
  return textOf(schema, new TableEntry({ table: entry.table, match: entry.match, priority: entry.priority, isDefault: entry.isDefault, action: entry.action }));
}

/** A group's replicas as "port/instance", sorted: the order of replicas does not matter. */
export function groupSignature(group: MulticastGroupEntry): string {
  return group.replicas
    .map((r) => `${String(r.port)}/${r.instance ?? 0}`)
    .sort()
    .join(',');
}

/** A SwitchML or Rina job's entities at one switch as one text: two jobs with the same one do the same thing there. */
export function jobEntitiesSignature(
  schema: P4Schema,
  e: { readonly job: TableEntry; readonly workers: readonly TableEntry[]; readonly rewrites: readonly TableEntry[]; readonly group: MulticastGroupEntry },
): string {
  return [
    tableEntrySignature(schema, e.job),
    ...e.workers.map((w) => tableEntrySignature(schema, w)).sort(),
    '|',
    ...e.rewrites.map((r) => tableEntrySignature(schema, r)).sort(),
    `|${e.group.groupId}:${groupSignature(e.group)}`,
  ].join(',');
}
