/**
 * @fileoverview Expressions, types, arguments and annotations as P4 text,
 * with exactly the parentheses the precedence needs, so that printing and
 * parsing again gives the same tree.
 */
import type { Annotation } from '../ast/annotations.js';
import type { Parameter } from '../ast/declarations.js';
import type { Argument, Expression } from '../ast/expressions.js';
import type { Name, PathName } from '../ast/node.js';
import { BINARY_PRECEDENCE, Precedence } from '../ast/operators.js';
import type { TypeRef } from '../ast/types.js';
import { formatIntegerLiteral } from '../lexer/integer-literal.js';

/** The precedence an expression has when printed bare (Postfix for primaries). */
function precedenceOf(e: Expression): number {
  switch (e.kind) {
    case 'BinaryExpression':
      return BINARY_PRECEDENCE[e.operator];
    case 'ConditionalExpression':
      return Precedence.Conditional;
    case 'UnaryExpression':
    case 'CastExpression':
      return Precedence.Prefix;
    case 'MaskExpression':
    case 'RangeExpression':
      return 0;
    default:
      return Precedence.Postfix;
  }
}

/** `e` printed to stand where at least `context` precedence is required. */
export function printExpression(e: Expression, context = 0): string {
  const text = printBare(e);
  return precedenceOf(e) < context ? `(${text})` : text;
}

function printBare(e: Expression): string {
  switch (e.kind) {
    case 'IntegerLiteral':
      return formatIntegerLiteral(e);
    case 'BooleanLiteral':
      return e.value ? 'true' : 'false';
    case 'StringLiteral':
      return `"${e.value}"`;
    case 'PathExpression':
      return printPath(e.path);
    case 'TypeNameExpression':
      return printType(e.type);
    case 'ThisExpression':
      return 'this';
    case 'MemberExpression':
      return `${printExpression(e.target, Precedence.Postfix)}.${e.member.text}`;
    case 'IndexExpression':
      return `${printExpression(e.target, Precedence.Postfix)}[${printExpression(e.index)}]`;
    case 'SliceExpression':
      return `${printExpression(e.target, Precedence.Postfix)}[${printExpression(e.high)}:${printExpression(e.low)}]`;
    case 'UnaryExpression': {
      // `- -x` must not become `--x`, nor `+ +x` the `++` operator.
      const operand = e.operand.kind === 'UnaryExpression' ? `(${printBare(e.operand)})` : printExpression(e.operand, Precedence.Prefix);
      return `${e.operator}${operand}`;
    }
    case 'BinaryExpression': {
      const p = BINARY_PRECEDENCE[e.operator];
      return `${printExpression(e.left, p)} ${e.operator} ${printExpression(e.right, p + 1)}`;
    }
    case 'ConditionalExpression': {
      // Nested conditionals always get parentheses: p4c groups them unlike C.
      const part = (x: Expression, context: number): string =>
        x.kind === 'ConditionalExpression' ? `(${printBare(x)})` : printExpression(x, context);
      return `${part(e.condition, Precedence.LogicalOr)} ? ${part(e.whenTrue, 0)} : ${part(e.whenFalse, Precedence.LogicalOr)}`;
    }
    case 'CastExpression':
      return `(${printType(e.type)})${printExpression(e.operand, Precedence.Prefix)}`;
    case 'CallExpression': {
      const typeArgs = e.typeArgs.length > 0 ? `<${e.typeArgs.map(printType).join(', ')}>` : '';
      return `${printExpression(e.callee, Precedence.Postfix)}${typeArgs}(${printArguments(e.args)})`;
    }
    case 'ConstructorCallExpression':
      return `${printType(e.type)}(${printArguments(e.args)})`;
    case 'ListExpression':
      return e.elements.length === 0 ? '{ }' : `{ ${e.elements.map((x) => printExpression(x)).join(', ')} }`;
    case 'StructExpression':
      return e.fields.length === 0 ? '{ }' : `{ ${e.fields.map((f) => `${f.name.text} = ${printExpression(f.value)}`).join(', ')} }`;
    case 'MaskExpression':
      return `${printExpression(e.value, Precedence.Conditional)} &&& ${printExpression(e.mask, Precedence.Conditional)}`;
    case 'RangeExpression':
      return `${printExpression(e.low, Precedence.Conditional)} .. ${printExpression(e.high, Precedence.Conditional)}`;
    case 'DefaultExpression':
      return 'default';
    case 'DontCareExpression':
      return '_';
  }
}

export function printPath(path: PathName): string {
  return (path.absolute ? '.' : '') + path.name.text;
}

export function printArguments(args: readonly Argument[]): string {
  return args.map((a) => (a.name ? `${a.name.text} = ` : '') + printExpression(a.value)).join(', ');
}

/** A keyset of a select case or table entry: a tuple prints as `(a, b)`. */
export function printKeyset(elements: readonly Expression[]): string {
  return elements.length === 1 ? printExpression(elements[0]!) : `(${elements.map((x) => printExpression(x)).join(', ')})`;
}

export function printType(t: TypeRef): string {
  switch (t.kind) {
    case 'BitsType':
      return t.width === null ? 'bit' : `${t.signed ? 'int' : 'bit'}<${printWidth(t.width)}>`;
    case 'VarbitType':
      return `varbit<${printWidth(t.maxWidth)}>`;
    case 'InfIntType':
      return 'int';
    case 'BoolType':
      return 'bool';
    case 'ErrorType':
      return 'error';
    case 'StringType':
      return 'string';
    case 'MatchKindType':
      return 'match_kind';
    case 'VoidType':
      return 'void';
    case 'DontCareType':
      return '_';
    case 'NamedType':
      return printPath(t.path);
    case 'SpecializedType':
      return `${printPath(t.base.path)}<${t.args.map(printType).join(', ')}>`;
    case 'StackType':
      return `${printType(t.element)}[${printExpression(t.size)}]`;
    case 'TupleType':
      return `tuple<${t.elements.map(printType).join(', ')}>`;
  }
}

function printWidth(width: Expression): string {
  return width.kind === 'IntegerLiteral' ? formatIntegerLiteral(width) : `(${printExpression(width)})`;
}

/** Annotations followed by a space, or nothing. */
export function printAnnotations(annotations: readonly Annotation[]): string {
  return annotations.map((a) => printAnnotation(a) + ' ').join('');
}

export function printAnnotation(a: Annotation): string {
  switch (a.body.kind) {
    case 'Empty':
      return `@${a.name.text}`;
    case 'Unparsed':
      return `@${a.name.text}(${a.body.tokens.map((t, i) => (i > 0 && t.spaceBefore ? ' ' : '') + t.text).join('')})`;
    case 'ExpressionList':
      return `@${a.name.text}[${a.body.expressions.map((x) => printExpression(x)).join(', ')}]`;
    case 'KeyValueList':
      return `@${a.name.text}[${a.body.pairs.map((p) => `${p.name.text} = ${printExpression(p.value)}`).join(', ')}]`;
  }
}

export function printParameters(params: readonly Parameter[]): string {
  return params
    .map((p) => {
      const direction = p.direction ? `${p.direction} ` : '';
      const value = p.defaultValue ? ` = ${printExpression(p.defaultValue)}` : '';
      return `${printAnnotations(p.annotations)}${direction}${printType(p.type)} ${p.name.text}${value}`;
    })
    .join(', ');
}

export function printTypeParameters(names: readonly Name[]): string {
  return names.length === 0 ? '' : `<${names.map((n) => n.text).join(', ')}>`;
}
