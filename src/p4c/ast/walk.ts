/**
 * @fileoverview Generic traversal of the tree. Children are found from the
 * nodes' own fields (any object with a string `kind`, alone or in an array),
 * so the walk cannot fall out of step when node types gain fields.
 */
import type { AnnotationBody, AnnotationToken, Annotation } from './annotations.js';
import type { Declaration, EnumMember, MethodPrototype, Parameter, ParserState, SelectCase, SelectExpression, StructField } from './declarations.js';
import type { Argument, Expression, NamedExpression } from './expressions.js';
import type { Name, PathName } from './node.js';
import type { Program } from './program.js';
import type { Statement, SwitchCase } from './statements.js';
import type { ActionReference, KeyElement, TableEntry, TableProperty } from './tables.js';
import type { TypeRef } from './types.js';

/** Any node of the tree. */
export type AstNode =
  | Program
  | Declaration
  | Statement
  | Expression
  | TypeRef
  | Name
  | PathName
  | Annotation
  | AnnotationToken
  | NamedExpression
  | Argument
  | Parameter
  | StructField
  | EnumMember
  | MethodPrototype
  | ParserState
  | SelectExpression
  | SelectCase
  | SwitchCase
  | TableProperty
  | KeyElement
  | ActionReference
  | TableEntry;

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string' && 'span' in value;
}

/** The direct children of `node`, in field order. */
export function childrenOf(node: AstNode): AstNode[] {
  const children: AstNode[] = [];
  const collect = (value: unknown): void => {
    if (isNode(value)) children.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (isAnnotationBody(value)) Object.values(value).forEach(collect);
  };
  for (const [key, value] of Object.entries(node)) if (key !== 'span') collect(value);
  return children;
}

function isAnnotationBody(value: unknown): value is AnnotationBody {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('span' in value) && 'kind' in value;
}

/** Calls `visit` on `node` and every node below it, parents first. Return false to skip a subtree. */
export function walk(node: AstNode, visit: (node: AstNode) => boolean | void): void {
  const stack: AstNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (visit(current) === false) continue;
    const children = childrenOf(current);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/**
 * A copy of a tree with every span removed: two trees parsed from
 * differently formatted text compare equal this way.
 */
export function withoutSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSpans);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (key !== 'span') copy[key] = withoutSpans(field);
  return copy;
}
