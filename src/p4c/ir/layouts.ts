/**
 * @fileoverview Semantic types to IR types, registering the header, struct
 * and enum layouts the IR lists as they are met (generic structs by their
 * applied name, e.g. `pair_t<bit<16>>`).
 */
import { findAnnotation, annotationBodyText, type Annotation } from '../ast/annotations.js';
import { typeName, underlying, type P4Type, type StructP4Type } from '../semantics/p4-types.js';
import type { ConstEvaluator } from '../semantics/const-eval.js';
import type { IrEnumType, IrHeaderField, IrHeaderType, IrStructType, IrType } from './types.js';

export class Layouts {
  readonly headers = new Map<string, IrHeaderType>();
  readonly structs = new Map<string, IrStructType>();
  readonly enums = new Map<string, IrEnumType>();

  constructor(private readonly constants: ConstEvaluator) {}

  type(type: P4Type): IrType {
    const t = underlying(type);
    switch (t.kind) {
      case 'bits': return { kind: 'bits', width: t.width, signed: t.signed };
      case 'varbit': return { kind: 'varbit', maxWidth: t.maxWidth };
      case 'bool': return { kind: 'bool' };
      case 'int': return { kind: 'int' };
      case 'error': return { kind: 'error' };
      case 'string': return { kind: 'string' };
      case 'enum':
        this.enumLayout(t);
        return t.underlying ? { kind: 'bits', width: t.underlying.width, signed: t.underlying.signed } : { kind: 'enum', name: t.name };
      case 'header': {
        const name = typeName(t);
        if (!this.headers.has(name)) this.headers.set(name, this.headerLayout(t, name));
        return { kind: 'header', name };
      }
      case 'struct': case 'union': {
        const name = typeName(t);
        if (!this.structs.has(name)) {
          const fields: { name: string; type: IrType; fieldLists: number[] }[] = [];
          this.structs.set(name, { name, kind: t.kind, fields });
          t.fields.forEach((f, i) => fields.push({ name: f.name, type: this.type(f.type), fieldLists: fieldLists(t.decl?.fields[i]?.annotations ?? []) }));
        }
        return { kind: t.kind, name };
      }
      case 'stack': {
        const element = this.type(t.element);
        return { kind: 'stack', element: 'name' in element ? element.name : typeName(t.element), size: t.size };
      }
      case 'tuple': return { kind: 'tuple', elements: t.elements.map((e) => this.type(e)) };
      default: return { kind: 'void' };
    }
  }

  /**
   * A header's fields in wire order. A field of struct type (P4-16 allows structs of bit fields in
   * headers) is flattened, as p4c does for BMv2: `row.alt0.valid` is one field of the header.
   */
  private headerLayout(t: StructP4Type, name: string): IrHeaderType {
    let offset = 0;
    const flatten = (fields: StructP4Type['fields'], prefix: string): IrHeaderField[] => fields.flatMap((f) => {
      const u = underlying(f.type);
      if (u.kind === 'struct') return flatten(u.fields, `${prefix}${f.name}.`);
      const varbit = u.kind === 'varbit';
      const width = u.kind === 'bits' ? u.width : u.kind === 'varbit' ? u.maxWidth : u.kind === 'bool' ? 1 : u.kind === 'enum' && u.underlying ? u.underlying.width : 0;
      const field: IrHeaderField = { name: `${prefix}${f.name}`, width, signed: u.kind === 'bits' && u.signed, varbit, bitOffset: offset };
      if (!varbit) offset += width;
      return [field];
    });
    const fields = flatten(t.fields, '');
    const annotation = t.decl ? findAnnotation(t.decl.annotations, 'controller_header') : undefined;
    const controllerHeader = annotation ? annotationBodyText(annotation).replace(/^"|"$/g, '') : null;
    return { name, fields, width: offset, bytes: Math.ceil(offset / 8), controllerHeader };
  }

  private enumLayout(t: Extract<P4Type, { kind: 'enum' }>): void {
    if (this.enums.has(t.name)) return;
    const u = t.underlying;
    this.enums.set(t.name, {
      name: t.name,
      members: [...t.members],
      underlying: u
        ? { width: u.width, signed: u.signed, values: t.decl.members.map((m) => String(m.value ? this.constants.integer(m.value) ?? 0n : 0n)) }
        : null,
    });
  }
}

/** The indices of `@field_list(1, 2)` annotations on a struct field. */
function fieldLists(annotations: readonly Annotation[]): number[] {
  return annotations
    .filter((a) => a.name.text === 'field_list')
    .flatMap((a) => annotationBodyText(a).split(','))
    .map((text) => Number(text.trim()))
    .filter((n) => Number.isInteger(n) && n >= 0);
}
