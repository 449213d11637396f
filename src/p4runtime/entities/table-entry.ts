/**
 * Table entries: `table('ingress.l2', { dst_addr: 'aa:bb:cc:dd:ee:ff' }, action('forward', { port: 2 }))`.
 * Also default entries (`defaultEntry`), wildcard reads (`table('ingress.l2')`
 * for every entry of one table, `allTables()` or `table('*')` for every table),
 * and the per-entry extras: priority, controller metadata, idle timeout,
 * direct counter data and meter config.
 */
import type * as p4r from '../../proto/p4r.js';
import type { P4Schema, TableInfo } from '../../p4info/index.js';
import { decodeCounterData, decodeMeterCounterData, encodeCounterData, encodeMeterCounterData } from './counter-data.js';
import type { CounterDataInput, MeterCounterDataInput } from './counter-data.js';
import { isWrite, type EncodeIntent, type P4Entity } from './entity.js';
import { EntityErrorCode, entityError, inContext, withContext } from './entity-error.js';
import { decodeMatch, encodeMatch, missingExactFields, type MatchSpec } from './match.js';
import { decodeMeterConfig, encodeMeterConfig, type MeterConfigInput } from './meter-config.js';
import { decodeTableAction, encodeTableAction, type TableActionSpec } from './table-action.js';
import { bigintOf, int64 } from './values.js';

const MAX_PRIORITY = 0x7fffffff;

/** The extras of a table entry; the last two are set by the switch and ignored by writes. */
export interface TableEntryOptions {
  /** Required (> 0) for tables with ternary, range or optional fields; higher wins. */
  readonly priority?: number;
  /** Opaque controller metadata stored with the entry. */
  readonly metadata?: Uint8Array;
  readonly idleTimeoutNs?: number | bigint;
  readonly counterData?: CounterDataInput;
  readonly meterConfig?: MeterConfigInput;
  readonly meterCounterData?: MeterCounterDataInput;
  readonly timeSinceLastHitNs?: number | bigint;
  readonly isConst?: boolean;
}

export interface TableEntryInit extends TableEntryOptions {
  /** Table name, alias or unique suffix; undefined means every table (reads only). */
  readonly table: string | undefined;
  readonly match?: MatchSpec;
  readonly action?: TableActionSpec;
  readonly isDefault?: boolean;
}

export class TableEntry implements P4Entity {
  readonly kind = 'table_entry';
  readonly table: string | undefined;
  readonly match: MatchSpec;
  readonly action: TableActionSpec | undefined;
  readonly isDefault: boolean;
  readonly priority: number;
  readonly metadata: Uint8Array | undefined;
  readonly idleTimeoutNs: number | bigint | undefined;
  readonly counterData: CounterDataInput | undefined;
  readonly meterConfig: MeterConfigInput | undefined;
  readonly meterCounterData: MeterCounterDataInput | undefined;
  readonly timeSinceLastHitNs: number | bigint | undefined;
  readonly isConst: boolean;

  constructor(init: TableEntryInit) {
    this.table = init.table;
    this.match = init.match ?? {};
    this.action = init.action;
    this.isDefault = init.isDefault ?? false;
    this.priority = init.priority ?? 0;
    this.metadata = init.metadata;
    this.idleTimeoutNs = init.idleTimeoutNs;
    this.counterData = init.counterData;
    this.meterConfig = init.meterConfig;
    this.meterCounterData = init.meterCounterData;
    this.timeSinceLastHitNs = init.timeSinceLastHitNs;
    this.isConst = init.isConst ?? false;
  }

  describe(): string {
    return `table entry ${this.table ?? '*'}${this.isDefault ? ' (default)' : ''}`;
  }

  encode(schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity {
    return { table_entry: this.encodeTableEntry(schema, intent) };
  }

  /** The TableEntry message alone; for direct counters and meters (`keyOnly`) without action and extras. */
  encodeTableEntry(schema: P4Schema, intent: EncodeIntent, keyOnly = false): p4r.TableEntry {
    if (!Number.isInteger(this.priority) || this.priority < 0 || this.priority > MAX_PRIORITY) {
      throw entityError(EntityErrorCode.BAD_PRIORITY, `${this.describe()}: priority ${this.priority} is not an integer in 0..${MAX_PRIORITY}`);
    }
    const info = this.table === undefined ? undefined : schema.tables.get(this.table);
    const key = info ? this.tableKey(info, intent, keyOnly) : this.wildcardKey(intent);
    if (keyOnly) return key;
    if (this.action && !info) throw entityError(EntityErrorCode.BAD_MATCH, 'an action filter needs a table name');
    // One object literal with every field: this runs once per entry of a bulk write, and an
    // object built by spreading and adding properties one by one is markedly slower to make and encode.
    const out: p4r.TableEntry = {
      table_id: key.table_id,
      match: key.match,
      priority: key.priority,
      is_default_action: key.is_default_action,
      action: this.action && info ? this.encodeAction(this.action, info, schema, intent) : null,
      metadata: this.metadata ? Buffer.from(this.metadata) : undefined,
      idle_timeout_ns: this.idleTimeoutNs !== undefined ? int64(this.idleTimeoutNs, 'idleTimeoutNs') : undefined,
      counter_data: encodeCounterData(this.counterData),
      meter_config: encodeMeterConfig(this.meterConfig),
      meter_counter_data: encodeMeterCounterData(this.meterCounterData),
      time_since_last_hit:
        this.timeSinceLastHitNs !== undefined ? { elapsed_ns: int64(this.timeSinceLastHitNs, 'timeSinceLastHitNs') } : null,
      is_const: this.isConst,
    };
    return out;
  }

  private encodeAction(spec: TableActionSpec, info: TableInfo, schema: P4Schema, intent: EncodeIntent): p4r.TableAction {
    try {
      return encodeTableAction(spec, info, schema, this.isDefault, isWrite(intent));
    } catch (err) {
      throw withContext(err, `table ${info.name}`);
    }
  }

  private wildcardKey(intent: EncodeIntent): p4r.TableEntry {
    if (isWrite(intent)) throw entityError(EntityErrorCode.WILDCARD_WRITE, 'a write needs a table name; every-table wildcards are for reads');
    if (Object.values(this.match).some((v) => v !== undefined && v !== null)) {
      throw entityError(EntityErrorCode.BAD_MATCH, 'a match needs a table name');
    }
    return { table_id: 0, match: [], priority: this.priority, is_default_action: this.isDefault };
  }

  private tableKey(info: TableInfo, intent: EncodeIntent, keyOnly: boolean): p4r.TableEntry {
    const match = encodeMatch(info, this.match);
    if (isWrite(intent)) inContext(`table ${info.name}`, () => this.checkWrite(info, match, intent, keyOnly));
    return { table_id: info.id, match, priority: this.priority, is_default_action: this.isDefault };
  }

  /** The write rules of spec §9.1 that a client can check without the switch's state. */
  private checkWrite(info: TableInfo, match: readonly p4r.FieldMatch[], intent: EncodeIntent, keyOnly: boolean): void {
    // Direct counters and meters of const tables stay writable; only the entries are fixed.
    if (info.isConstTable && !keyOnly) throw entityError(EntityErrorCode.CONST_TABLE, 'the table is const: its entries are fixed by the program');
    if (this.isDefault) {
      if (match.length) throw entityError(EntityErrorCode.BAD_MATCH, 'a default entry has no match');
      if (this.priority !== 0) throw entityError(EntityErrorCode.PRIORITY_NOT_ALLOWED, 'a default entry has priority 0');
      if (keyOnly) return;
      if (intent !== 'modify') throw entityError(EntityErrorCode.UPDATE_NOT_ALLOWED, `a default entry cannot be the target of ${intent.toUpperCase()}: use modify(defaultEntry(…))`);
      if (info.constDefaultActionId) throw entityError(EntityErrorCode.CONST_DEFAULT_ACTION, 'the default action is const: the program fixes it');
      return;
    }
    const missing = missingExactFields(info, match);
    if (missing.length) throw entityError(EntityErrorCode.MISSING_MATCH, `exact field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} must be given`);
    if (info.needsPriority && this.priority === 0) {
      throw entityError(EntityErrorCode.PRIORITY_REQUIRED, 'the table has ternary, range or optional fields: give a priority > 0 ({ priority: N })');
    }
    if (!info.needsPriority && this.priority !== 0) {
      throw entityError(EntityErrorCode.PRIORITY_NOT_ALLOWED, 'the table has only exact and LPM fields: leave the priority out');
    }
    if (!keyOnly && intent !== 'delete' && !this.action) throw entityError(EntityErrorCode.ACTION_REQUIRED, `${intent.toUpperCase()} needs an action`);
  }

  static decode(msg: p4r.Entity__Output, schema: P4Schema): TableEntry {
    if (!msg.table_entry) throw entityError(EntityErrorCode.MALFORMED, 'entity has no table_entry');
    return decodeTableEntry(msg.table_entry, schema);
  }
}

/** A TableEntry message from a switch as a TableEntry; match and params keyed by full names. */
export function decodeTableEntry(msg: p4r.TableEntry__Output, schema: P4Schema): TableEntry {
  const info = msg.table_id === 0 ? undefined : schema.tables.get(msg.table_id);
  if (!info && msg.match.length) throw entityError(EntityErrorCode.MALFORMED, 'a table entry with a match has no table id');
  return new TableEntry({
    table: info?.name,
    match: info ? decodeMatch(info, msg.match) : {},
    action: msg.action ? decodeTableAction(msg.action, schema) : undefined,
    isDefault: msg.is_default_action,
    priority: msg.priority,
    metadata: msg.metadata.length ? msg.metadata : undefined,
    idleTimeoutNs: msg.idle_timeout_ns === '0' ? undefined : bigintOf(msg.idle_timeout_ns),
    counterData: decodeCounterData(msg.counter_data),
    meterConfig: decodeMeterConfig(msg.meter_config),
    meterCounterData: decodeMeterCounterData(msg.meter_counter_data),
    timeSinceLastHitNs: msg.time_since_last_hit ? bigintOf(msg.time_since_last_hit.elapsed_ns) : undefined,
    isConst: msg.is_const,
  });
}

/** An entry of `name` (`'*'` for every table, reads only). Leave match and action out for a wildcard read. */
export function table(name: string, match?: MatchSpec, action?: TableActionSpec, options: TableEntryOptions = {}): TableEntry {
  return new TableEntry({ ...options, table: name === '*' ? undefined : name, match, action });
}

/** The default entry of a table; modify it to set the default action, or leave the action out to reset it. */
export function defaultEntry(name: string, action?: TableActionSpec, options: Omit<TableEntryOptions, 'priority'> = {}): TableEntry {
  return new TableEntry({ ...options, table: name, action, isDefault: true });
}

/** Every entry of every table (a read wildcard). */
export function allTables(options: TableEntryOptions = {}): TableEntry {
  return new TableEntry({ ...options, table: undefined });
}
