/**
 * @fileoverview What the call typer needs from the expression typer, as an
 * interface, so that the two do not import each other.
 */
import type { Expression } from '../ast/expressions.js';
import type { AstNode } from '../ast/walk.js';
import type { DiagnosticBag } from '../diagnostics/bag.js';
import type { P4Type } from './p4-types.js';
import type { Entity } from './scope.js';
import type { TypeResolver } from './type-resolver.js';

export interface TyperApi {
  readonly refs: ReadonlyMap<AstNode, Entity>;
  readonly types: Map<AstNode, P4Type>;
  readonly resolver: TypeResolver;
  readonly diagnostics: DiagnosticBag;
  readonly overloads: (name: string) => readonly Entity[];
  type(e: Expression, expected?: P4Type): P4Type;
}
