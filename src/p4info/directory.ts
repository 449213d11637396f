/**
 * An index of same-kind P4Info objects by id, full name and alias. A name may
 * also be any unique dotted suffix of a full name (as p4runtime-shell allows),
 * so `ipv4_lpm` finds `MyIngress.ipv4_lpm` while it is unambiguous.
 */
import { pluralNoun } from '../util/plural-noun.js';
import { P4InfoError, P4InfoErrorCode } from './lookup-error.js';

/** What every indexed object has: an id and names. */
export interface Named {
  readonly id: number;
  readonly name: string;
  readonly alias: string;
}

export class Directory<T extends Named> {
  readonly all: readonly T[];
  private readonly byId = new Map<number, T>();
  private readonly byName = new Map<string, T>();
  /** Every dotted suffix of every name, to the objects it could mean. */
  private readonly bySuffix = new Map<string, T[]>();

  constructor(
    /** What the objects are, for messages: "table", "action", … */
    readonly kind: string,
    items: readonly T[],
  ) {
    this.all = items;
    for (const item of items) {
      if (this.byId.has(item.id)) {
        throw new P4InfoError(P4InfoErrorCode.INCONSISTENT, `two ${pluralNoun(kind)} have id ${item.id}: ${this.byId.get(item.id)!.name} and ${item.name}`);
      }
      this.byId.set(item.id, item);
      this.byName.set(item.name, item);
      const parts = item.name.split('.');
      const suffixes = new Set<string>([item.alias]);
      for (let i = 1; i < parts.length; i++) suffixes.add(parts.slice(i).join('.'));
      for (const s of suffixes) {
        if (!s || s === item.name) continue;
        const list = this.bySuffix.get(s);
        if (list) list.push(item);
        else this.bySuffix.set(s, [item]);
      }
    }
  }

  /** The object with that id, name, alias or unique suffix, or undefined. Throws on an ambiguous suffix. */
  find(key: string | number): T | undefined {
    if (typeof key === 'number') return this.byId.get(key);
    const exact = this.byName.get(key);
    if (exact) return exact;
    const candidates = this.bySuffix.get(key);
    if (!candidates) return undefined;
    if (candidates.length > 1) {
      throw new P4InfoError(
        P4InfoErrorCode.AMBIGUOUS,
        `${this.kind} "${key}" is ambiguous: it could be ${candidates.map((c) => c.name).join(' or ')}; use the full name`,
      );
    }
    return candidates[0];
  }

  /** The object with that id, name, alias or unique suffix. Throws P4InfoError (code P4INFO_UNKNOWN) if there is none. */
  get(key: string | number): T {
    const found = this.find(key);
    if (found) return found;
    const known = this.all.map((i) => i.name);
    const hint = known.length ? `; known ${pluralNoun(this.kind)}: ${known.slice(0, 8).join(', ')}${known.length > 8 ? ', …' : ''}` : '';
    const shown = typeof key === 'number' ? `id ${key} (0x${key.toString(16)})` : `"${key}"`;
    throw new P4InfoError(P4InfoErrorCode.UNKNOWN, `no ${this.kind} ${shown} in the P4Info${hint}`);
  }

  /**
   * Whether the key names any object: an id, a name, an alias or a suffix.
   * Never throws: an ambiguous suffix counts as present (get() refuses it).
   */
  has(key: string | number): boolean {
    if (typeof key === 'number') return this.byId.has(key);
    return this.byName.has(key) || this.bySuffix.has(key);
  }

  get size(): number {
    return this.all.length;
  }
}
