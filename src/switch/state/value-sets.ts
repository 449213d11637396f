/**
 * Parser value sets (spec §9.6): each holds a list of members, every member a
 * match in the same format as a table entry's. MODIFY only, replacing the
 * whole list (an empty list empties the set); duplicates are ALREADY_EXISTS
 * and more members than the P4Info size RESOURCE_EXHAUSTED.
 */
import type { ValueSetInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { alreadyExists, notFound, resourceExhausted } from './entity-error.js';
import { MatchLayout, type ParsedMatch } from './match-key.js';
import { Store, type UndoLog } from './undo-log.js';
import { describe, modifyOnly, type UpdateType } from './validation.js';

export interface ValueSet {
  readonly info: ValueSetInfo;
  readonly label: string;
  readonly layout: MatchLayout;
  /** The members, matcher-ready (padded values and masks per field). */
  members: readonly ParsedMatch[];
}

export class ValueSetStore extends Store {
  private readonly byId = new Map<number, ValueSet>();

  constructor(schema: P4Schema, undo: UndoLog) {
    super(undo);
    for (const info of schema.valueSets.all) {
      const label = describe('value set', info.name, info.id);
      this.byId.set(info.id, { info, label, layout: new MatchLayout(info.match.all, label), members: [] });
    }
  }

  find(id: number): ValueSet | undefined {
    return this.byId.get(id);
  }

  lookup(id: number): ValueSet {
    const v = this.byId.get(id);
    if (!v) throw notFound(`no value set with id ${id} in the P4Info`);
    return v;
  }

  all(): IterableIterator<ValueSet> {
    return this.byId.values();
  }

  write(type: UpdateType, e: p4r.ValueSetEntry__Output): void {
    modifyOnly(type, 'a value set entry');
    const v = this.lookup(e.value_set_id);
    if (v.info.size > 0 && e.members.length > v.info.size) {
      throw resourceExhausted(`${v.label} holds at most ${v.info.size} members; got ${e.members.length}`);
    }
    const seen = new Set<string>();
    const members = e.members.map((m, i) => {
      const parsed = v.layout.parse(m.match);
      if (seen.has(parsed.matchKey)) throw alreadyExists(`member ${i} of ${v.label} repeats an earlier member`);
      seen.add(parsed.matchKey);
      return parsed;
    });
    const old = v.members;
    v.members = members;
    this.touch();
    if (this.undo.active) {
      this.undo.record(() => {
        v.members = old;
        this.touch();
      });
    }
  }

  read(e: p4r.ValueSetEntry__Output, out: p4r.Entity[]): void {
    const selected = e.value_set_id ? [this.lookup(e.value_set_id)] : [...this.byId.values()];
    for (const v of selected) {
      out.push({ value_set_entry: { value_set_id: v.info.id, members: v.members.map((m) => ({ match: v.layout.toProto(m.fields) })) } });
    }
  }
}
