/**
 * Every match-action table of the pipeline, by id. Unknown table ids are
 * NOT_FOUND.
 */
import type { P4Schema } from '../../p4info/schema.js';
import { monotonicClock, type Clock } from './clock.js';
import { notFound } from './entity-error.js';
import { TableStore } from './table-store.js';
import type { UndoLog } from './undo-log.js';

export class TableStores {
  private readonly byId = new Map<number, TableStore>();

  constructor(schema: P4Schema, undo: UndoLog, clock: Clock = monotonicClock) {
    for (const info of schema.tables.all) this.byId.set(info.id, new TableStore(info, schema, undo, clock));
  }

  /** The table with that id; NOT_FOUND if the P4Info has none. */
  lookup(id: number): TableStore {
    const t = this.byId.get(id);
    if (!t) throw notFound(`no table with id ${id} in the P4Info`);
    return t;
  }

  find(id: number): TableStore | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<TableStore> {
    return this.byId.values();
  }
}
