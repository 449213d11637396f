/**
 * @fileoverview p4c's P4RuntimeSymbolTable: every control-plane object is
 * added with its kind, name and optional `@id`; then ids are assigned per
 * kind (fixed ids first, the rest hashed in name order with probing) and
 * aliases computed over all names.
 */
import type { Annotation } from '../ast/annotations.js';
import { assignIds, IdPrefix } from '../../p4info/index.js';
import { aliases } from '../control-plane/names.js';
import { fixedIdOf, IdAnnotationError, prefixedId, type IdProblem } from './id-annotations.js';

export type SymbolKind = keyof typeof IdPrefix;

export class SymbolTable {
  private readonly names = new Map<SymbolKind, string[]>();
  private readonly fixed = new Map<SymbolKind, Map<string, { value: number; annotation: Annotation }>>();
  private readonly problems: IdProblem[] = [];
  private readonly preambleNames: string[] = [];
  private ids = new Map<string, number>();
  private aliasOf = new Map<string, string>();

  /** Adds a symbol. `hashName` is what the id is computed from when it differs from the preamble name. */
  add(kind: SymbolKind, hashName: string, annotations: readonly Annotation[], preambleName = hashName): void {
    const list = this.names.get(kind) ?? [];
    if (!list.includes(hashName)) list.push(hashName);
    this.names.set(kind, list);
    this.preambleNames.push(preambleName);
    const given = fixedIdOf(annotations, this.problems);
    if (given) this.fixed.set(kind, (this.fixed.get(kind) ?? new Map<string, { value: number; annotation: Annotation }>()).set(hashName, given));
  }

  /** Assigns every id; throws IdAnnotationError on bad or repeated `@id`s (the caller reports them). */
  finish(): void {
    const fixedIds = new Map<SymbolKind, Map<string, number>>();
    for (const [kind, given] of this.fixed) {
      const what = kind.toLowerCase().replace(/_/g, ' ');
      const byId = new Map<number, string>();
      const ids = new Map<string, number>();
      for (const [name, raw] of given) {
        const id = prefixedId(raw, IdPrefix[kind], what, name, this.problems);
        if (id === undefined) continue;
        const other = byId.get(id);
        if (other !== undefined) this.problems.push({ id: 'DuplicateId', span: raw.annotation.span, args: [`0x${id.toString(16).padStart(8, '0')}`, `${what}s ${other} and ${name}`] });
        byId.set(id, name);
        ids.set(name, id);
      }
      fixedIds.set(kind, ids);
    }
    if (this.problems.length > 0) throw new IdAnnotationError(this.problems);
    for (const [kind, names] of this.names) {
      for (const [name, id] of assignIds(IdPrefix[kind], names, fixedIds.get(kind))) this.ids.set(`${kind}:${name}`, id);
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
  const problems: IdProblem[] = [];
  const assigned = new Set<number>();
  const given = items.map((annotations) => {
    const id = fixedIdOf(annotations, problems);
    if (!id) return undefined;
    if (id.value === 0) problems.push({ id: 'ZeroFieldId', span: id.annotation.span, args: [] });
    else if (assigned.has(id.value)) problems.push({ id: 'DuplicateId', span: id.annotation.span, args: [id.value, 'the fields of one list'] });
    assigned.add(id.value);
    return id.value;
  });
  if (problems.length > 0) throw new IdAnnotationError(problems);
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
