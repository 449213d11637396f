/**
 * @fileoverview The control-plane name of a table key element without an
 * `@name`, as p4c's TableKeyNames gives it (frontends/p4/tableKeyNames.cpp):
 *
 * - a name: as written (`meta.x`: `meta`), `.x` for a global path;
 * - a field: `lhs.field`, or the field's own `@name` (a `.global` one drops
 *   the left-hand side); `h.isValid()` on a header or header union is
 *   `h.$valid$`, as P4Runtime expects;
 * - `a[i]`, `a[hi:lo]`, `a & b`, and integer literals in the base they were
 *   written in (`0xff`, `0b101`, `0o17`, `10`; no width);
 * - anything else (casts, arithmetic, other method calls) has no name: p4c
 *   refuses it ("Complex key expression requires a @name annotation").
 */
import { findAnnotation, annotationBodyText } from '../ast/annotations.js';
import type { Expression } from '../ast/expressions.js';
import type { AstNode } from '../ast/walk.js';
import type { ConstEvaluator } from '../semantics/const-eval.js';
import type { P4Type } from '../semantics/p4-types.js';

function integerText(value: bigint, base: 2 | 8 | 10 | 16): string {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  const prefix = base === 2 ? '0b' : base === 8 ? '0o' : base === 16 ? '0x' : '';
  return `${sign}${prefix}${magnitude.toString(base)}`;
}

/** The name p4c gives the key expression, or undefined when it needs an `@name`. */
export function keyName(expr: Expression, types: ReadonlyMap<AstNode, P4Type>, constants: ConstEvaluator): string | undefined {
  const name = (e: Expression): string | undefined => {
    switch (e.kind) {
      case 'PathExpression':
        return `${e.path.absolute ? '.' : ''}${e.path.name.text}`;
      case 'IntegerLiteral':
        return integerText(e.value, e.base);
      case 'MemberExpression': {
        const field = memberName(e.target, e.member.text, types);
        if (field.startsWith('.')) return field.slice(1);
        const left = name(e.target);
        return left === undefined ? undefined : `${left}.${field}`;
      }
      case 'IndexExpression': {
        const left = name(e.target);
        const index = name(e.index) ?? constantText(e.index, constants);
        return left === undefined || index === undefined ? undefined : `${left}[${index}]`;
      }
      case 'SliceExpression': {
        const left = name(e.target);
        const high = e.high.kind === 'IntegerLiteral' ? name(e.high) : constantText(e.high, constants);
        const low = e.low.kind === 'IntegerLiteral' ? name(e.low) : constantText(e.low, constants);
        return left === undefined || high === undefined || low === undefined ? undefined : `${left}[${high}:${low}]`;
      }
      case 'BinaryExpression': {
        if (e.operator !== '&') return undefined;
        const left = name(e.left);
        const right = name(e.right);
        return left === undefined || right === undefined ? undefined : `${left} & ${right}`;
      }
      case 'CallExpression': {
        // p4c's heuristic: a call without arguments of something named `…$valid$`.
        const callee = name(e.callee);
        return callee !== undefined && callee.endsWith('$valid$') && e.args.length === 0 ? callee : undefined;
      }
      default:
        return undefined;
    }
  };
  return name(expr);
}

/** The right-hand side of `target.member`: `$valid$` for isValid on a header, a field's `@name`, else the member. */
function memberName(target: Expression, member: string, types: ReadonlyMap<AstNode, P4Type>): string {
  const type = types.get(target);
  if (!type) return member;
  if ((type.kind === 'header' || type.kind === 'union') && member === 'isValid') return '$valid$';
  if ((type.kind === 'struct' || type.kind === 'header' || type.kind === 'union') && type.decl) {
    const field = type.decl.fields.find((f) => f.name.text === member);
    const annotation = field ? findAnnotation(field.annotations, 'name') : undefined;
    if (annotation) {
      const text = annotationBodyText(annotation).trim();
      return text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
    }
  }
  return member;
}

function constantText(e: Expression, constants: ConstEvaluator): string | undefined {
  const v = constants.integer(e);
  return v === undefined ? undefined : v.toString();
}
