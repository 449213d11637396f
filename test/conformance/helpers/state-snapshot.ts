// Everything the switch holds, read over P4Runtime with wildcards: every table
// entry and default entry (with direct counters and meters), indirect counters,
// meters, registers, PRE entries, digests, value sets and action profiles. A
// refused request must leave this unchanged. Entities are sorted by their
// encoding, because a rolled-back delete may put an entry back at the end of
// its table's iteration order, which P4Runtime does not promise anyway.
import { encodeMessage } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import type { RawP4Runtime } from './raw-p4runtime.js';

const EVERYTHING: p4r.Entity[] = [
  { table_entry: { counter_data: {}, meter_config: {} } },
  { table_entry: { is_default_action: true, counter_data: {}, meter_config: {} } },
  { direct_counter_entry: {} },
  { direct_meter_entry: {} },
  { counter_entry: {} },
  { meter_entry: {} },
  { register_entry: {} },
  { packet_replication_engine_entry: {} },
  { digest_entry: {} },
  { value_set_entry: {} },
  { action_profile_member: {} },
  { action_profile_group: {} },
];

export interface Snapshot {
  readonly count: number;
  /** The entities, each as its encoded hex (for a compact, exact comparison) and decoded (for readable diffs). */
  readonly entities: readonly { readonly key: string; readonly entity: p4r.Entity__Output }[];
}

export async function snapshot(raw: RawP4Runtime): Promise<Snapshot> {
  const read = await raw.read(EVERYTHING);
  const entities = read
    .map((entity) => ({ key: Buffer.from(encodeMessage('p4.v1.Entity', entity)).toString('hex'), entity }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { count: entities.length, entities };
}

/** The table entries of a snapshot that are not default entries. */
export function matchEntries(s: Snapshot): p4r.TableEntry__Output[] {
  return s.entities.flatMap(({ entity }) => (entity.table_entry && !entity.table_entry.is_default_action ? [entity.table_entry] : []));
}
