/**
 * @fileoverview Statements of action bodies, apply blocks, functions and
 * parser states, and the declarations that may stand among them:
 * constants, variables, instantiations (whose initializers hold functions),
 * with functions' parameters. declarations.ts builds on this file.
 */
import type { Annotation } from './annotations.js';
import type { Argument, CallExpression, Expression, TypeRef } from './expressions.js';
import type { Name, NodeBase } from './node.js';

export interface AssignmentStatement extends NodeBase {
  readonly kind: 'AssignmentStatement';
  readonly target: Expression;
  readonly value: Expression;
}

/** A call as a statement: `t.apply();`, `mark_to_drop(sm);`, `pkt.extract(hdr.eth);`. */
export interface CallStatement extends NodeBase {
  readonly kind: 'CallStatement';
  readonly call: CallExpression;
}

export interface BlockStatement extends NodeBase {
  readonly kind: 'BlockStatement';
  readonly annotations: readonly Annotation[];
  readonly body: readonly StatementOrDeclaration[];
}

export interface IfStatement extends NodeBase {
  readonly kind: 'IfStatement';
  readonly condition: Expression;
  readonly then: Statement;
  readonly else: Statement | null;
}

/** One case of a switch; a null body falls through to the next case. */
export interface SwitchCase extends NodeBase {
  readonly kind: 'SwitchCase';
  /** A DefaultExpression, an action name (switch on `.action_run`) or a value. */
  readonly label: Expression;
  readonly body: BlockStatement | null;
}

export interface SwitchStatement extends NodeBase {
  readonly kind: 'SwitchStatement';
  readonly subject: Expression;
  readonly cases: readonly SwitchCase[];
}

export interface ExitStatement extends NodeBase {
  readonly kind: 'ExitStatement';
}

export interface ReturnStatement extends NodeBase {
  readonly kind: 'ReturnStatement';
  readonly value: Expression | null;
}

export interface EmptyStatement extends NodeBase {
  readonly kind: 'EmptyStatement';
}

export type Statement =
  | AssignmentStatement
  | CallStatement
  | BlockStatement
  | IfStatement
  | SwitchStatement
  | ExitStatement
  | ReturnStatement
  | EmptyStatement;

export type StatementOrDeclaration = Statement | VariableDeclaration | ConstantDeclaration | Instantiation;

// ---- declarations among statements ---------------------------------------

export type Direction = 'in' | 'out' | 'inout';

export interface Parameter extends NodeBase {
  readonly kind: 'Parameter';
  readonly annotations: readonly Annotation[];
  /** Null for a directionless parameter (action data, constructor arguments). */
  readonly direction: Direction | null;
  readonly type: TypeRef;
  readonly name: Name;
  readonly defaultValue: Expression | null;
}

export interface ConstantDeclaration extends NodeBase {
  readonly kind: 'ConstantDeclaration';
  readonly annotations: readonly Annotation[];
  readonly type: TypeRef;
  readonly name: Name;
  readonly value: Expression;
}

export interface VariableDeclaration extends NodeBase {
  readonly kind: 'VariableDeclaration';
  readonly annotations: readonly Annotation[];
  readonly type: TypeRef;
  readonly name: Name;
  readonly initializer: Expression | null;
}

/** `Type(args) name;`, optionally with `= { ... }` implementing abstract methods. */
export interface Instantiation extends NodeBase {
  readonly kind: 'Instantiation';
  readonly annotations: readonly Annotation[];
  readonly type: TypeRef;
  readonly args: readonly Argument[];
  readonly name: Name;
  readonly initializer: readonly (FunctionDeclaration | Instantiation)[] | null;
}

/** `R f<T>(params) { ... }`. */
export interface FunctionDeclaration extends NodeBase {
  readonly kind: 'FunctionDeclaration';
  readonly annotations: readonly Annotation[];
  readonly returnType: TypeRef;
  readonly name: Name;
  readonly typeParams: readonly Name[];
  readonly params: readonly Parameter[];
  readonly body: BlockStatement;
}
