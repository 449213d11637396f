/**
 * @fileoverview How deeply a program may nest, checked once, right after
 * parsing, so that no later pass has to guard its own recursion: the name
 * resolver, type checker, constant folder, P4Info builder, IR lowering and
 * printer all recurse over the tree, and a tree deeper than the JavaScript
 * stack allows would end them with "Maximum call stack size exceeded".
 *
 * The parser keeps its own recursion within MAX_NESTING (parser-base.ts).
 * A tree can still be deeper than the parser ever recursed: `a + b + c + …`
 * is read by a loop but is a left-leaning tree as deep as the chain is long.
 * This check walks the tree without recursion and refuses, with the place,
 * any statement, expression or type nested more than MAX_NESTING levels.
 */
import type { Expression, TypeRef } from '../ast/expressions.js';
import type { Program } from '../ast/program.js';
import type { Statement } from '../ast/statements.js';
import { childrenOf, type AstNode } from '../ast/walk.js';
import type { DiagnosticBag } from '../diagnostics/bag.js';

/**
 * How deeply statements, expressions and types may nest. Real programs stay
 * far below; the limit keeps pathological input from exhausting the stack.
 */
export const MAX_NESTING = 256;

type Nesting = 'statement' | 'expression' | 'type';

/** The kinds that make a level; TypeScript checks the lists are complete. */
const LEVELS: Record<Statement['kind'] | Expression['kind'] | TypeRef['kind'], Nesting> = {
  AssignmentStatement: 'statement',
  CallStatement: 'statement',
  BlockStatement: 'statement',
  IfStatement: 'statement',
  SwitchStatement: 'statement',
  ExitStatement: 'statement',
  ReturnStatement: 'statement',
  EmptyStatement: 'statement',
  IntegerLiteral: 'expression',
  BooleanLiteral: 'expression',
  StringLiteral: 'expression',
  PathExpression: 'expression',
  TypeNameExpression: 'expression',
  ThisExpression: 'expression',
  MemberExpression: 'expression',
  IndexExpression: 'expression',
  SliceExpression: 'expression',
  UnaryExpression: 'expression',
  BinaryExpression: 'expression',
  ConditionalExpression: 'expression',
  CastExpression: 'expression',
  CallExpression: 'expression',
  ConstructorCallExpression: 'expression',
  ListExpression: 'expression',
  StructExpression: 'expression',
  MaskExpression: 'expression',
  RangeExpression: 'expression',
  DefaultExpression: 'expression',
  DontCareExpression: 'expression',
  BitsType: 'type',
  VarbitType: 'type',
  InfIntType: 'type',
  BoolType: 'type',
  ErrorType: 'type',
  StringType: 'type',
  MatchKindType: 'type',
  VoidType: 'type',
  DontCareType: 'type',
  NamedType: 'type',
  SpecializedType: 'type',
  StackType: 'type',
  TupleType: 'type',
};

function levelOf(node: AstNode): Nesting | undefined {
  return (LEVELS as Partial<Record<string, Nesting>>)[node.kind];
}

/**
 * The deepest node of `root` and its depth in levels (statements,
 * expressions and types; other nodes do not count). Without recursion.
 */
export function deepestNode(root: AstNode): { readonly node: AstNode; readonly depth: number } {
  let deepest = { node: root, depth: 0 };
  const stack: { node: AstNode; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const here = depth + (levelOf(node) ? 1 : 0);
    if (here > deepest.depth) deepest = { node, depth: here };
    for (const child of childrenOf(node)) stack.push({ node: child, depth: here });
  }
  return deepest;
}

/**
 * Reports the first node nested past MAX_NESTING in each top-level
 * declaration: ExpressionTooDeep when most of the levels are one expression
 * (most often a long operator chain), else NestingTooDeep.
 */
export function checkNesting(program: Program, diagnostics: DiagnosticBag): void {
  for (const declaration of program.declarations) {
    // `inExpression`: the levels of the expression (or type) being walked, since the last statement.
    const stack: { node: AstNode; depth: number; inExpression: number }[] = [{ node: declaration, depth: 0, inExpression: 0 }];
    while (stack.length > 0) {
      const { node, depth, inExpression } = stack.pop()!;
      const level = levelOf(node);
      const here = depth + (level ? 1 : 0);
      const expressionLevels = level === 'statement' ? 0 : inExpression + (level ? 1 : 0);
      if (here > MAX_NESTING) {
        diagnostics.report(expressionLevels * 2 > here ? 'ExpressionTooDeep' : 'NestingTooDeep', node.span, [MAX_NESTING]);
        break;
      }
      const children = childrenOf(node);
      for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, depth: here, inExpression: expressionLevels });
    }
  }
}
