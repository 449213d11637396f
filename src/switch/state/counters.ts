/**
 * Indexed (indirect) counters (spec §9.3.2): two Float64Arrays per counter,
 * packets and bytes, which the data plane increments by index. MODIFY only;
 * an unset index writes every cell, an unset `data` changes nothing.
 */
import type { CounterInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { counterDataProto, parseCounterData } from './counter-cell.js';
import { notFound } from './entity-error.js';
import { Store, type UndoLog } from './undo-log.js';
import { arrayIndex, describe, modifyOnly, type UpdateType } from './validation.js';

export interface CounterArray {
  readonly info: CounterInfo;
  readonly label: string;
  readonly packets: Float64Array;
  readonly bytes: Float64Array;
}

export class CounterStore extends Store {
  private readonly byId = new Map<number, CounterArray>();

  constructor(schema: P4Schema, undo: UndoLog, allocate = true) {
    super(undo);
    for (const info of schema.counters.all) {
      const cells = allocate ? info.size : 0;
      this.byId.set(info.id, { info, label: describe('counter', info.name, info.id), packets: new Float64Array(cells), bytes: new Float64Array(cells) });
    }
  }

  /** The arrays of a counter, for the data plane. */
  find(id: number): CounterArray | undefined {
    return this.byId.get(id);
  }

  lookup(id: number): CounterArray {
    const c = this.byId.get(id);
    if (!c) throw notFound(`no counter with id ${id} in the P4Info`);
    return c;
  }

  all(): IterableIterator<CounterArray> {
    return this.byId.values();
  }

  write(type: UpdateType, e: p4r.CounterEntry__Output): void {
    modifyOnly(type, 'a counter entry');
    const c = this.lookup(e.counter_id);
    const index = arrayIndex(e.index, c.info.size, c.label);
    if (!e.data) return;
    const value = parseCounterData(e.data, c.label);
    const from = index ?? 0;
    const to = index === undefined ? c.info.size : index + 1;
    if (this.undo.active) {
      const packets = c.packets.slice(from, to);
      const bytes = c.bytes.slice(from, to);
      this.undo.record(() => {
        c.packets.set(packets, from);
        c.bytes.set(bytes, from);
        this.touch();
      });
    }
    c.packets.fill(value.packets, from, to);
    c.bytes.fill(value.bytes, from, to);
    this.touch();
  }

  /** The cells a read selects, produced as the caller iterates; the request is checked before. */
  read(e: p4r.CounterEntry__Output): Iterable<p4r.Entity> {
    const selected = e.counter_id ? [this.lookup(e.counter_id)] : [...this.byId.values()];
    const ranges = selected.map((c) => {
      const index = e.counter_id ? arrayIndex(e.index, c.info.size, c.label) : undefined;
      return { c, from: index ?? 0, to: index === undefined ? c.info.size : index + 1 };
    });
    return (function* cells(): Generator<p4r.Entity> {
      for (const { c, from, to } of ranges) {
        for (let i = from; i < to && i < c.packets.length; i++) {
          yield { counter_entry: { counter_id: c.info.id, index: { index: i }, data: counterDataProto(c.packets[i]!, c.bytes[i]!) } };
        }
      }
    })();
  }
}
