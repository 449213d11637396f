/**
 * The forwarding state of one pipeline: every store the data plane reads,
 * built for one P4Schema, and the dispatch of P4Runtime updates and read
 * requests to them by entity kind.
 */
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { ActionProfileStore } from './action-profiles.js';
import { monotonicClock, type Clock } from './clock.js';
import { CounterStore } from './counters.js';
import { DigestStore } from './digests.js';
import { readDirectCounters, readDirectMeters, writeDirectCounter, writeDirectMeter } from './direct-resources.js';
import { invalidArgument, unimplemented } from './entity-error.js';
import { MeterStore } from './meters.js';
import { PreStore } from './pre.js';
import { RegisterStore } from './registers.js';
import { writeTableEntry } from './table-entries.js';
import { readTableEntries } from './table-reads.js';
import { TableStores } from './tables.js';
import { UndoLog } from './undo-log.js';
import { updateType } from './validation.js';
import { ValueSetStore } from './value-sets.js';

export class ForwardingState {
  /** Shared by every store: records undo steps during ROLLBACK_ON_ERROR / DATAPLANE_ATOMIC batches. */
  readonly undo = new UndoLog();
  readonly tables: TableStores;
  readonly actionProfiles: ActionProfileStore;
  readonly counters: CounterStore;
  readonly meters: MeterStore;
  readonly registers: RegisterStore;
  readonly pre: PreStore;
  readonly digests: DigestStore;
  readonly valueSets: ValueSetStore;

  constructor(
    readonly schema: P4Schema,
    /** Stamps hits and measures idle time of the entries of idle-timeout tables. */
    readonly clock: Clock = monotonicClock,
    /** `allocate: false` gives every counter, meter and register 0 cells: a state of the right shape to check a program against, holding nothing. */
    options: { allocate?: boolean } = {},
  ) {
    const allocate = options.allocate ?? true;
    this.tables = new TableStores(schema, this.undo, clock);
    this.actionProfiles = new ActionProfileStore(schema, this.undo);
    this.counters = new CounterStore(schema, this.undo, allocate);
    this.meters = new MeterStore(schema, this.undo, allocate);
    this.registers = new RegisterStore(schema, this.undo, allocate);
    this.pre = new PreStore(this.undo);
    this.digests = new DigestStore(schema, this.undo);
    this.valueSets = new ValueSetStore(schema, this.undo);
  }

  /** Applies one update, or throws EntityError and leaves the state as it was. */
  apply(update: p4r.Update__Output): void {
    const type = updateType(update.type);
    const e = update.entity;
    switch (e?.entity) {
      case 'table_entry':
        return writeTableEntry(type, e.table_entry!, this.tables, this.actionProfiles);
      case 'action_profile_member':
        return this.actionProfiles.writeMember(type, e.action_profile_member!);
      case 'action_profile_group':
        return this.actionProfiles.writeGroup(type, e.action_profile_group!);
      case 'direct_counter_entry':
        return writeDirectCounter(type, e.direct_counter_entry!, this.tables);
      case 'direct_meter_entry':
        return writeDirectMeter(type, e.direct_meter_entry!, this.tables);
      case 'counter_entry':
        return this.counters.write(type, e.counter_entry!);
      case 'meter_entry':
        return this.meters.write(type, e.meter_entry!);
      case 'register_entry':
        return this.registers.write(type, e.register_entry!);
      case 'packet_replication_engine_entry':
        return this.pre.write(type, e.packet_replication_engine_entry!);
      case 'digest_entry':
        return this.digests.write(type, e.digest_entry!);
      case 'value_set_entry':
        return this.valueSets.write(type, e.value_set_entry!);
      case 'extern_entry':
        throw unimplemented('extern entries are not supported: v1model has no P4Runtime externs beyond the standard ones');
      default:
        throw invalidArgument('the update has no entity');
    }
  }

  /**
   * Installs an entry the P4 program declares (`const entries`): allowed in
   * const tables, where controllers cannot insert. For the pipeline executor,
   * which reads them from the device config. Throws EntityError if invalid.
   */
  installProgramEntry(entry: p4r.TableEntry__Output): void {
    writeTableEntry('INSERT', entry, this.tables, this.actionProfiles, true);
  }

  /**
   * The entities a read request selects. The request is checked now (throws EntityError for a
   * malformed one); the entities of large stores (tables, registers, counters, meters, direct
   * resources) are made one by one as the caller iterates, so that a reader can stream them
   * without the whole answer ever being in memory.
   */
  read(e: p4r.Entity__Output): Iterable<p4r.Entity> {
    switch (e.entity) {
      case 'table_entry':
        return readTableEntries(e.table_entry!, this.tables);
      case 'action_profile_member': {
        const m = e.action_profile_member!;
        return this.actionProfiles.readMembers(m.action_profile_id, m.member_id);
      }
      case 'action_profile_group': {
        const g = e.action_profile_group!;
        return this.actionProfiles.readGroups(g.action_profile_id, g.group_id);
      }
      case 'direct_counter_entry':
        return readDirectCounters(e.direct_counter_entry!, this.tables);
      case 'direct_meter_entry':
        return readDirectMeters(e.direct_meter_entry!, this.tables);
      case 'counter_entry':
        return this.counters.read(e.counter_entry!);
      case 'meter_entry':
        return this.meters.read(e.meter_entry!);
      case 'register_entry':
        return this.registers.read(e.register_entry!);
      case 'packet_replication_engine_entry':
        return collect((out) => this.pre.read(e.packet_replication_engine_entry!, out));
      case 'digest_entry':
        return collect((out) => this.digests.read(e.digest_entry!, out));
      case 'value_set_entry':
        return collect((out) => this.valueSets.read(e.value_set_entry!, out));
      case 'extern_entry':
        // Nothing to read, but a "read everything" request that lists extern_entry {} must still work.
        if (e.extern_entry!.extern_type_id || e.extern_entry!.extern_id) throw unimplemented('extern entries are not supported by this switch');
        return [];
      default:
        throw invalidArgument('a read request entity must set one entity kind (an empty Entity is not a wildcard)');
    }
  }
}

/** The entities a small store appends (PRE, digests, value sets: bounded by what controllers wrote). */
function collect(read: (out: p4r.Entity[]) => void): p4r.Entity[] {
  const out: p4r.Entity[] = [];
  read(out);
  return out;
}
