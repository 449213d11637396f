/**
 * Registers: `register('ingress.slots', { index: 3, value: 42 })`. Values of
 * bit<W> registers are numbers, bigints or bytes, sent as a P4Data bitstring
 * of the register's width; other types go through p4data.ts. Reads without an
 * index return every cell; writes are MODIFY only. (BMv2's P4Runtime server
 * answers UNIMPLEMENTED for registers; p4ina's switch supports them.)
 */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema } from '../../p4info/index.js';
import { decodeIndex, encodeIndex } from './array-index.js';
import { checkModifyOnly } from './counter-entry.js';
import type { EncodeIntent, P4Entity } from './entity.js';
import { EntityErrorCode, entityError, inContext } from './entity-error.js';
import { decodeP4Data, encodeP4Data, type P4DataValue } from './p4data.js';

export interface RegisterEntryInit {
  /** Register name; undefined means every register (reads only). */
  readonly register: string | undefined;
  readonly index?: number;
  readonly value?: P4DataValue;
}

export class RegisterEntry implements P4Entity {
  readonly kind = 'register_entry';
  readonly register: string | undefined;
  readonly index: number | undefined;
  readonly value: P4DataValue | undefined;

  constructor(init: RegisterEntryInit) {
    this.register = init.register;
    this.index = init.index;
    this.value = init.value;
  }

  describe(): string {
    return `register ${this.register ?? '*'}${this.index === undefined ? '' : `[${this.index}]`}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    checkModifyOnly(intent, 'register', this.register === undefined);
    const info = this.register === undefined ? undefined : schema.registers.get(this.register);
    if (intent === 'modify' && this.value === undefined) throw entityError(EntityErrorCode.MISSING_VALUE, `${this.describe()}: a write needs a value`);
    const value = this.value;
    return {
      register_entry: {
        register_id: info?.id ?? 0,
        index: encodeIndex(this.index, info?.size ?? 0, this.describe()),
        data: value === undefined ? null : inContext(this.describe(), () => encodeP4Data(value, info?.typeSpec, schema)),
      },
    };
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): RegisterEntry {
    const e = msg.register_entry;
    if (!e) throw entityError(EntityErrorCode.MALFORMED, 'entity has no register_entry');
    const info = e.register_id ? schema.registers.get(e.register_id) : undefined;
    return new RegisterEntry({
      register: info?.name,
      index: decodeIndex(e.index),
      value: e.data ? decodeP4Data(e.data, info?.typeSpec, schema) : undefined,
    });
  }
}

/** A register cell, the whole array without index, or `'*'` for every register. */
export function register(name: string, options: { index?: number; value?: P4DataValue } = {}): RegisterEntry {
  return new RegisterEntry({ register: name === '*' ? undefined : name, ...options });
}
