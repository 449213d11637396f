/**
 * Binary operators, specialised at compile time for the operands' width and
 * representation: comparisons (signed for int<W>), wrapping and saturating
 * arithmetic, bitwise operators, shifts and concatenation.
 */
import type { IrType } from '../../p4c/ir/types.js';
import { mulWrap, toBigInt, toSigned, wrap, wrapNumber } from './bits.js';
import type { Eval } from './compile-env.js';
import { HeaderValue, isWide, StackValue, StructValue, widthOf, type Bits, type Value } from './values.js';

function signedOf(type: IrType): boolean {
  return type.kind === 'bits' && type.signed;
}

function deepEqual(a: Value, b: Value): boolean {
  if (a instanceof HeaderValue && b instanceof HeaderValue) {
    if (a.valid !== b.valid) return false;
    return !a.valid || a.fields.every((f, i) => f === b.fields[i]);
  }
  if (a instanceof StructValue && b instanceof StructValue) return a.fields.every((f, i) => deepEqual(f, b.fields[i]));
  if (a instanceof StackValue && b instanceof StackValue) return a.elements.every((e, i) => deepEqual(e, b.elements[i]));
  if (Array.isArray(a) && Array.isArray(b)) return a.every((e, i) => deepEqual(e, b[i]));
  return a === b;
}

export function compileBinary(op: string, l: Eval, r: Eval, leftType: IrType, rightType: IrType, type: IrType): Eval {
  if (op === '&&') return (ctx) => Boolean(l(ctx)) && Boolean(r(ctx));
  if (op === '||') return (ctx) => Boolean(l(ctx)) || Boolean(r(ctx));
  const operandType = leftType.kind === 'int' ? rightType : leftType;
  const ow = widthOf(operandType);
  const os = signedOf(operandType);
  // Bring an `int` constant operand to the other side's representation.
  const lv: Eval = leftType.kind === 'int' && operandType.kind === 'bits' ? (ctx) => wrap(l(ctx) as Bits, ow) : l;
  const rv: Eval = rightType.kind === 'int' && operandType.kind === 'bits' && op !== '<<' && op !== '>>' ? (ctx) => wrap(r(ctx) as Bits, ow) : r;
  switch (op) {
    case '==':
      return (ctx) => deepEqual(lv(ctx), rv(ctx));
    case '!=':
      return (ctx) => !deepEqual(lv(ctx), rv(ctx));
    case '<':
    case '>':
    case '<=':
    case '>=': {
      const cmp = compare(op);
      if (os) return (ctx) => cmp(toSigned(lv(ctx) as Bits, ow), toSigned(rv(ctx) as Bits, ow));
      return (ctx) => cmp(lv(ctx) as Bits, rv(ctx) as Bits);
    }
    default:
      break;
  }
  const width = widthOf(type);
  const signed = signedOf(type);
  switch (op) {
    case '+':
      if (!isWide(width)) return (ctx) => wrapNumber((lv(ctx) as number) + (rv(ctx) as number), width);
      return (ctx) => BigInt.asUintN(width, (lv(ctx) as bigint) + (rv(ctx) as bigint));
    case '-':
      if (!isWide(width)) return (ctx) => wrapNumber((lv(ctx) as number) - (rv(ctx) as number), width);
      return (ctx) => BigInt.asUintN(width, (lv(ctx) as bigint) - (rv(ctx) as bigint));
    case '*':
      return (ctx) => mulWrap(lv(ctx) as Bits, rv(ctx) as Bits, width);
    case '/':
    case '%':
      return (ctx) => {
        const a = signed ? toSigned(lv(ctx) as Bits, width) : toBigInt(lv(ctx) as Bits);
        const b = signed ? toSigned(rv(ctx) as Bits, width) : toBigInt(rv(ctx) as Bits);
        if (b === 0n) return wrap(0, width);
        return wrap(op === '/' ? a / b : a % b, width);
      };
    case '|+|':
    case '|-|': {
      const lo = signed ? -(1n << BigInt(width - 1)) : 0n;
      const hi = signed ? (1n << BigInt(width - 1)) - 1n : (1n << BigInt(width)) - 1n;
      return (ctx) => {
        const a = signed ? toSigned(lv(ctx) as Bits, width) : toBigInt(lv(ctx) as Bits);
        const b = signed ? toSigned(rv(ctx) as Bits, width) : toBigInt(rv(ctx) as Bits);
        let s = op === '|+|' ? a + b : a - b;
        if (s < lo) s = lo;
        if (s > hi) s = hi;
        return wrap(s, width);
      };
    }
    case '&':
      if (!isWide(width)) return (ctx) => ((lv(ctx) as number) & (rv(ctx) as number)) >>> 0;
      return (ctx) => (lv(ctx) as bigint) & (rv(ctx) as bigint);
    case '|':
      if (!isWide(width)) return (ctx) => ((lv(ctx) as number) | (rv(ctx) as number)) >>> 0;
      return (ctx) => (lv(ctx) as bigint) | (rv(ctx) as bigint);
    case '^':
      if (!isWide(width)) return (ctx) => ((lv(ctx) as number) ^ (rv(ctx) as number)) >>> 0;
      return (ctx) => (lv(ctx) as bigint) ^ (rv(ctx) as bigint);
    case '<<':
      return (ctx) => {
        const n = Number(rv(ctx));
        if (n >= width) return wrap(0, width);
        if (!isWide(width)) return wrapNumber(n >= 32 ? 0 : (lv(ctx) as number) << n, width);
        return BigInt.asUintN(width, (lv(ctx) as bigint) << BigInt(n));
      };
    case '>>':
      return (ctx) => {
        const n = Math.min(Number(rv(ctx)), width);
        if (signed) return wrap(toSigned(lv(ctx) as Bits, width) >> BigInt(n), width);
        if (n >= width) return wrap(0, width);
        if (!isWide(width)) return (lv(ctx) as number) >>> n;
        return (lv(ctx) as bigint) >> BigInt(n);
      };
    case '++': {
      const rw = widthOf(rightType);
      if (!isWide(width)) return (ctx) => (lv(ctx) as number) * 2 ** rw + (rv(ctx) as number);
      return (ctx) => wrap((toBigInt(lv(ctx) as Bits) << BigInt(rw)) | toBigInt(rv(ctx) as Bits), width);
    }
    default:
      throw new Error(`IR: unknown operator ${op}`);
  }
}

function compare(op: '<' | '>' | '<=' | '>='): (a: Bits, b: Bits) => boolean {
  switch (op) {
    case '<':
      return (a, b) => a < b;
    case '>':
      return (a, b) => a > b;
    case '<=':
      return (a, b) => a <= b;
    case '>=':
      return (a, b) => a >= b;
  }
}
