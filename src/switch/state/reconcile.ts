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

/** The writes that rebuild `old` in a state of another P4Info, dependencies first, made one by one as iterated. */
function* writesFor(old: ForwardingState): Generator<Write> {
  const read = (request: object): Iterable<p4r.Entity> => old.read(decoded<p4r.Entity__Output>('p4.v1.Entity', request));
  function* all(type: Write['type'], entities: Iterable<p4r.Entity>, keep: (e: p4r.Entity) => boolean = () => true): Generator<Write> {
    for (const entity of entities) if (keep(entity)) yield { type, entity };
  }
  yield* all('INSERT', read({ action_profile_member: {} }));
  yield* all('INSERT', read({ action_profile_group: {} }));
  yield* all('INSERT', read({ table_entry: { counter_data: {}, meter_config: {} } }), (e) => !e.table_entry?.is_const);
  for (const t of old.tables.all()) {
    const d = t.defaultEntry;
    if (!d.isProgramDefault) {
      yield { type: 'MODIFY', entity: { table_entry: defaultEntryProto(t, d, { counter: true, meter: true, hit: false }) } };
      continue;
    }
    const key = { table_id: t.info.id, is_default_action: true };
    if (d.counter && (d.counter.packets || d.counter.bytes)) {
      yield { type: 'MODIFY', entity: { direct_counter_entry: { table_entry: key, data: { packet_count: d.counter.packets, byte_count: d.counter.bytes } } } };
    }
    if (d.meter) {
      const config = defaultEntryProto(t, d, { counter: false, meter: true, hit: false }).meter_config;
      yield { type: 'MODIFY', entity: { direct_meter_entry: { table_entry: key, config } } };
    }
  }
  yield* all('MODIFY', read({ counter_entry: {} }), (e) => e.counter_entry?.data?.packet_count !== '0' || e.counter_entry?.data?.byte_count !== '0');
  yield* all('MODIFY', read({ meter_entry: {} }), (e) => !!e.meter_entry?.config);
  yield* all('MODIFY', read({ register_entry: {} }), (e) => !isZeroBytes(e.register_entry?.data?.bitstring));
  yield* all('INSERT', read({ packet_replication_engine_entry: {} }));
  yield* all('INSERT', read({ digest_entry: {} }));
  yield* all('MODIFY', read({ value_set_entry: {} }), (e) => !!e.value_set_entry?.members?.length);
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
