// The IR oracle's values: numbers are BigInt bit patterns, booleans are
// booleans, headers, structs and stacks are plain objects (and a field list
// an array). Each slot is one such value per packet.
import type { IrProgram, IrType } from '../../../src/p4c/index.js';

export interface Header { kind: 'header'; valid: boolean; fields: Record<string, bigint> }
export interface Struct { kind: 'struct'; fields: Record<string, Value> }
export interface Stack { kind: 'stack'; elements: Header[] }
export type Value = bigint | boolean | Header | Struct | Stack | Value[];

export function headerLayout(ir: IrProgram, name: string): IrProgram['headers'][number] {
  const layout = ir.headers.find((h) => h.name === name);
  if (!layout) throw new Error(`no header type ${name}`);
  return layout;
}

/** A fresh value of `type`: headers invalid, numbers 0 (BMv2's choice for metadata). */
export function initialValue(ir: IrProgram, type: IrType): Value {
  switch (type.kind) {
    case 'bool':
      return false;
    case 'header':
      return { kind: 'header', valid: false, fields: Object.fromEntries(headerLayout(ir, type.name).fields.map((f) => [f.name, 0n])) };
    case 'struct': {
      const layout = ir.structs.find((s) => s.name === type.name);
      if (!layout) throw new Error(`no struct type ${type.name}`);
      return { kind: 'struct', fields: Object.fromEntries(layout.fields.map((f) => [f.name, initialValue(ir, f.type)])) };
    }
    case 'stack':
      return { kind: 'stack', elements: Array.from({ length: type.size }, () => initialValue(ir, { kind: 'header', name: type.element }) as Header) };
    default:
      return 0n;
  }
}

/** A deep copy: P4 assignments and copy-in/copy-out never share. */
export function clone(v: Value): Value {
  if (typeof v === 'bigint' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(clone);
  if (v.kind === 'header') return { kind: 'header', valid: v.valid, fields: { ...v.fields } };
  if (v.kind === 'struct') return { kind: 'struct', fields: Object.fromEntries(Object.entries(v.fields).map(([k, x]) => [k, clone(x)])) };
  return { kind: 'stack', elements: v.elements.map((h) => clone(h) as Header) };
}
