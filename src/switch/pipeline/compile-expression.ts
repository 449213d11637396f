/**
 * IR expressions into closures. Types are known at compile time, so each
 * closure is specialised for its width and representation (number ≤ 32
 * bits, bigint beyond); nothing inspects IR nodes per packet.
 */
import type { IrExpression, IrType } from '../../p4c/ir/types.js';
import { parseConst, toBigInt, toSigned, wrap, wrapNumber } from './bits.js';
import { compileBinary } from './binary-operators.js';
import { ParserStop, type CompileEnv, type Eval, type LValue } from './compile-env.js';
import { assignHeader, copyValue, HeaderValue, isWide, StackValue, StructValue, widthOf, type Bits, type Value } from './values.js';

export { widthOf };

/** The value of an `int` constant: a number when safe. */
function intConst(text: string): Bits {
  const big = BigInt(text);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

/** Converts between representations and widths (casts, and `int` constants to a width). */
export function convert(v: Value, from: IrType, to: IrType): Value {
  if (to.kind === 'bool') return typeof v === 'boolean' ? v : v !== 0 && v !== 0n;
  if (to.kind === 'bits' || to.kind === 'varbit') {
    const width = widthOf(to);
    if (typeof v === 'boolean') return wrap(v ? 1 : 0, width);
    if (typeof v !== 'number' && typeof v !== 'bigint') return v;
    if (from.kind === 'bits' && from.signed && from.width < width) return wrap(toSigned(v, from.width), width);
    return wrap(v, width);
  }
  return v;
}

export class ExpressionCompiler {
  constructor(private readonly env: CompileEnv) {}

  compile(e: IrExpression): Eval {
    switch (e.op) {
      case 'const': {
        const v = e.type.kind === 'bits' ? parseConst(e.value, e.type.width) : e.type.kind === 'int' ? intConst(e.value) : Number(e.value);
        return () => v;
      }
      case 'bool':
      case 'string': {
        const v = e.value;
        return () => v;
      }
      case 'slot':
      case 'field':
      case 'index':
      case 'stack':
      case 'slice':
      case 'dontcare':
        return this.lvalue(e).get;
      case 'unary':
        return this.unary(e.operator, this.compile(e.operand), e.type);
      case 'binary':
        return this.binary(e.operator, e.left, e.right, e.type);
      case 'cast': {
        const operand = this.compile(e.operand);
        const from = e.operand.type;
        const to = e.type;
        return (ctx) => convert(operand(ctx), from, to);
      }
      case 'cond': {
        const c = this.compile(e.condition);
        const t = this.compile(e.whenTrue);
        const f = this.compile(e.whenFalse);
        return (ctx) => (c(ctx) ? t(ctx) : f(ctx));
      }
      case 'is-valid': {
        const h = this.compile(e.header);
        return (ctx) => {
          const v = h(ctx);
          if (v instanceof HeaderValue) return v.valid;
          if (v instanceof StructValue) return v.fields.some((f) => f instanceof HeaderValue && f.valid);
          return false;
        };
      }
      case 'apply-table': {
        const apply = this.env.compileApply(e.table);
        const wantHit = e.result === 'hit';
        return (ctx) => apply(ctx).hit === wantHit;
      }
      case 'list': {
        const parts = e.elements.map((x) => this.compile(x));
        return (ctx) => parts.map((p) => p(ctx));
      }
      case 'struct': {
        if (e.type.kind !== 'struct' && e.type.kind !== 'header' && e.type.kind !== 'union') {
          const parts = e.fields.map((f) => this.compile(f.value));
          return (ctx) => parts.map((p) => p(ctx));
        }
        const type = e.type;
        const names = type.kind === 'header' ? this.env.values.headerLayout(type.name).fields.map((f) => f.name) : this.env.values.structLayout(type.name).fields.map((f) => f.name);
        const parts = names.map((n) => {
          const f = e.fields.find((x) => x.name === n);
          return f ? this.compile(f.value) : () => undefined;
        });
        if (type.kind === 'header') {
          return (ctx) => {
            const h = new HeaderValue(parts.map((p) => p(ctx) as Bits));
            h.valid = true;
            return h;
          };
        }
        return (ctx) => new StructValue(parts.map((p) => copyValue(p(ctx))));
      }
      case 'call':
        return this.env.compileCall(e.call);
    }
  }

  /** An l-value: a getter and a setter for a location. */
  lvalue(e: IrExpression): LValue {
    switch (e.op) {
      case 'slot': {
        const id = e.slot;
        return { get: (ctx) => ctx.slots[id], set: (ctx, v) => void (ctx.slots[id] = v) };
      }
      case 'field': {
        const base = this.compile(e.base);
        const t = e.base.type;
        let index: number;
        if (t.kind === 'header') index = this.env.values.headerLayout(t.name).fields.findIndex((f) => f.name === e.field);
        else if (t.kind === 'struct' || t.kind === 'union') index = this.env.values.structLayout(t.name).fields.findIndex((f) => f.name === e.field);
        else throw new Error(`IR: field ${e.field} of a ${t.kind}`);
        if (index < 0) throw new Error(`IR: no field ${e.field}`);
        const i = index;
        if (t.kind === 'header') {
          return {
            get: (ctx) => (base(ctx) as HeaderValue).fields[i],
            set: (ctx, v) => void ((base(ctx) as HeaderValue).fields[i] = v as Bits),
          };
        }
        const isUnion = t.kind === 'union';
        return {
          get: (ctx) => (base(ctx) as StructValue).fields[i],
          set: (ctx, v) => {
            const s = base(ctx) as StructValue;
            s.fields[i] = copyValue(v);
            // Making one member of a header union valid invalidates the others.
            if (isUnion && v instanceof HeaderValue && v.valid) {
              s.fields.forEach((f, j) => {
                if (j !== i && f instanceof HeaderValue) f.valid = false;
              });
            }
          },
        };
      }
      case 'index': {
        const base = this.compile(e.base);
        const index = this.compile(e.index);
        const scratch = this.env.values.make(e.type);
        return {
          get: (ctx) => (base(ctx) as StackValue).elements[Number(index(ctx))] ?? scratch,
          set: (ctx, v) => {
            const s = base(ctx) as StackValue;
            const i = Number(index(ctx));
            if (i >= 0 && i < s.elements.length) assignHeader(s.elements[i]!, v as HeaderValue);
          },
        };
      }
      case 'stack': {
        const base = this.compile(e.base);
        const outOfBounds = this.env.errorIndex('StackOutOfBounds');
        switch (e.member) {
          case 'next':
            return {
              get: (ctx) => {
                const s = base(ctx) as StackValue;
                const h = s.elements[s.nextIndex];
                if (!h) throw new ParserStop(outOfBounds);
                return h;
              },
              set: (ctx, v) => {
                const s = base(ctx) as StackValue;
                if (s.nextIndex >= s.elements.length) throw new ParserStop(outOfBounds);
                assignHeader(s.elements[s.nextIndex]!, v as HeaderValue);
              },
            };
          case 'last':
            return {
              get: (ctx) => {
                const s = base(ctx) as StackValue;
                const h = s.elements[s.nextIndex - 1];
                if (!h) throw new ParserStop(outOfBounds);
                return h;
              },
              set: () => undefined,
            };
          case 'lastIndex':
            return { get: (ctx) => wrapNumber((base(ctx) as StackValue).nextIndex - 1, 32), set: () => undefined };
          case 'nextIndex':
            return { get: (ctx) => (base(ctx) as StackValue).nextIndex, set: () => undefined };
          case 'size':
            return { get: (ctx) => (base(ctx) as StackValue).elements.length, set: () => undefined };
        }
        break;
      }
      case 'slice': {
        const base = this.lvalue(e.base);
        const baseWidth = widthOf(e.base.type);
        const width = e.high - e.low + 1;
        const low = e.low;
        if (!isWide(baseWidth)) {
          const mask = width >= 32 ? 0xffffffff : (1 << width) - 1;
          return {
            get: (ctx) => wrapNumber((base.get(ctx) as number) >>> low, width),
            set: (ctx, v) => {
              const old = base.get(ctx) as number;
              const cleared = (old & ~(mask << low)) >>> 0;
              base.set(ctx, wrapNumber(cleared | (((v as number) & mask) << low), baseWidth));
            },
          };
        }
        const bigLow = BigInt(low);
        const bigMask = (1n << BigInt(width)) - 1n;
        return {
          get: (ctx) => wrap(toBigInt(base.get(ctx) as Bits) >> bigLow, width),
          set: (ctx, v) => {
            const old = toBigInt(base.get(ctx) as Bits);
            const next = (old & ~(bigMask << bigLow)) | ((toBigInt(v as Bits) & bigMask) << bigLow);
            base.set(ctx, wrap(next, baseWidth));
          },
        };
      }
      case 'dontcare': {
        const zero = this.env.values.make(e.type);
        return { get: () => zero, set: () => undefined };
      }
      default:
        break;
    }
    const value = this.compile(e);
    return { get: value, set: () => undefined };
  }

  private unary(op: '!' | '~' | '-', operand: Eval, type: IrType): Eval {
    if (op === '!') return (ctx) => !operand(ctx);
    const width = widthOf(type);
    if (op === '~') {
      if (isWide(width)) return (ctx) => BigInt.asUintN(width, ~(operand(ctx) as bigint));
      return (ctx) => wrapNumber(~(operand(ctx) as number), width);
    }
    return (ctx) => wrap(-toBigInt(operand(ctx) as Bits), width);
  }

  private binary(op: string, leftE: IrExpression, rightE: IrExpression, type: IrType): Eval {
    return compileBinary(op, this.compile(leftE), this.compile(rightE), leftE.type, rightE.type, type);
  }
}
