/**
 * RECONCILE_AND_COMMIT as PI does it: read every entity of the current
 * state, then re-write it into a fresh state for the new P4Info (members and
 * groups before the table entries that use them). If any entity does not fit
 * the new P4Info the whole reconcile fails with INVALID_ARGUMENT naming it,
 * and the caller keeps the old state. Ids, not names, carry entities over.
 */
import type * as p4r from '../../proto/p4r.js';
import { CONVERSION, messageType } from '../../proto/load.js';
import { EntityError, invalidArgument } from './entity-error.js';
import type { ForwardingState } from './forwarding-state.js';
import { defaultEntryProto } from './table-reads.js';

type Write = { type: 'INSERT' | 'MODIFY'; entity: p4r.Entity };

function decoded<T>(typeName: string, value: object): T {
  const type = messageType(typeName);
  return type.toObject(type.fromObject(value as Record<string, unknown>), CONVERSION) as T;
}

function isZeroBytes(value: unknown): boolean {
  return Buffer.isBuffer(value) && value.every((b) => b === 0);
}

/** The writes that rebuild `old` in a state of another P4Info, dependencies first. */
function writesFor(old: ForwardingState): Write[] {
  const read = (request: object): p4r.Entity[] => {
    const out: p4r.Entity[] = [];
    old.read(decoded<p4r.Entity__Output>('p4.v1.Entity', request), out);
    return out;
  };
  const all = (type: Write['type'], entities: p4r.Entity[]): Write[] => entities.map((entity) => ({ type, entity }));
  const writes: Write[] = [
    ...all('INSERT', read({ action_profile_member: {} })),
    ...all('INSERT', read({ action_profile_group: {} })),
    ...all('INSERT', read({ table_entry: { counter_data: {}, meter_config: {} } }).filter((e) => !e.table_entry?.is_const)),
  ];
  for (const t of old.tables.all()) {
    const d = t.defaultEntry;
    if (!d.isProgramDefault) {
      writes.push({ type: 'MODIFY', entity: { table_entry: defaultEntryProto(t, d, { counter: true, meter: true, hit: false }) } });
      continue;
    }
    const key = { table_id: t.info.id, is_default_action: true };
    if (d.counter && (d.counter.packets || d.counter.bytes)) {
      writes.push({ type: 'MODIFY', entity: { direct_counter_entry: { table_entry: key, data: { packet_count: d.counter.packets, byte_count: d.counter.bytes } } } });
    }
    if (d.meter) {
      const config = defaultEntryProto(t, d, { counter: false, meter: true, hit: false }).meter_config;
      writes.push({ type: 'MODIFY', entity: { direct_meter_entry: { table_entry: key, config } } });
    }
  }
  writes.push(
    ...all('MODIFY', read({ counter_entry: {} }).filter((e) => e.counter_entry?.data?.packet_count !== '0' || e.counter_entry?.data?.byte_count !== '0')),
    ...all('MODIFY', read({ meter_entry: {} }).filter((e) => e.meter_entry?.config)),
    ...all('MODIFY', read({ register_entry: {} }).filter((e) => !isZeroBytes(e.register_entry?.data?.bitstring))),
    ...all('INSERT', read({ packet_replication_engine_entry: {} })),
    ...all('INSERT', read({ digest_entry: {} })),
    ...all('MODIFY', read({ value_set_entry: {} }).filter((e) => e.value_set_entry?.members?.length)),
  );
  return writes;
}

/** Re-writes the entities of `old` into `fresh` (a state for the new P4Info); throws EntityError (INVALID_ARGUMENT). */
export function reconcileInto(old: ForwardingState, fresh: ForwardingState): void {
  for (const write of writesFor(old)) {
    const update = decoded<p4r.Update__Output>('p4.v1.Update', write);
    try {
      fresh.apply(update);
    } catch (e) {
      if (!(e instanceof EntityError)) throw e;
      const kind = update.entity?.entity ?? 'entity';
      throw invalidArgument(`the current forwarding state does not fit the new P4Info: a ${kind} cannot be kept (${e.message})`);
    }
  }
}
