/**
 * @fileoverview p4c's P4RuntimeSymbolTable: every control-plane object is
 * added with its kind, name and optional `@id`; then ids are assigned per
 * kind (fixed ids first, the rest hashed in name order with probing) and
 * aliases computed over all names.
 */
import { findAnnotation, annotationBodyText, type Annotation } from '../ast/annotations.js';
import { assignIds, IdPrefix } from '../../p4info/index.js';
import { aliases } from '../control-plane/names.js';

export type SymbolKind = keyof typeof IdPrefix;

export class SymbolTable {
  private readonly names = new Map<SymbolKind, string[]>();
  private readonly fixed = new Map<SymbolKind, Map<string, number>>();
  private readonly preambleNames: string[] = [];
  private ids = new Map<string, number>();
  private aliasOf = new Map<string, string>();

  /** Adds a symbol. `hashName` is what the id is computed from when it differs from the preamble name. */
  add(kind: SymbolKind, hashName: string, annotations: readonly Annotation[], preambleName = hashName): void {
    const list = this.names.get(kind) ?? [];
    if (!list.includes(hashName)) list.push(hashName);
    this.names.set(kind, list);
    this.preambleNames.push(preambleName);
    const idAnnotation = findAnnotation(annotations, 'id');
    if (idAnnotation) {
      const value = Number(annotationBodyText(idAnnotation).trim());
      if (Number.isInteger(value) && value > 0) {
        const fixed = this.fixed.get(kind) ?? new Map<string, number>();
        fixed.set(hashName, value);
        this.fixed.set(kind, fixed);
      }
    }
  }

  /** Assigns every id; throws RangeError on a bad or repeated `@id` (the caller reports it). */
  finish(): void {
    for (const [kind, names] of this.names) {
      for (const [name, id] of assignIds(IdPrefix[kind], names, this.fixed.get(kind))) this.ids.set(`${kind}:${name}`, id);
    }
    this.aliasOf = aliases(this.preambleNames);
  }

  id(kind: SymbolKind, hashName: string): number {
    const id = this.ids.get(`${kind}:${hashName}`);
    if (id === undefined) throw new Error(`no id for ${kind} ${hashName}`);
    return id;
  }

  alias(name: string): string {
    return this.aliasOf.get(name) ?? name;
  }
}

/**
 * Ids of match fields, action parameters, controller-header and value-set
 * fields, exactly as p4c's FieldIdAllocator gives them: an `@id` is kept;
 * the others count up from 1 in order (a `selector` key takes a number too),
 * skipping numbers already taken; an element with an `@id` moves the count
 * on by one from where it stands.
 */
export function fieldIds(items: readonly (readonly Annotation[])[]): number[] {
  const given = items.map((annotations) => {
    const a = findAnnotation(annotations, 'id');
    const value = a ? Number(annotationBodyText(a).trim()) : NaN;
    return Number.isInteger(value) && value > 0 ? value : undefined;
  });
  const assigned = new Set(given.filter((v): v is number => v !== undefined));
  let index = 1;
  return given.map((id) => {
    if (id !== undefined) {
      index++;
      return id;
    }
    while (assigned.has(index)) index++;
    assigned.add(index);
    return index;
  });
}
