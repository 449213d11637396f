/**
 * The per-packet reset of a slot (ValueFactory.resetter: headers invalid
 * and zeroed, scalars to their fresh value, in place) and the copy of a
 * slot into a multicast replica's context (ValueFactory.copier) as one
 * generated function per slot type, with every field written out, instead
 * of a tree of closures with a call per header and a loop per layout.
 */
import type { IrType } from '../../p4c/ir/types.js';
import { copyValue, zeroOf, type Value, type ValueFactory } from './values.js';

function literal(v: Value, captures: unknown[]): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'boolean') return String(v);
  captures.push(v);
  return `$[${captures.length - 1}]`;
}

const isCompound = (t: IrType): boolean => t.kind === 'header' || t.kind === 'struct' || t.kind === 'union' || t.kind === 'stack';

/** Statements resetting the value at `at` (an expression) of `type`; `n` numbers the block's variables. */
function resetSource(type: IrType, at: string, values: ValueFactory, captures: unknown[], n: { next: number }): string {
  const id = n.next++;
  switch (type.kind) {
    case 'header': {
      const zeros = values.headerLayout(type.name).fields.map((f, i) => `f${id}[${i}] = ${literal(zeroOf(f.width), captures)};`);
      return `{ const h${id} = ${at}; h${id}.valid = false; const f${id} = h${id}.fields; ${zeros.join(' ')} }`;
    }
    case 'stack': {
      if (values.packs(type.element)) {
        return `{ const s${id} = ${at}; s${id}.data.fill(0); const e${id} = s${id}.elements; for (let i = 0; i < e${id}.length; i++) e${id}[i].valid = false; s${id}.nextIndex = 0; }`;
      }
      const zeros = values.headerLayout(type.element).fields.map((f, i) => `f${id}[${i}] = ${literal(zeroOf(f.width), captures)};`);
      return `{ const s${id} = ${at}; const e${id} = s${id}.elements; for (let i = 0; i < e${id}.length; i++) { const h = e${id}[i]; h.valid = false; const f${id} = h.fields; ${zeros.join(' ')} } s${id}.nextIndex = 0; }`;
    }
    case 'struct':
    case 'union': {
      const parts = values.structLayout(type.name).fields.map((f, i) => {
        if (isCompound(f.type)) return resetSource(f.type, `s${id}[${i}]`, values, captures, n);
        if (f.type.kind === 'tuple') {
          captures.push(values.resetter(f.type));
          return `s${id}[${i}] = $[${captures.length - 1}](s${id}[${i}]);`;
        }
        return `s${id}[${i}] = ${literal(values.make(f.type), captures)};`;
      });
      return `{ const s${id} = ${at}.fields; ${parts.join(' ')} }`;
    }
    default:
      throw new Error(`generate-reset: ${type.kind} is not a compound type`);
  }
}

/** The in-place reset of a value of `type` (as ValueFactory.resetter, generated for compound types). */
export function generateResetter(type: IrType, values: ValueFactory): (v: Value) => Value {
  if (!isCompound(type)) return values.resetter(type);
  const captures: unknown[] = [];
  const body = resetSource(type, 'v', values, captures, { next: 0 });
  // The source is built from the layouts only: numbers, bigint and boolean literals, `$[k]` captures.
  const make = new Function('$', `return function reset(v) {\n${body}\nreturn v;\n};`) as ($: readonly unknown[]) => (v: Value) => Value;
  return make(captures);
}

/** Statements making the value at `to` a copy of the one at `from` (both of `type`), in place. */
function copySource(type: IrType, to: string, from: string, values: ValueFactory, captures: unknown[], n: { next: number }): string {
  const id = n.next++;
  const fieldsCopy = (count: number, a: string, b: string): string => Array.from({ length: count }, (_, i) => `${a}[${i}] = ${b}[${i}];`).join(' ');
  switch (type.kind) {
    case 'header': {
      const count = values.headerLayout(type.name).fields.length;
      return `{ const a${id} = ${to}, b${id} = ${from}; a${id}.valid = b${id}.valid; const af${id} = a${id}.fields, bf${id} = b${id}.fields; ${fieldsCopy(count, `af${id}`, `bf${id}`)} }`;
    }
    case 'stack': {
      if (values.packs(type.element)) {
        return (
          `{ const a${id} = ${to}, b${id} = ${from}; a${id}.data.set(b${id}.data); const ae${id} = a${id}.elements, be${id} = b${id}.elements;` +
          ` for (let i = 0; i < be${id}.length; i++) ae${id}[i].valid = be${id}[i].valid; a${id}.nextIndex = b${id}.nextIndex; }`
        );
      }
      const count = values.headerLayout(type.element).fields.length;
      return (
        `{ const a${id} = ${to}, b${id} = ${from}; const ae${id} = a${id}.elements, be${id} = b${id}.elements;` +
        ` for (let i = 0; i < be${id}.length; i++) { const x = ae${id}[i], y = be${id}[i]; x.valid = y.valid; const xf = x.fields, yf = y.fields; ${fieldsCopy(count, 'xf', 'yf')} }` +
        ` a${id}.nextIndex = b${id}.nextIndex; }`
      );
    }
    case 'struct':
    case 'union': {
      const parts = values.structLayout(type.name).fields.map((f, i) => {
        if (isCompound(f.type)) return copySource(f.type, `a${id}[${i}]`, `b${id}[${i}]`, values, captures, n);
        if (f.type.kind === 'tuple') {
          captures.push(copyValue);
          return `a${id}[${i}] = $[${captures.length - 1}](b${id}[${i}]);`;
        }
        return `a${id}[${i}] = b${id}[${i}];`;
      });
      return `{ const a${id} = ${to}.fields, b${id} = ${from}.fields; ${parts.join(' ')} }`;
    }
    default:
      throw new Error(`generate-reset: ${type.kind} is not a compound type`);
  }
}

/**
 * The in-place copy of a value of `type` into `dst` (as ValueFactory.copier, generated for
 * compound types): every header, struct and stack keeps its shape, so `dst` has the shape of `src`.
 */
export function generateCopier(type: IrType, values: ValueFactory): (dst: Value, src: Value) => Value {
  // Scalars are immutable: the source itself; a tuple (a list value) is copied.
  if (!isCompound(type)) return type.kind === 'tuple' ? (_dst, src) => copyValue(src) : (_dst, src) => src;
  const captures: unknown[] = [copyValue];
  const body = copySource(type, 'dst', 'src', values, captures, { next: 0 });
  // The source is built from the layouts only: property paths and `$[k]` captures.
  const make = new Function('$', `return function copy(dst, src) {\nif (dst === undefined) return $[0](src);\n${body}\nreturn dst;\n};`) as (
    $: readonly unknown[],
  ) => (dst: Value, src: Value) => Value;
  return make(captures);
}
