/** Direct meters, addressed like direct counters by the key of their table entry. MODIFY only. */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { checkModifyOnly } from './counter-entry.js';
import { decodeMeterCounterData, encodeMeterCounterData, type MeterCounterDataInput } from './counter-data.js';
import { checkDirectResource } from './direct-counter-entry.js';
import type { EncodeIntent, P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { decodeMeterConfig, encodeMeterConfig, type MeterConfigInput } from './meter-config.js';
import { TableEntry, decodeTableEntry, table } from './table-entry.js';

export class DirectMeterEntry implements P4Entity {
  readonly kind = 'direct_meter_entry';

  constructor(
    readonly entry: TableEntry,
    readonly config?: MeterConfigInput,
    readonly counterData?: MeterCounterDataInput,
  ) {}

  describe(): string {
    return `direct meter of ${this.entry.describe()}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    checkModifyOnly(intent, 'direct meter', this.entry.table === undefined);
    checkDirectResource(this.entry, schema, 'directMeterId');
    return {
      direct_meter_entry: {
        table_entry: this.entry.encodeTableEntry(schema, intent, true),
        config: encodeMeterConfig(this.config),
        counter_data: encodeMeterCounterData(this.counterData),
      },
    };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): DirectMeterEntry {
    const e = msg.direct_meter_entry;
    if (!e?.table_entry) throw entityError(EntityErrorCode.MALFORMED, 'entity has no direct_meter_entry with a table entry');
    return new DirectMeterEntry(decodeTableEntry(e.table_entry, schema), decodeMeterConfig(e.config), decodeMeterCounterData(e.counter_data));
  }
}

/** The direct meter of one entry (give its key), or of every entry of a table (give its name). */
export function directMeter(entry: TableEntry | string, config?: MeterConfigInput, counterData?: MeterCounterDataInput): DirectMeterEntry {
  return new DirectMeterEntry(typeof entry === 'string' ? table(entry) : entry, config, counterData);
}
