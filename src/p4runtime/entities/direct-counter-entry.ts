/**
 * Direct counters, addressed by the key of their table entry:
 * `directCounter(table('ingress.l2', { dst_addr: 1 }))`, or `directCounter('ingress.l2')`
 * for every entry of the table. Only the key of the entry is sent. MODIFY only.
 */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { checkModifyOnly } from './counter-entry.js';
import { decodeCounterData, encodeCounterData, type CounterDataInput } from './counter-data.js';
import type { EncodeIntent, P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { TableEntry, decodeTableEntry, table } from './table-entry.js';

/** Throws unless the entry's table has the direct resource asked for. */
export function checkDirectResource(entry: TableEntry, schema: P4Schema, resource: 'directCounterId' | 'directMeterId'): void {
  if (entry.table === undefined) return;
  const info = schema.tables.get(entry.table);
  if (info[resource] === undefined) {
    const what = resource === 'directCounterId' ? 'direct counter' : 'direct meter';
    throw entityError(EntityErrorCode.NO_DIRECT_RESOURCE, `table ${info.name} has no ${what}`);
  }
}

export class DirectCounterEntry implements P4Entity {
  readonly kind = 'direct_counter_entry';

  constructor(
    readonly entry: TableEntry,
    readonly data?: CounterDataInput,
  ) {}

  describe(): string {
    return `direct counter of ${this.entry.describe()}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    checkModifyOnly(intent, 'direct counter', this.entry.table === undefined);
    checkDirectResource(this.entry, schema, 'directCounterId');
    return {
      direct_counter_entry: {
        table_entry: this.entry.encodeTableEntry(schema, intent, true),
        data: encodeCounterData(this.data),
      },
    };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): DirectCounterEntry {
    const e = msg.direct_counter_entry;
    if (!e?.table_entry) throw entityError(EntityErrorCode.MALFORMED, 'entity has no direct_counter_entry with a table entry');
    return new DirectCounterEntry(decodeTableEntry(e.table_entry, schema), decodeCounterData(e.data));
  }
}

/** The direct counter of one entry (give its key), or of every entry of a table (give its name). */
export function directCounter(entry: TableEntry | string, data?: CounterDataInput): DirectCounterEntry {
  return new DirectCounterEntry(typeof entry === 'string' ? table(entry) : entry, data);
}
