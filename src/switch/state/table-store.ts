/**
 * The entries of one match-action table, in the form the packet pipeline
 * reads: a Map from entry key to an immutable record (MODIFY swaps the
 * record), the default entry, and a version that changes with every change.
 * For a table whose fields are all EXACT, `lookupExact(key)` is the whole
 * lookup, the key being the concatenated padded field values (match-key.ts).
 * LPM, ternary, range and optional entries keep padded values and masks
 * ready in `fields`, for the pipeline to build its own index per version.
 */
import type { MeterType, TableInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import { ActionValidator, programDefaultAction, type ActionCall } from './action-call.js';
import { monotonicClock, type Clock } from './clock.js';
import type { CounterCell } from './counter-cell.js';
import { MatchLayout, type FieldValue, type KeyedMatch } from './match-key.js';
import type { MeterSettings } from './meter-config.js';
import { EntryJournal, type EntryChange } from './entry-journal.js';
import { SharedActions } from './shared-actions.js';
import { Store, type UndoLog } from './undo-log.js';
import { describe, EMPTY_BYTES } from './validation.js';

/** One action of a one-shot action set (spec §"One Shot Action Selector Programming"), as written. */
export interface OneShotAction {
  readonly call: ActionCall;
  readonly weight: number;
}

/**
 * What an entry runs: an action directly, or (indirect tables) an action profile member or group.
 * A one-shot entry names the hidden group its action set was made into, and keeps the set as written
 * (`oneShot`) for reads.
 */
export type EntryAction =
  | { readonly kind: 'action'; readonly call: ActionCall }
  | { readonly kind: 'member'; readonly memberId: number }
  | { readonly kind: 'group'; readonly groupId: number; readonly oneShot?: readonly OneShotAction[] };

export interface TableEntryRecord {
  /** Unique within the table: the match key, plus the priority in tables that need one. */
  readonly key: string;
  readonly matchKey: string;
  /** Per P4Info match field; undefined = don't care. */
  readonly fields: readonly (FieldValue | undefined)[];
  readonly priority: number;
  readonly action: EntryAction;
  /** The deprecated uint64 cookie, as a decimal string. */
  readonly controllerMetadata: string;
  readonly metadata: Buffer;
  /** The entry's TTL in ns (decimal string), 0 = never expires. */
  readonly idleTimeoutNs: string;
  /** Present iff the table has a direct counter; the pipeline increments it in place. */
  readonly counter: CounterCell | undefined;
  /** The direct meter's configuration; undefined = default (all GREEN). */
  readonly meter: MeterSettings | undefined;
  /** `hitClock()` at the insert or the last hit (the pipeline stamps every hit in idle-timeout tables). */
  lastHit: number;
  /** `hitClock()` when the last idle-timeout notification for the entry was made; -Infinity before the first. */
  idleNotified: number;
}

/** What `TableStore.insert` takes: the record without the fields, which the store decodes from the match key when asked. */
export interface NewTableEntry extends Omit<TableEntryRecord, 'fields'> {
  readonly fullRanges: KeyedMatch['fullRanges'];
}

/** What a MODIFY may change in an entry; the match, priority, counter and hit times stay. */
export type EntryChanges = Partial<Pick<TableEntryRecord, 'action' | 'controllerMetadata' | 'metadata' | 'idleTimeoutNs' | 'meter'>>;

export interface DefaultEntryRecord {
  /** Undefined when the P4Info names no default action: a miss then does nothing. */
  readonly action: EntryAction | undefined;
  /** True while the default is the program's (never set, or reset by a MODIFY without action). */
  readonly isProgramDefault: boolean;
  readonly controllerMetadata: string;
  readonly metadata: Buffer;
  readonly counter: CounterCell | undefined;
  readonly meter: MeterSettings | undefined;
}

export class TableStore extends Store {
  readonly layout: MatchLayout;
  readonly actions: ActionValidator;
  /** Most entries the table holds (P4Info `size`; a size of 0 is read as "not given": no limit). */
  readonly capacity: number;
  /** The program's default action: from the IR when a pipeline is loaded (`useProgramDefault`), else as far as the P4Info tells. */
  private programDefaultCall: ActionCall | undefined;
  /** The type of the table's direct meter, if it has one. */
  readonly directMeterType: MeterType | undefined;
  /** For messages: "table ingress.l2 (id …)". */
  readonly label: string;
  private readonly byKey = new Map<string, KeyedEntryRecord>();
  /** Entry changes for the pipeline's index: a few thousand, so that a reader behind by one bulk write still catches up. */
  private readonly journal = new EntryJournal<TableEntryRecord>(8192);
  private readonly sharedActions = new SharedActions();
  private defaultRecord: DefaultEntryRecord;

  /** The clock that stamps hits, for tables that support idle timeouts (P4Info NOTIFY_CONTROL); else undefined. */
  readonly hitClock: Clock | undefined;

  constructor(
    readonly info: TableInfo,
    schema: P4Schema,
    undo: UndoLog,
    clock: Clock = monotonicClock,
  ) {
    super(undo);
    this.hitClock = info.idleTimeout ? clock : undefined;
    this.label = describe('table', info.name, info.id);
    this.layout = new MatchLayout(info.matchFields.all, this.label);
    this.actions = new ActionValidator(info.actionRefs, this.label);
    this.capacity = info.size > 0 ? info.size : Number.POSITIVE_INFINITY;
    // The spec fixes the default of an indirect table to a constant NoAction, which P4Runtime cannot express as a member.
    this.programDefaultCall = info.implementationId ? undefined : programDefaultAction(info, schema);
    this.directMeterType = info.directMeterId ? (schema.directMeters.find(info.directMeterId)?.type ?? 'TWO_RATE_THREE_COLOR') : undefined;
    this.defaultRecord = this.initialDefault();
  }

  get programDefault(): ActionCall | undefined {
    return this.programDefaultCall;
  }

  /**
   * Sets the program's default action from the device config (the IR's `default_action`,
   * which P4Info from p4c 1.2.4.8 does not carry), while the pipeline is loaded: the
   * default entry becomes that call if nobody has changed it.
   */
  useProgramDefault(call: ActionCall): void {
    if (this.info.implementationId) return;
    this.programDefaultCall = call;
    if (this.defaultRecord.isProgramDefault) this.defaultRecord = { ...this.initialDefault(), counter: this.defaultRecord.counter };
  }

  /** The default entry as the program defines it, with fresh direct resources. */
  initialDefault(): DefaultEntryRecord {
    return {
      action: this.programDefaultCall ? { kind: 'action', call: this.programDefaultCall } : undefined,
      isProgramDefault: true,
      controllerMetadata: '0',
      metadata: Buffer.alloc(0),
      counter: this.info.directCounterId ? { packets: 0, bytes: 0 } : undefined,
      meter: undefined,
    };
  }

  /** The entry key of a match in this table. */
  entryKey(matchKey: string, priority: number): string {
    return this.info.needsPriority ? `${matchKey}#${priority}` : matchKey;
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): TableEntryRecord | undefined {
    return this.byKey.get(key);
  }

  /** The data-plane lookup of an all-EXACT table: the key is the concatenated padded field values (latin1). */
  lookupExact(key: string): TableEntryRecord | undefined {
    return this.byKey.get(key);
  }

  entries(): IterableIterator<TableEntryRecord> {
    return this.byKey.values();
  }

  get defaultEntry(): DefaultEntryRecord {
    return this.defaultRecord;
  }

  /** The entry action for a direct action call: shared with the entries that run an equal one (shared-actions.ts). */
  sharedAction(checked: ActionCall): EntryAction {
    return this.sharedActions.actionOf(checked);
  }

  insert(entry: NewTableEntry): void {
    const record = new KeyedEntryRecord(this.layout, entry);
    this.byKey.set(record.key, record);
    this.changed(undefined, record);
    if (this.undo.active) {
      this.undo.record(() => {
        this.byKey.delete(record.key);
        this.changed(record, undefined);
      });
    }
  }

  /** The entry changes since `version` (see entry-journal.ts); undefined when a reader that far behind must rebuild. */
  changesSince(version: number): readonly EntryChange<TableEntryRecord>[] | undefined {
    return this.journal.since(version, this.version);
  }

  /** Swaps the record with `key` for a copy with `changes` (MODIFY, direct meter writes). */
  change(key: string, changes: EntryChanges): void {
    const old = this.byKey.get(key);
    if (!old) throw new Error(`TableStore.change: no entry with that key in ${this.label}`);
    const record = old.with(changes);
    this.byKey.set(key, record);
    this.changed(old, record);
    if (this.undo.active) this.undo.record(() => this.putBack(old));
  }

  remove(key: string): void {
    const old = this.byKey.get(key);
    if (!old) throw new Error(`TableStore.remove: no entry with that key in ${this.label}`);
    this.byKey.delete(key);
    this.changed(old, undefined);
    if (this.undo.active) this.undo.record(() => this.putBack(old));
  }

  setDefault(record: DefaultEntryRecord): void {
    const old = this.defaultRecord;
    this.defaultRecord = record;
    this.touch();
    if (this.undo.active) {
      this.undo.record(() => {
        this.defaultRecord = old;
        this.touch();
      });
    }
  }

  /** Sets a direct counter's value in place (the cell is shared with the data plane). */
  writeCounter(cell: CounterCell, packets: number, bytes: number): void {
    const before = { packets: cell.packets, bytes: cell.bytes };
    cell.packets = packets;
    cell.bytes = bytes;
    this.touch();
    if (this.undo.active) {
      this.undo.record(() => {
        cell.packets = before.packets;
        cell.bytes = before.bytes;
        this.touch();
      });
    }
  }

  private putBack(record: KeyedEntryRecord): void {
    const current = this.byKey.get(record.key);
    this.byKey.set(record.key, record);
    this.changed(current, record);
  }

  private changed(removed: TableEntryRecord | undefined, added: TableEntryRecord | undefined): void {
    this.touch();
    this.journal.record(this.version, removed, added);
  }
}

/** The parts of an entry that most entries leave at their defaults, kept apart so that those entries share one object of them. */
interface EntryExtras {
  readonly fullRanges: KeyedMatch['fullRanges'];
  readonly controllerMetadata: string;
  readonly metadata: Buffer;
  readonly idleTimeoutNs: string;
  readonly counter: CounterCell | undefined;
  readonly meter: MeterSettings | undefined;
}

/** What an entry without extras has: no full range, cookie, metadata, TTL, counter or meter. */
const DEFAULT_EXTRAS: EntryExtras = Object.freeze({ fullRanges: undefined, controllerMetadata: '0', metadata: EMPTY_BYTES, idleTimeoutNs: '0', counter: undefined, meter: undefined });

/** The extras of `from`: the shared DEFAULT_EXTRAS when every one is at its default. */
function extrasOf(from: NewTableEntry): EntryExtras {
  const d = DEFAULT_EXTRAS;
  const plain =
    from.fullRanges === d.fullRanges &&
    from.controllerMetadata === d.controllerMetadata &&
    from.metadata.length === 0 &&
    from.idleTimeoutNs === d.idleTimeoutNs &&
    from.counter === d.counter &&
    from.meter === d.meter;
  if (plain) return d;
  const { fullRanges, controllerMetadata, metadata, idleTimeoutNs, counter, meter } = from;
  return { fullRanges, controllerMetadata, metadata, idleTimeoutNs, counter, meter };
}

/**
 * The stored form of an entry, for memory and for the garbage collector: the
 * match is kept once, as the entry's match key string (the padded values,
 * presence bytes and masks, match-key.ts), and `fields` is decoded from it
 * when a read or the pipeline's index asks, instead of an array, an object
 * and two Buffers per entry kept alive (a table of a million routes spends
 * most of its memory on those, and a bulk insert most of its collector time
 * moving them). The fields most entries leave at their defaults live in one
 * object, which such entries share. Otherwise it is the TableEntryRecord the
 * caller built.
 */
export class KeyedEntryRecord implements TableEntryRecord {
  readonly key: string;
  readonly matchKey: string;
  readonly priority: number;
  readonly action: EntryAction;
  lastHit: number;
  idleNotified: number;
  private readonly extras: EntryExtras;

  constructor(
    private readonly layout: MatchLayout,
    from: NewTableEntry,
  ) {
    this.key = from.key;
    this.matchKey = from.matchKey;
    this.priority = from.priority;
    this.action = from.action;
    this.lastHit = from.lastHit;
    this.idleNotified = from.idleNotified;
    this.extras = extrasOf(from);
  }

  /** The fields written as a full RANGE, which the key holds as don't care (match-key.ts). */
  get fullRanges(): KeyedMatch['fullRanges'] {
    return this.extras.fullRanges;
  }

  get controllerMetadata(): string {
    return this.extras.controllerMetadata;
  }

  get metadata(): Buffer {
    return this.extras.metadata;
  }

  get idleTimeoutNs(): string {
    return this.extras.idleTimeoutNs;
  }

  get counter(): CounterCell | undefined {
    return this.extras.counter;
  }

  get meter(): MeterSettings | undefined {
    return this.extras.meter;
  }

  /** A copy with `changes`; the match stays a key. */
  with(changes: EntryChanges): KeyedEntryRecord {
    const { key, matchKey, priority, action, lastHit, idleNotified } = this;
    return new KeyedEntryRecord(this.layout, { key, matchKey, priority, action, lastHit, idleNotified, ...this.extras, ...changes });
  }

  /** A new array each time: read it once per use. */
  get fields(): readonly (FieldValue | undefined)[] {
    return this.layout.fieldsOf(this.matchKey, this.fullRanges);
  }
}
