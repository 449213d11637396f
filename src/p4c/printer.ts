/**
 * @fileoverview The pretty-printer: a tree back to P4 source in one
 * canonical layout (4-space indents, one declaration per line, the
 * parentheses precedence needs and no others). Parsing the output gives the
 * same tree again, so every pass can dump its result as a golden file.
 *
 * Declarations that came from our library files (core.p4, v1model.p4) are
 * printed as the `#include <...>` that brought them in, as p4c does.
 */
import type { Declaration } from './ast/declarations.js';
import type { Expression } from './ast/expressions.js';
import type { TypeRef } from './ast/types.js';
import type { Program } from './ast/program.js';
import type { AstNode } from './ast/walk.js';
import type { LibraryInclude } from './source/source-registry.js';
import { printDeclaration } from './printer/declarations.js';
import { printExpression, printType } from './printer/expressions.js';
import { printStatementOrDeclaration } from './printer/statements.js';
import { SourceWriter } from './printer/writer.js';

export interface PrintOptions {
  /**
   * Library files by path (from SourceRegistry.libraryFiles()). Their
   * declarations print as one `#include <name>` each, after the `#define`s
   * that configured them. Omit to print every declaration.
   */
  readonly libraryFiles?: ReadonlyMap<string, LibraryInclude>;
}

export function printProgram(program: Program, options: PrintOptions = {}): string {
  const w = new SourceWriter();
  const included = new Set<string>();
  // Runs of includes and of one-line declarations stay together; a blank line
  // separates runs and surrounds every multi-line declaration.
  let previous: 'include' | 'line' | 'block' | null = null;
  const separate = (current: 'include' | 'line' | 'block', at: number): void => {
    if (previous !== null && (previous !== current || current === 'block')) w.insertBlankLineAt(at);
    previous = current;
  };
  for (const declaration of program.declarations) {
    const library = options.libraryFiles?.get(declaration.span.file);
    const before = w.lineCount;
    if (library !== undefined) {
      if (included.has(library.name)) continue;
      included.add(library.name);
      for (const define of library.defines) w.line(`#define ${define}`);
      w.line(`#include <${library.name}>`);
      separate('include', before);
      continue;
    }
    printDeclaration(w, declaration);
    separate(w.lineCount - before > 1 ? 'block' : 'line', before);
  }
  return w.toString();
}

/** Any single node as P4 text, for messages and dumps. */
export function printNode(node: AstNode): string {
  const w = new SourceWriter();
  switch (node.kind) {
    case 'Program':
      return printProgram(node);
    case 'AssignmentStatement':
    case 'CallStatement':
    case 'BlockStatement':
    case 'IfStatement':
    case 'SwitchStatement':
    case 'ExitStatement':
    case 'ReturnStatement':
    case 'EmptyStatement':
      printStatementOrDeclaration(w, node);
      return w.toString();
    default:
      if (isTypeNode(node)) return printType(node);
      if (isExpressionNode(node)) return printExpression(node);
      if (isDeclarationNode(node)) {
        printDeclaration(w, node);
        return w.toString();
      }
      return `<${node.kind}>`;
  }
}

const TYPE_KINDS = new Set(['BitsType', 'VarbitType', 'InfIntType', 'BoolType', 'ErrorType', 'StringType', 'MatchKindType', 'VoidType', 'DontCareType', 'NamedType', 'SpecializedType', 'StackType', 'TupleType']);
const EXPRESSION_KINDS = new Set(['IntegerLiteral', 'BooleanLiteral', 'StringLiteral', 'PathExpression', 'TypeNameExpression', 'ThisExpression', 'MemberExpression', 'IndexExpression', 'SliceExpression', 'UnaryExpression', 'BinaryExpression', 'ConditionalExpression', 'CastExpression', 'CallExpression', 'ConstructorCallExpression', 'ListExpression', 'StructExpression', 'MaskExpression', 'RangeExpression', 'DefaultExpression', 'DontCareExpression']);

function isTypeNode(node: AstNode): node is TypeRef {
  return TYPE_KINDS.has(node.kind);
}

function isExpressionNode(node: AstNode): node is Expression {
  return EXPRESSION_KINDS.has(node.kind);
}

function isDeclarationNode(node: AstNode): node is Declaration {
  return node.kind.endsWith('Declaration') || node.kind === 'Instantiation';
}
