/**
 * @fileoverview Operator precedence of P4-16 (p4c's grammar), shared by the
 * parser and the printer so that they cannot disagree. Higher binds tighter.
 * Unlike C, the bitwise operators bind tighter than comparisons, `==`/`!=`
 * bind looser than `<`/`>`, and `++` sits with `+`.
 */
import type { BinaryOperator } from './expressions.js';

export const Precedence = {
  Conditional: 1,
  LogicalOr: 2,
  LogicalAnd: 3,
  Equality: 4,
  Relational: 5,
  BitOr: 6,
  BitXor: 7,
  BitAnd: 8,
  Shift: 9,
  Additive: 10,
  Multiplicative: 11,
  Prefix: 12,
  Postfix: 13,
} as const;

export const BINARY_PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
  '||': Precedence.LogicalOr,
  '&&': Precedence.LogicalAnd,
  '==': Precedence.Equality,
  '!=': Precedence.Equality,
  '<': Precedence.Relational,
  '>': Precedence.Relational,
  '<=': Precedence.Relational,
  '>=': Precedence.Relational,
  '|': Precedence.BitOr,
  '^': Precedence.BitXor,
  '&': Precedence.BitAnd,
  '<<': Precedence.Shift,
  '>>': Precedence.Shift,
  '+': Precedence.Additive,
  '-': Precedence.Additive,
  '|+|': Precedence.Additive,
  '|-|': Precedence.Additive,
  '++': Precedence.Additive,
  '*': Precedence.Multiplicative,
  '/': Precedence.Multiplicative,
  '%': Precedence.Multiplicative,
};
