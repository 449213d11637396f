/**
 * Indexed (indirect) meters (spec §9.4.2): one configuration per cell,
 * undefined meaning the default meter (every packet GREEN). MODIFY only; an
 * unset index configures every cell; an unset config resets.
 */
import type { MeterInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { notFound } from './entity-error.js';
import { meterConfigProto, parseMeterConfig, refuseMeterCounterData, type MeterSettings } from './meter-config.js';
import { Store, type UndoLog } from './undo-log.js';
import { arrayIndex, describe, modifyOnly, type UpdateType } from './validation.js';

export interface MeterArray {
  readonly info: MeterInfo;
  readonly label: string;
  readonly configs: (MeterSettings | undefined)[];
}

export class MeterStore extends Store {
  private readonly byId = new Map<number, MeterArray>();

  constructor(schema: P4Schema, undo: UndoLog, allocate = true) {
    super(undo);
    for (const info of schema.meters.all) {
      const cells = allocate ? info.size : 0;
      this.byId.set(info.id, { info, label: describe('meter', info.name, info.id), configs: new Array<MeterSettings | undefined>(cells).fill(undefined) });
    }
  }

  find(id: number): MeterArray | undefined {
    return this.byId.get(id);
  }

  lookup(id: number): MeterArray {
    const m = this.byId.get(id);
    if (!m) throw notFound(`no meter with id ${id} in the P4Info`);
    return m;
  }

  all(): IterableIterator<MeterArray> {
    return this.byId.values();
  }

  write(type: UpdateType, e: p4r.MeterEntry__Output): void {
    modifyOnly(type, 'a meter entry');
    const m = this.lookup(e.meter_id);
    const index = arrayIndex(e.index, m.info.size, m.label);
    refuseMeterCounterData(e.counter_data, m.label);
    const config = e.config ? parseMeterConfig(e.config, m.info.type, m.label) : undefined;
    const from = index ?? 0;
    const to = index === undefined ? m.info.size : index + 1;
    if (this.undo.active) {
      const before = m.configs.slice(from, to);
      this.undo.record(() => {
        for (let i = from; i < to; i++) m.configs[i] = before[i - from];
        this.touch();
      });
    }
    m.configs.fill(config, from, to);
    this.touch();
  }

  /** The cells a read selects, produced as the caller iterates; the request is checked before. */
  read(e: p4r.MeterEntry__Output): Iterable<p4r.Entity> {
    refuseMeterCounterData(e.counter_data, 'meter read');
    const selected = e.meter_id ? [this.lookup(e.meter_id)] : [...this.byId.values()];
    const ranges = selected.map((m) => {
      const index = e.meter_id ? arrayIndex(e.index, m.info.size, m.label) : undefined;
      return { m, from: index ?? 0, to: index === undefined ? m.info.size : index + 1 };
    });
    return (function* cells(): Generator<p4r.Entity> {
      for (const { m, from, to } of ranges) {
        for (let i = from; i < to && i < m.configs.length; i++) {
          const entry: p4r.MeterEntry = { meter_id: m.info.id, index: { index: i } };
          const config = m.configs[i];
          if (config) entry.config = meterConfigProto(config);
          yield { meter_entry: entry };
        }
      }
    })();
  }
}
