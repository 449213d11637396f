/**
 * @fileoverview The semantic types the checker assigns to expressions and
 * declarations. They live in side tables, never on AST nodes. `unknown` is
 * the type of something already reported as an error: it is compatible with
 * everything, so one mistake does not cascade into many diagnostics.
 */
import type {
  BlockTypeDeclaration,
  ControlDeclaration,
  EnumDeclaration,
  ExternDeclaration,
  ParserDeclaration,
  StructLikeDeclaration,
  TypedefDeclaration,
} from '../ast/declarations.js';

export interface BitsP4Type { readonly kind: 'bits'; readonly width: number; readonly signed: boolean }
export interface VarbitP4Type { readonly kind: 'varbit'; readonly maxWidth: number }
export interface FieldP4 { readonly name: string; readonly type: P4Type }
export interface StructP4Type {
  readonly kind: 'struct' | 'header' | 'union';
  readonly name: string;
  readonly fields: readonly FieldP4[];
  readonly decl: StructLikeDeclaration | null;
}
export interface StackP4Type { readonly kind: 'stack'; readonly element: P4Type; readonly size: number }
export interface TupleP4Type { readonly kind: 'tuple'; readonly elements: readonly P4Type[] }
export interface EnumP4Type { readonly kind: 'enum'; readonly name: string; readonly members: readonly string[]; readonly underlying: BitsP4Type | null; readonly decl: EnumDeclaration }
/** `type T N;`: a new type over `base`. */
export interface NewP4Type { readonly kind: 'newtype'; readonly name: string; readonly base: P4Type; readonly decl: TypedefDeclaration | null }
export interface ExternP4Type { readonly kind: 'extern'; readonly name: string; readonly decl: ExternDeclaration; readonly args: readonly P4Type[] }
export interface BlockP4Type {
  readonly kind: 'parser' | 'control' | 'package';
  readonly name: string;
  readonly decl: ParserDeclaration | ControlDeclaration | BlockTypeDeclaration;
}
export interface TypeVarP4Type { readonly kind: 'typevar'; readonly name: string }
/** The result of `t.apply()`: `.hit`, `.miss`, `.action_run`. */
export interface TableResultP4Type { readonly kind: 'table-result'; readonly table: string }
export interface SimpleP4Type { readonly kind: 'bool' | 'int' | 'string' | 'error' | 'match_kind' | 'void' | 'dontcare' | 'unknown' | 'table' | 'action' | 'state' }

export type P4Type =
  | BitsP4Type
  | VarbitP4Type
  | StructP4Type
  | StackP4Type
  | TupleP4Type
  | EnumP4Type
  | NewP4Type
  | ExternP4Type
  | BlockP4Type
  | TypeVarP4Type
  | TableResultP4Type
  | SimpleP4Type;

export const UNKNOWN: P4Type = { kind: 'unknown' };
export const BOOL: P4Type = { kind: 'bool' };
export const INT: P4Type = { kind: 'int' };
export const VOID: P4Type = { kind: 'void' };
export const ERROR_TYPE: P4Type = { kind: 'error' };
export const STRING: P4Type = { kind: 'string' };
export const bits = (width: number, signed = false): BitsP4Type => ({ kind: 'bits', width, signed });

/** A newtype seen through to what it is made of. */
export function underlying(type: P4Type): P4Type {
  return type.kind === 'newtype' ? underlying(type.base) : type;
}

/** The width in bits of a type that has one (bit<W>, int<W>, serializable enum, bool as 1), else null. */
export function bitWidth(type: P4Type): number | null {
  const t = underlying(type);
  if (t.kind === 'bits') return t.width;
  if (t.kind === 'bool') return 1;
  if (t.kind === 'enum' && t.underlying) return t.underlying.width;
  return null;
}

/** The fixed width of a header or struct in bits (varbit counted at its maximum). */
export function totalWidth(type: P4Type): number {
  const t = underlying(type);
  switch (t.kind) {
    case 'bits': return t.width;
    case 'bool': return 1;
    case 'varbit': return t.maxWidth;
    case 'enum': return t.underlying?.width ?? 32;
    case 'error': return 32;
    case 'struct': case 'header': case 'union': return t.fields.reduce((sum, f) => sum + totalWidth(f.type), 0);
    case 'stack': return t.size * totalWidth(t.element);
    case 'tuple': return t.elements.reduce((sum, e) => sum + totalWidth(e), 0);
    default: return 0;
  }
}

/** The methods every header, struct and union has (p4c 1.2.2+): compile-time sizes, varbit fields at 0 (min) or their maximum (max). */
export const SIZE_METHODS: ReadonlySet<string> = new Set(['minSizeInBits', 'minSizeInBytes', 'maxSizeInBits', 'maxSizeInBytes']);

/** What `x.minSizeInBits()` and friends give for a value of `type`, or undefined when the type has no size. */
export function sizeMethodValue(type: P4Type, method: string): bigint | undefined {
  const t = underlying(type);
  if (t.kind !== 'header' && t.kind !== 'struct' && t.kind !== 'union' && t.kind !== 'stack') return undefined;
  const minWidth = (x: P4Type): number => {
    const u = underlying(x);
    if (u.kind === 'varbit') return 0;
    if (u.kind === 'struct' || u.kind === 'header') return u.fields.reduce((sum, f) => sum + minWidth(f.type), 0);
    if (u.kind === 'union') return Math.min(...u.fields.map((f) => minWidth(f.type)));
    if (u.kind === 'stack') return u.size * minWidth(u.element);
    return totalWidth(u);
  };
  const bits = BigInt(method.startsWith('min') ? minWidth(t) : totalWidth(t));
  return method.endsWith('Bytes') ? (bits + 7n) / 8n : bits;
}

/** How the type is written in P4, for messages. */
export function typeName(type: P4Type): string {
  switch (type.kind) {
    case 'bits': return `${type.signed ? 'int' : 'bit'}<${type.width}>`;
    case 'varbit': return `varbit<${type.maxWidth}>`;
    case 'stack': return `${typeName(type.element)}[${type.size}]`;
    case 'tuple': return `tuple<${type.elements.map(typeName).join(', ')}>`;
    case 'struct': case 'header': case 'union': case 'enum': case 'newtype': case 'parser': case 'control': case 'package': case 'typevar':
      return type.name;
    case 'extern': return type.args.length > 0 ? `${type.name}<${type.args.map(typeName).join(', ')}>` : type.name;
    case 'table-result': return `${type.table}.apply() result`;
    case 'int': return 'int';
    default: return type.kind;
  }
}

/** Whether a value of `from` may be assigned (or passed) where `to` is expected without a cast. */
export function assignable(to: P4Type, from: P4Type): boolean {
  if (to.kind === 'unknown' || from.kind === 'unknown' || to.kind === 'typevar' || from.kind === 'typevar' || from.kind === 'dontcare') return true;
  if (from.kind === 'int') {
    const t = underlying(to);
    return t.kind === 'bits' || t.kind === 'int' || (t.kind === 'enum' && t.underlying !== null);
  }
  if (to.kind === 'bits' && from.kind === 'bits') return to.width === from.width && to.signed === from.signed;
  // A serializable enum converts implicitly to its underlying type (P4-16 §8.3).
  if (to.kind === 'bits' && from.kind === 'enum' && from.underlying) return assignable(to, from.underlying);
  if (to.kind === 'newtype' || from.kind === 'newtype') return to.kind === 'newtype' && from.kind === 'newtype' && to.name === from.name;
  if (to.kind === 'tuple' && from.kind === 'tuple') {
    return to.elements.length === from.elements.length && to.elements.every((e, i) => assignable(e, from.elements[i]!));
  }
  if ((to.kind === 'struct' || to.kind === 'header') && from.kind === 'tuple') {
    return to.fields.length === from.elements.length && to.fields.every((f, i) => assignable(f.type, from.elements[i]!));
  }
  if ('name' in to && 'name' in from) return to.kind === from.kind && to.name === from.name;
  if (to.kind === 'stack' && from.kind === 'stack') return to.size === from.size && assignable(to.element, from.element);
  return to.kind === from.kind;
}
