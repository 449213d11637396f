/** Indirect counters: `counter('ingress.port_packets', { index: 3 })`; MODIFY only in writes. */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { decodeIndex, encodeIndex } from './array-index.js';
import { decodeCounterData, encodeCounterData, type CounterDataInput } from './counter-data.js';
import { isWrite, type EncodeIntent, type P4Entity } from './entity.js';
import { EntityErrorCode, entityError } from './entity-error.js';

export interface CounterEntryInit {
  /** Counter name; undefined means every counter (reads only). */
  readonly counter: string | undefined;
  /** Cell index; undefined means every cell. */
  readonly index?: number;
  readonly data?: CounterDataInput;
}

/** Checks the update type of entities the spec allows only to be modified (counters, meters, registers). */
export function checkModifyOnly(intent: EncodeIntent, what: string, wildcard: boolean): void {
  if (!isWrite(intent)) return;
  if (wildcard) throw entityError(EntityErrorCode.WILDCARD_WRITE, `a write to a ${what} needs its name`);
  if (intent !== 'modify') throw entityError(EntityErrorCode.UPDATE_NOT_ALLOWED, `${what} entries can only be modified, not the target of ${intent.toUpperCase()}`);
}

export class CounterEntry implements P4Entity {
  readonly kind = 'counter_entry';
  readonly counter: string | undefined;
  readonly index: number | undefined;
  readonly data: CounterDataInput | undefined;

  constructor(init: CounterEntryInit) {
    this.counter = init.counter;
    this.index = init.index;
    this.data = init.data;
  }

  describe(): string {
    return `counter ${this.counter ?? '*'}${this.index === undefined ? '' : `[${this.index}]`}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    checkModifyOnly(intent, 'counter', this.counter === undefined);
    const info = this.counter === undefined ? undefined : schema.counters.get(this.counter);
    return {
      counter_entry: {
        counter_id: info?.id ?? 0,
        index: encodeIndex(this.index, info?.size ?? 0, this.describe()),
        data: encodeCounterData(this.data),
      },
    };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): CounterEntry {
    const e = msg.counter_entry;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no counter_entry');
    return new CounterEntry({
      counter: e.counter_id ? schema.counters.get(e.counter_id).name : undefined,
      index: decodeIndex(e.index),
      data: decodeCounterData(e.data),
    });
  }
}

/** A counter cell (or the whole array without index); `'*'` for every counter. */
export function counter(name: string, options: { index?: number; data?: CounterDataInput } = {}): CounterEntry {
  return new CounterEntry({ counter: name === '*' ? undefined : name, ...options });
}
