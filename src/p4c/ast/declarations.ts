/**
 * @fileoverview Declarations: everything that can be named at the top level
 * of a program or inside a parser, control, extern or block.
 */
import type { Annotation } from './annotations.js';
import type { Expression, PathExpression, TypeRef } from './expressions.js';
import type { Name, NodeBase } from './node.js';
import type {
  BlockStatement,
  ConstantDeclaration,
  FunctionDeclaration,
  Instantiation,
  Parameter,
  StatementOrDeclaration,
  VariableDeclaration,
} from './statements.js';
import type { TableProperty } from './tables.js';

export type { ConstantDeclaration, Direction, FunctionDeclaration, Instantiation, Parameter, VariableDeclaration } from './statements.js';

/** A field of a header, header_union or struct. */
export interface StructField extends NodeBase {
  readonly kind: 'StructField';
  readonly annotations: readonly Annotation[];
  readonly type: TypeRef;
  readonly name: Name;
}

/** `header`, `header_union` and `struct` declarations share one shape. */
export interface StructLikeDeclaration extends NodeBase {
  readonly kind: 'HeaderDeclaration' | 'HeaderUnionDeclaration' | 'StructDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly fields: readonly StructField[];
}

export interface EnumMember extends NodeBase {
  readonly kind: 'EnumMember';
  readonly name: Name;
  /** The value of a serializable enum's member (`enum bit<8> E { A = 1 }`), else null. */
  readonly value: Expression | null;
}

/** `enum E { A, B }`, or with an underlying type `enum bit<16> E { A = 1 }`. */
export interface EnumDeclaration extends NodeBase {
  readonly kind: 'EnumDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly underlyingType: TypeRef | null;
  readonly members: readonly EnumMember[];
}

/** `error { ... }`: adds members to the one `error` type. */
export interface ErrorDeclaration extends NodeBase {
  readonly kind: 'ErrorDeclaration';
  readonly members: readonly Name[];
}

/** `match_kind { ... }`. */
export interface MatchKindDeclaration extends NodeBase {
  readonly kind: 'MatchKindDeclaration';
  readonly members: readonly Name[];
}

/** `typedef T N;` (an alias) or `type T N;` (a new type, `isNewType`). */
export interface TypedefDeclaration extends NodeBase {
  readonly kind: 'TypedefDeclaration';
  readonly annotations: readonly Annotation[];
  readonly isNewType: boolean;
  readonly type: TypeRef | StructLikeDeclaration | EnumDeclaration;
  readonly name: Name;
}

/** A method of an extern, or its constructor (`isConstructor`, no return type). */
export interface MethodPrototype extends NodeBase {
  readonly kind: 'MethodPrototype';
  readonly annotations: readonly Annotation[];
  readonly isAbstract: boolean;
  readonly isConstructor: boolean;
  readonly returnType: TypeRef | null;
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly params: readonly Parameter[];
}

export interface ExternDeclaration extends NodeBase {
  readonly kind: 'ExternDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly methods: readonly MethodPrototype[];
}

/** `extern R f<T>(params);`. */
export interface ExternFunctionDeclaration extends NodeBase {
  readonly kind: 'ExternFunctionDeclaration';
  readonly annotations: readonly Annotation[];
  readonly returnType: TypeRef;
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly params: readonly Parameter[];
}

export interface ActionDeclaration extends NodeBase {
  readonly kind: 'ActionDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly params: readonly Parameter[];
  readonly body: BlockStatement;
}

export interface TableDeclaration extends NodeBase {
  readonly kind: 'TableDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly properties: readonly TableProperty[];
}

/** `value_set<T>(size) name;` in a parser. */
export interface ValueSetDeclaration extends NodeBase {
  readonly kind: 'ValueSetDeclaration';
  readonly annotations: readonly Annotation[];
  readonly elementType: TypeRef;
  readonly size: Expression;
  readonly name: Name;
}

/** `parser P<T>(params);`, `control C(params);`, `package Pkg(params);` */
export interface BlockTypeDeclaration extends NodeBase {
  readonly kind: 'ParserTypeDeclaration' | 'ControlTypeDeclaration' | 'PackageTypeDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly params: readonly Parameter[];
}

export interface SelectCase extends NodeBase {
  readonly kind: 'SelectCase';
  /** One keyset; a tuple keyset `(a, b)` is a ListExpression. */
  readonly keyset: Expression;
  readonly state: PathExpression;
}

export interface SelectExpression extends NodeBase {
  readonly kind: 'SelectExpression';
  readonly selectors: readonly Expression[];
  readonly cases: readonly SelectCase[];
}

export interface ParserState extends NodeBase {
  readonly kind: 'ParserState';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly body: readonly StatementOrDeclaration[];
  /** `transition next;` (a PathExpression) or `transition select(...) {...}`; null when absent. */
  readonly transition: PathExpression | SelectExpression | null;
}

export type ParserLocal = ConstantDeclaration | VariableDeclaration | Instantiation | ValueSetDeclaration;

export interface ParserDeclaration extends NodeBase {
  readonly kind: 'ParserDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly params: readonly Parameter[];
  readonly constructorParams: readonly Parameter[];
  readonly locals: readonly ParserLocal[];
  readonly states: readonly ParserState[];
}

export type ControlLocal =
  | ConstantDeclaration
  | VariableDeclaration
  | Instantiation
  | ActionDeclaration
  | TableDeclaration;

export interface ControlDeclaration extends NodeBase {
  readonly kind: 'ControlDeclaration';
  readonly annotations: readonly Annotation[];
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly params: readonly Parameter[];
  readonly constructorParams: readonly Parameter[];
  readonly locals: readonly ControlLocal[];
  readonly apply: BlockStatement;
}

export type Declaration =
  | ConstantDeclaration
  | VariableDeclaration
  | Instantiation
  | StructLikeDeclaration
  | EnumDeclaration
  | ErrorDeclaration
  | MatchKindDeclaration
  | TypedefDeclaration
  | ExternDeclaration
  | ExternFunctionDeclaration
  | FunctionDeclaration
  | ActionDeclaration
  | TableDeclaration
  | ValueSetDeclaration
  | BlockTypeDeclaration
  | ParserDeclaration
  | ControlDeclaration;
