/**
 * IR expressions as JavaScript source, for the statement generator
 * (generate-statements.ts). What has a direct JS form is written inline:
 * slots and fields as property paths, constants as literals, arithmetic,
 * bitwise operators, comparisons and casts on bit strings of ≤ 32 bits
 * (numbers) with their wrapping masks, validity. Everything else (bigint
 * arithmetic, signed comparisons, calls, table applications, …) becomes a
 * call of the closure the ExpressionCompiler makes for it, kept in the
 * generated function's capture array, so the semantics stay those of
 * compile-expression.ts and binary-operators.ts.
 */
import type { IrExpression, IrType } from '../../p4c/ir/types.js';
import { parseConst } from './bits.js';
import type { CompileEnv } from './compile-env.js';
import { convert, type ExpressionCompiler } from './compile-expression.js';
import type { PacketContext } from './packet-context.js';
import { isWide, widthOf, type Value } from './values.js';

/** Values the generated source refers to as `$[k]` (closures, constants, helpers). */
export class Captures {
  readonly list: unknown[] = [];
  add(v: unknown): string {
    this.list.push(v);
    return `$[${this.list.length - 1}]`;
  }
}

/** A number literal (unsigned, < 2^32) for a W ≤ 32-bit mask. */
const maskOf = (width: number): number => (width >= 32 ? 0xffffffff : (1 << width) - 1) >>> 0;

/** JS for wrapping a number expression to `width` ≤ 32 bits. */
function wrapSource(code: string, width: number): string {
  return width >= 32 ? `((${code}) >>> 0)` : `((${code}) & ${maskOf(width)})`;
}

function isNarrowBits(type: IrType): boolean {
  return type.kind === 'bits' && !isWide(type.width) && type.width > 0;
}

function literal(v: Value, captures: Captures): string {
  if (typeof v === 'number') return v < 0 ? `(${v})` : Object.is(v, -0) ? '0' : String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return captures.add(v);
}

export class ExpressionGenerator {
  constructor(
    private readonly env: CompileEnv,
    private readonly exprs: ExpressionCompiler,
    readonly captures: Captures,
  ) {}

  /** A call of the closure compile-expression.ts makes for `e`. */
  fallback(e: IrExpression): string {
    return `${this.captures.add(this.exprs.compile(e))}(ctx)`;
  }

  /** The constant value of `e` when it is a literal, converted to `to` (undefined otherwise). */
  constant(e: IrExpression, to: IrType = e.type): Value | undefined {
    let v: Value;
    if (e.op === 'const') v = e.type.kind === 'bits' ? parseConst(e.value, e.type.width) : e.type.kind === 'int' ? intValue(e.value) : Number(e.value);
    else if (e.op === 'bool') v = e.value;
    else return undefined;
    return convert(v, e.type, to);
  }

  /** The index of field `name` in the header/struct/union type `t` (−1 if none). */
  fieldIndex(t: IrType, name: string): number {
    if (t.kind === 'header') return this.env.values.headerLayout(t.name).fields.findIndex((f) => f.name === name);
    if (t.kind === 'struct' || t.kind === 'union') return this.env.values.structLayout(t.name).fields.findIndex((f) => f.name === name);
    return -1;
  }

  /** A location as a JS reference that can be read and assigned (undefined when it needs the closure's set). */
  place(e: IrExpression): string | undefined {
    if (e.op === 'slot') return `ctx.slots[${e.slot}]`;
    if (e.op === 'field') {
      const t = e.base.type;
      if (t.kind !== 'header' && t.kind !== 'struct') return undefined;
      const i = this.fieldIndex(t, e.field);
      if (i < 0) return undefined;
      return this.packedField(e.base, i) ?? `${this.expr(e.base)}.fields[${i}]`;
    }
    if (e.op === 'index' && e.base.type.kind === 'stack') {
      const k = this.constant(e.index);
      if (typeof k !== 'number' || k < 0 || k >= e.base.type.size) return undefined;
      return `${this.expr(e.base)}.elements[${k}]`;
    }
    return undefined;
  }

  /**
   * A packed stack's element at a constant index (values.ts): the stack's
   * source and where the element's fields start in its data.
   */
  packedElement(header: IrExpression): { readonly stack: string; readonly first: number } | undefined {
    if (header.op !== 'index' || header.base.type.kind !== 'stack' || header.type.kind !== 'header') return undefined;
    const stack = header.base.type;
    if (!this.env.values.packs(stack.element)) return undefined;
    const k = this.constant(header.index);
    if (typeof k !== 'number' || k < 0 || k >= stack.size) return undefined;
    return { stack: this.expr(header.base), first: k * this.env.values.headerLayout(stack.element).fields.length };
  }

  /** Field `i` of a packed stack's element at a constant index, as an index into the stack's data. */
  private packedField(header: IrExpression, i: number): string | undefined {
    const packed = this.packedElement(header);
    return packed && `${packed.stack}.data[${packed.first + i}]`;
  }

  expr(e: IrExpression): string {
    const k = this.constant(e);
    if (k !== undefined) return literal(k, this.captures);
    switch (e.op) {
      case 'slot':
      case 'field':
      case 'index': {
        // Union fields read like struct fields.
        if (e.op === 'field' && e.base.type.kind === 'union') {
          const i = this.fieldIndex(e.base.type, e.field);
          if (i >= 0) return `${this.expr(e.base)}.fields[${i}]`;
        }
        return this.place(e) ?? this.fallback(e);
      }
      case 'slice': {
        const bw = widthOf(e.base.type);
        if (isWide(bw)) return this.fallback(e);
        return wrapSource(`${this.expr(e.base)} >>> ${e.low}`, e.high - e.low + 1);
      }
      case 'unary': {
        if (e.operator === '!') return `(!${this.expr(e.operand)})`;
        if (e.operator === '~' && isNarrowBits(e.type)) return wrapSource(`~${this.expr(e.operand)}`, widthOf(e.type));
        return this.fallback(e);
      }
      case 'cast':
        return this.cast(e.operand, e.type) ?? this.fallback(e);
      case 'cond':
        return `(${this.expr(e.condition)} ? ${this.expr(e.whenTrue)} : ${this.expr(e.whenFalse)})`;
      case 'is-valid':
        return e.header.type.kind === 'header' ? `${this.expr(e.header)}.valid` : this.fallback(e);
      case 'binary':
        return this.binary(e) ?? this.fallback(e);
      default:
        return this.fallback(e);
    }
  }

  private cast(operand: IrExpression, to: IrType): string | undefined {
    const from = operand.type;
    if (to.kind === 'bool') {
      if (from.kind === 'bool') return this.expr(operand);
      if (isNarrowBits(from)) return `(${this.expr(operand)} !== 0)`;
      return undefined;
    }
    if (!isNarrowBits(to)) return undefined;
    const width = widthOf(to);
    if (from.kind === 'bool') return `(${this.expr(operand)} ? 1 : 0)`;
    if (!isNarrowBits(from) || from.kind !== 'bits') return undefined;
    if (from.signed && from.width < width) return undefined; // sign extension: the closure does it
    return from.width <= width ? this.expr(operand) : wrapSource(this.expr(operand), width);
  }

  /** An operand of a binary operator on numbers: an `int` constant converted to the other side's type. */
  private operand(e: IrExpression, as: IrType): string | undefined {
    if (e.type.kind === 'int') {
      const k = this.constant(e, as);
      return typeof k === 'number' ? literal(k, this.captures) : undefined;
    }
    return this.expr(e);
  }

  private binary(e: Extract<IrExpression, { op: 'binary' }>): string | undefined {
    const op = e.operator;
    if (op === '&&') return `(!!${this.expr(e.left)} && !!${this.expr(e.right)})`;
    if (op === '||') return `(!!${this.expr(e.left)} || !!${this.expr(e.right)})`;
    const operandType = e.left.type.kind === 'int' ? e.right.type : e.left.type;
    const scalar = operandType.kind === 'bool' || operandType.kind === 'error' || operandType.kind === 'enum' || isNarrowBits(operandType);
    if (op === '==' || op === '!=') {
      if (!scalar) return undefined;
      const [l, r] = [this.operand(e.left, operandType), this.operand(e.right, operandType)];
      if (l === undefined || r === undefined) return undefined;
      return `(${l} ${op === '==' ? '===' : '!=='} ${r})`;
    }
    if (!isNarrowBits(operandType) || (operandType.kind === 'bits' && operandType.signed)) return undefined;
    if (op === '<' || op === '>' || op === '<=' || op === '>=') {
      const [l, r] = [this.operand(e.left, operandType), this.operand(e.right, operandType)];
      return l === undefined || r === undefined ? undefined : `(${l} ${op} ${r})`;
    }
    if (!isNarrowBits(e.type)) return undefined;
    const width = widthOf(e.type);
    if (op === '<<' || op === '>>') {
      const n = this.constant(e.right);
      if (typeof n !== 'number') return undefined;
      if (n >= width) return '0';
      const l = this.expr(e.left);
      return op === '<<' ? wrapSource(`${l} << ${n}`, width) : `(${l} >>> ${n})`;
    }
    if (op === '++') {
      const rw = widthOf(e.right.type);
      if (!isNarrowBits(e.left.type) || !isNarrowBits(e.right.type)) return undefined;
      return `(${this.expr(e.left)} * ${2 ** rw} + ${this.expr(e.right)})`;
    }
    const [l, r] = [this.operand(e.left, operandType), this.operand(e.right, operandType)];
    if (l === undefined || r === undefined) return undefined;
    switch (op) {
      case '+':
      case '-':
        return wrapSource(`${l} ${op} ${r}`, width);
      case '*':
        return wrapSource(`Math.imul(${l}, ${r})`, width);
      case '&':
      case '|':
      case '^':
        return `((${l} ${op} ${r}) >>> 0)`;
      default:
        return undefined;
    }
  }
}

function intValue(text: string): Value {
  const big = BigInt(text);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

/** Writes the values of `list` into `out[0..]` (one generated function: table keys, field lists). */
export type Evaluator = (ctx: PacketContext, out: Value[]) => void;

export function generateEvaluator(env: CompileEnv, exprs: ExpressionCompiler, list: readonly IrExpression[]): Evaluator {
  const captures = new Captures();
  const gen = new ExpressionGenerator(env, exprs, captures);
  const body = list.map((e, i) => `out[${i}] = ${gen.expr(e)};`).join('\n');
  // The source is built from the IR only: numbers, property paths and `$[k]` captures, no program text
  const make = new Function('$', `return function evaluate(ctx, out) {\n${body}\n};`) as ($: readonly unknown[]) => Evaluator;
  return make(captures.list);
}
