/**
 * @fileoverview Expressions, and type references as written in the source.
 * The two are one file because each contains the other (`bit<(N + 1)>`,
 * `(bit<8>) x`). Parentheses leave no node (the tree's shape says the
 * grouping); the printer puts back those the precedence needs. Resolving
 * what a name means is the job of later passes.
 */
import type { Name, NodeBase, PathName } from './node.js';

/** An integer literal: `42`, `8w0xff`, `16s5`. */
export interface IntegerLiteral extends NodeBase {
  readonly kind: 'IntegerLiteral';
  readonly value: bigint;
  /** The width before `w`/`s`, or null for an unsized (infinite-precision) literal. */
  readonly width: number | null;
  readonly signed: boolean;
  /** The base it was written in: printing keeps `0x0800` readable as hex. */
  readonly base: 2 | 8 | 10 | 16;
}

export interface BooleanLiteral extends NodeBase {
  readonly kind: 'BooleanLiteral';
  readonly value: boolean;
}

/** A string literal; `value` is the text between the quotes, escapes as written. */
export interface StringLiteral extends NodeBase {
  readonly kind: 'StringLiteral';
  readonly value: string;
}

/** A name used as a value: a variable, parameter, constant, action, table, state... */
export interface PathExpression extends NodeBase {
  readonly kind: 'PathExpression';
  readonly path: PathName;
}

/** A type used where an expression is expected: the `E` of `E.member`, as in `CloneType.I2E` or `error.NoMatch`. */
export interface TypeNameExpression extends NodeBase {
  readonly kind: 'TypeNameExpression';
  readonly type: NamedType | SpecializedType | ErrorType;
}

export interface ThisExpression extends NodeBase {
  readonly kind: 'ThisExpression';
}

/** `target.member`: fields, methods (`.apply`, `.isValid`), `.hit`, `.next`, `.last`, `.size`... */
export interface MemberExpression extends NodeBase {
  readonly kind: 'MemberExpression';
  readonly target: Expression;
  readonly member: Name;
}

/** `target[index]`: a header stack element. */
export interface IndexExpression extends NodeBase {
  readonly kind: 'IndexExpression';
  readonly target: Expression;
  readonly index: Expression;
}

/** `target[high:low]`: a bit slice, both bounds included. */
export interface SliceExpression extends NodeBase {
  readonly kind: 'SliceExpression';
  readonly target: Expression;
  readonly high: Expression;
  readonly low: Expression;
}

export type UnaryOperator = '!' | '~' | '-' | '+';

export interface UnaryExpression extends NodeBase {
  readonly kind: 'UnaryExpression';
  readonly operator: UnaryOperator;
  readonly operand: Expression;
}

export type BinaryOperator =
  | '*' | '/' | '%'
  | '+' | '-' | '|+|' | '|-|' | '++'
  | '<<' | '>>'
  | '&' | '^' | '|'
  | '<' | '>' | '<=' | '>='
  | '==' | '!='
  | '&&' | '||';

export interface BinaryExpression extends NodeBase {
  readonly kind: 'BinaryExpression';
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** `condition ? whenTrue : whenFalse`. */
export interface ConditionalExpression extends NodeBase {
  readonly kind: 'ConditionalExpression';
  readonly condition: Expression;
  readonly whenTrue: Expression;
  readonly whenFalse: Expression;
}

/** `(type) operand`. */
export interface CastExpression extends NodeBase {
  readonly kind: 'CastExpression';
  readonly type: TypeRef;
  readonly operand: Expression;
}

/** One argument of a call: positional, named (`size = 1024`), or `_` (value is a DontCare). */
export interface Argument extends NodeBase {
  readonly kind: 'Argument';
  readonly name: Name | null;
  readonly value: Expression;
}

/** `callee<typeArgs>(args)`: functions, methods, actions, `.apply()`. */
export interface CallExpression extends NodeBase {
  readonly kind: 'CallExpression';
  readonly callee: Expression;
  readonly typeArgs: readonly TypeRef[];
  readonly args: readonly Argument[];
}

/** `Type(args)` as an argument: instantiating a parser, control or extern in place. */
export interface ConstructorCallExpression extends NodeBase {
  readonly kind: 'ConstructorCallExpression';
  readonly type: NamedType | SpecializedType;
  readonly args: readonly Argument[];
}

/** `{ e1, e2 }`: a list (tuple) value. In a select case, also the tuple keyset `(k1, k2)`. */
export interface ListExpression extends NodeBase {
  readonly kind: 'ListExpression';
  readonly elements: readonly Expression[];
}

/** `name = value`: a field of a struct expression, or a key-value annotation entry. */
export interface NamedExpression extends NodeBase {
  readonly kind: 'NamedExpression';
  readonly name: Name;
  readonly value: Expression;
}

/** `{ f1 = e1, f2 = e2 }`: a struct or header value. */
export interface StructExpression extends NodeBase {
  readonly kind: 'StructExpression';
  readonly fields: readonly NamedExpression[];
}

/** `value &&& mask` in a keyset. */
export interface MaskExpression extends NodeBase {
  readonly kind: 'MaskExpression';
  readonly value: Expression;
  readonly mask: Expression;
}

/** `low .. high` in a keyset. */
export interface RangeExpression extends NodeBase {
  readonly kind: 'RangeExpression';
  readonly low: Expression;
  readonly high: Expression;
}

/** `default`: in keysets and switch labels. */
export interface DefaultExpression extends NodeBase {
  readonly kind: 'DefaultExpression';
}

/** `_`: a keyset that matches anything, or an argument left out. */
export interface DontCareExpression extends NodeBase {
  readonly kind: 'DontCareExpression';
}

export type Expression =
  | IntegerLiteral
  | BooleanLiteral
  | StringLiteral
  | PathExpression
  | TypeNameExpression
  | ThisExpression
  | MemberExpression
  | IndexExpression
  | SliceExpression
  | UnaryExpression
  | BinaryExpression
  | ConditionalExpression
  | CastExpression
  | CallExpression
  | ConstructorCallExpression
  | ListExpression
  | StructExpression
  | MaskExpression
  | RangeExpression
  | DefaultExpression
  | DontCareExpression;

// ---- types ---------------------------------------------------------------

/** `bit<W>`, `int<W>`, or `bit` (width null: one bit). */
export interface BitsType extends NodeBase {
  readonly kind: 'BitsType';
  readonly signed: boolean;
  /** The width as written; an integer literal, or an expression in `bit<(E)>`. */
  readonly width: Expression | null;
}

export interface VarbitType extends NodeBase {
  readonly kind: 'VarbitType';
  readonly maxWidth: Expression;
}

/** The unsized `int` of compile-time integers. */
export interface InfIntType extends NodeBase {
  readonly kind: 'InfIntType';
}

export interface BoolType extends NodeBase {
  readonly kind: 'BoolType';
}

export interface ErrorType extends NodeBase {
  readonly kind: 'ErrorType';
}

export interface StringType extends NodeBase {
  readonly kind: 'StringType';
}

export interface MatchKindType extends NodeBase {
  readonly kind: 'MatchKindType';
}

export interface VoidType extends NodeBase {
  readonly kind: 'VoidType';
}

/** `_` as a type argument: "infer this one". */
export interface DontCareType extends NodeBase {
  readonly kind: 'DontCareType';
}

export interface NamedType extends NodeBase {
  readonly kind: 'NamedType';
  readonly path: PathName;
}

/** A generic type applied to arguments: `register<bit<32>>`, `Parser<H, M>`. */
export interface SpecializedType extends NodeBase {
  readonly kind: 'SpecializedType';
  readonly base: NamedType;
  readonly args: readonly TypeRef[];
}

/** `T[N]`: a header stack (or array) of N elements. */
export interface StackType extends NodeBase {
  readonly kind: 'StackType';
  readonly element: NamedType | SpecializedType;
  readonly size: Expression;
}

export interface TupleType extends NodeBase {
  readonly kind: 'TupleType';
  readonly elements: readonly TypeRef[];
}

export type TypeRef =
  | BitsType
  | VarbitType
  | InfIntType
  | BoolType
  | ErrorType
  | StringType
  | MatchKindType
  | VoidType
  | DontCareType
  | NamedType
  | SpecializedType
  | StackType
  | TupleType;
