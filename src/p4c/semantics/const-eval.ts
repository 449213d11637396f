/**
 * @fileoverview Compile-time evaluation of integer and boolean expressions:
 * literals, constants (followed through their declarations), operators,
 * casts and `?:`. Results are memoised in the CONSTANTS side table.
 * Returns undefined for anything that is not a compile-time constant; the
 * caller decides whether that is an error. Integers are limited to
 * MAX_CONSTANT_BITS, so that squaring a constant again and again cannot
 * take minutes and then fail ("Maximum BigInt size exceeded"); failures are
 * remembered, so that a chain of constants each using the last twice is not
 * evaluated an exponential number of times.
 */
import type { Expression } from '../ast/expressions.js';
import type { AstNode } from '../ast/walk.js';
import type { Entity } from './scope.js';

export type ConstValue = bigint | boolean;

/** Bits a compile-time integer may take: far above any width (2048), and arithmetic on it stays cheap. */
export const MAX_CONSTANT_BITS = 1 << 16;

function bitLength(v: bigint): number {
  return (v < 0n ? -v : v).toString(16).length * 4;
}

export class ConstEvaluator {
  private readonly inProgress = new Set<AstNode>();
  /** Expressions that evaluated to nothing, until types are known (they may evaluate then). */
  private failed = new Set<Expression>();
  /** Expressions whose value is, or needs, an integer past MAX_CONSTANT_BITS. */
  private readonly tooLarge = new Set<Expression>();
  private tooLargeSeen = 0;
  /** Called once for each expression whose own result would pass MAX_CONSTANT_BITS. */
  onTooLarge: (expression: Expression) => void = () => undefined;
  /** Once expressions are typed: wraps each folded operation to its fixed width, as bit<W> arithmetic does. */
  private widthOf: (e: Expression) => { width: number; signed: boolean } | null = () => null;

  /** Once expressions are typed: the value of `x.minSizeInBits()` and the other size methods. */
  private sizeOf: (call: Extract<Expression, { kind: 'CallExpression' }>) => bigint | undefined = () => undefined;

  useTypes(
    widthOf: (e: Expression) => { width: number; signed: boolean } | null,
    sizeOf?: (call: Extract<Expression, { kind: 'CallExpression' }>) => bigint | undefined,
  ): void {
    this.widthOf = widthOf;
    if (sizeOf) this.sizeOf = sizeOf;
    this.failed = new Set();
  }

  /** Whether `expression` has no value because some integer in it would pass MAX_CONSTANT_BITS (reported already). */
  isTooLarge(expression: Expression): boolean {
    return this.tooLarge.has(expression);
  }

  constructor(
    private readonly refs: ReadonlyMap<AstNode, Entity>,
    private readonly values: Map<AstNode, ConstValue>,
    /** Width and signedness of a cast's target, when it is bit<W>/int<W>/bool; supplied by the type resolver. */
    private readonly castTarget: (expression: Extract<Expression, { kind: 'CastExpression' }>) => { width: number; signed: boolean } | 'bool' | null,
  ) {}

  evaluate(expression: Expression): ConstValue | undefined {
    const memo = this.values.get(expression);
    if (memo !== undefined) return memo;
    if (this.failed.has(expression)) {
      if (this.tooLarge.has(expression)) this.tooLargeSeen++;
      return undefined;
    }
    if (this.inProgress.has(expression)) return undefined;
    this.inProgress.add(expression);
    const tooLargeBefore = this.tooLargeSeen;
    try {
      let value = this.compute(expression);
      const width = typeof value === 'bigint' && expression.kind !== 'PathExpression' ? this.widthOf(expression) : null;
      if (width && typeof value === 'bigint') value = width.signed ? BigInt.asIntN(width.width, value) : BigInt.asUintN(width.width, value);
      if (typeof value === 'bigint' && bitLength(value) > MAX_CONSTANT_BITS) {
        value = undefined;
        this.tooLargeSeen++;
        this.onTooLarge(expression);
      }
      if (value !== undefined) {
        this.values.set(expression, value);
      } else {
        this.failed.add(expression);
        if (this.tooLargeSeen > tooLargeBefore) this.tooLarge.add(expression);
      }
      return value;
    } finally {
      this.inProgress.delete(expression);
    }
  }

  integer(expression: Expression): bigint | undefined {
    const value = this.evaluate(expression);
    return typeof value === 'bigint' ? value : undefined;
  }

  private compute(e: Expression): ConstValue | undefined {
    switch (e.kind) {
      case 'IntegerLiteral':
        return e.value;
      case 'BooleanLiteral':
        return e.value;
      case 'PathExpression': {
        const entity = this.refs.get(e);
        if (entity?.kind !== 'ConstantDeclaration') return undefined;
        const known = this.values.get(entity);
        if (known !== undefined) return known;
        if (this.inProgress.has(entity)) return undefined;
        this.inProgress.add(entity);
        try {
          const value = this.evaluate(entity.value);
          if (value !== undefined) this.values.set(entity, value);
          return value;
        } finally {
          this.inProgress.delete(entity);
        }
      }
      case 'UnaryExpression': {
        const v = this.evaluate(e.operand);
        if (v === undefined) return undefined;
        if (e.operator === '!') return typeof v === 'boolean' ? !v : undefined;
        if (typeof v !== 'bigint') return undefined;
        if (e.operator === '-') return -v;
        if (e.operator === '+') return v;
        return undefined; // `~` needs a width: left to the type checker's typed folding.
      }
      case 'BinaryExpression':
        return this.binary(e.operator, this.evaluate(e.left), this.evaluate(e.right));
      case 'ConditionalExpression': {
        const c = this.evaluate(e.condition);
        if (typeof c !== 'boolean') return undefined;
        return this.evaluate(c ? e.whenTrue : e.whenFalse);
      }
      case 'CastExpression': {
        const v = this.evaluate(e.operand);
        const target = this.castTarget(e);
        if (v === undefined || target === null) return undefined;
        if (target === 'bool') return typeof v === 'boolean' ? v : v !== 0n;
        const n = typeof v === 'boolean' ? (v ? 1n : 0n) : v;
        return target.signed ? BigInt.asIntN(target.width, n) : BigInt.asUintN(target.width, n);
      }
      case 'CallExpression':
        // core.p4's `static_assert(check[, message])` is evaluated at compile time: its value is the check's.
        if (isStaticAssert(e, this.refs) && e.kind === 'CallExpression') {
          const check = e.args[0] ? this.evaluate(e.args[0].value) : undefined;
          return typeof check === 'boolean' ? check : undefined;
        }
        return this.sizeOf(e);
      default:
        return undefined;
    }
  }

  private binary(op: string, l: ConstValue | undefined, r: ConstValue | undefined): ConstValue | undefined {
    if (l === undefined || r === undefined) return undefined;
    if (typeof l === 'boolean' || typeof r === 'boolean') {
      if (typeof l !== 'boolean' || typeof r !== 'boolean') return undefined;
      if (op === '&&') return l && r;
      if (op === '||') return l || r;
      if (op === '==') return l === r;
      if (op === '!=') return l !== r;
      return undefined;
    }
    switch (op) {
      case '+': return l + r;
      case '-': return l - r;
      case '*': return l * r;
      case '/': return r === 0n ? undefined : l / r;
      case '%': return r === 0n ? undefined : l % r;
      case '<<': return r < 0n || r > 4096n ? undefined : l << r;
      case '>>': return r < 0n ? undefined : l >> r;
      case '&': return l & r;
      case '|': return l | r;
      case '^': return l ^ r;
      case '<': return l < r;
      case '>': return l > r;
      case '<=': return l <= r;
      case '>=': return l >= r;
      case '==': return l === r;
      case '!=': return l !== r;
      default: return undefined;
    }
  }
}

/** Whether `e` calls core.p4's `static_assert`. */
export function isStaticAssert(e: Expression, refs: ReadonlyMap<AstNode, Entity>): boolean {
  if (e.kind !== 'CallExpression' || e.callee.kind !== 'PathExpression') return false;
  const entity = refs.get(e.callee);
  return entity?.kind === 'ExternFunctionDeclaration' && entity.name.text === 'static_assert';
}
