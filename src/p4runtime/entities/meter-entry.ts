/** Indirect meters: `meter('ingress.port_meter', { index: 1, config: { cir, cburst, pir, pburst } })`; MODIFY only. */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { decodeIndex, encodeIndex } from './array-index.js';
import { checkModifyOnly } from './counter-entry.js';
import { decodeMeterCounterData, encodeMeterCounterData, type MeterCounterDataInput } from './counter-data.js';
import type { EncodeIntent, P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';
import { decodeMeterConfig, encodeMeterConfig, type MeterConfigInput } from './meter-config.js';

export interface MeterEntryInit {
  /** Meter name; undefined means every meter (reads only). */
  readonly meter: string | undefined;
  readonly index?: number;
  /** Left out in a MODIFY: the meter goes back to "always green". */
  readonly config?: MeterConfigInput;
  readonly counterData?: MeterCounterDataInput;
}

export class MeterEntry implements P4Entity {
  readonly kind = 'meter_entry';
  readonly meter: string | undefined;
  readonly index: number | undefined;
  readonly config: MeterConfigInput | undefined;
  readonly counterData: MeterCounterDataInput | undefined;

  constructor(init: MeterEntryInit) {
    this.meter = init.meter;
    this.index = init.index;
    this.config = init.config;
    this.counterData = init.counterData;
  }

  describe(): string {
    return `meter ${this.meter ?? '*'}${this.index === undefined ? '' : `[${this.index}]`}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    checkModifyOnly(intent, 'meter', this.meter === undefined);
    const info = this.meter === undefined ? undefined : schema.meters.get(this.meter);
    return {
      meter_entry: {
        meter_id: info?.id ?? 0,
        index: encodeIndex(this.index, info?.size ?? 0, this.describe()),
        config: encodeMeterConfig(this.config),
        counter_data: encodeMeterCounterData(this.counterData),
      },
    };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): MeterEntry {
    const e = msg.meter_entry;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no meter_entry');
    return new MeterEntry({
      meter: e.meter_id ? schema.meters.get(e.meter_id).name : undefined,
      index: decodeIndex(e.index),
      config: decodeMeterConfig(e.config),
      counterData: decodeMeterCounterData(e.counter_data),
    });
  }
}

/** A meter cell (or the whole array without index); `'*'` for every meter. */
export function meter(name: string, options: { index?: number; config?: MeterConfigInput; counterData?: MeterCounterDataInput } = {}): MeterEntry {
  return new MeterEntry({ meter: name === '*' ? undefined : name, ...options });
}
