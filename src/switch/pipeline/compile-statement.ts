/**
 * IR statements into closures returning a Flow (next, return, exit), so
 * `exit` and `return` need no exceptions on the hot path.
 */
import type { IrArgument, IrExpression, IrStatement, IrType } from '../../p4c/ir/types.js';
import type { CompileEnv, Eval, Exec, LValue } from './compile-env.js';
import { convert, ExpressionCompiler } from './compile-expression.js';
import { StatementGenerator } from './generate-statements.js';
import { FLOW_EXIT, FLOW_NEXT, FLOW_RETURN, type Flow, type PacketContext } from './packet-context.js';
import { copyValue, type Value } from './values.js';

/** Copy-in/copy-out of arguments into parameter slots. */
export interface Binding {
  readonly copyIn: (ctx: PacketContext) => void;
  readonly copyOut: (ctx: PacketContext) => void;
}

/** The location an argument names, as a path of slot and field names; undefined when it is not a plain location. */
function pathOf(e: IrExpression): string[] | undefined {
  if (e.op === 'slot') return [`#${e.slot}`];
  if (e.op === 'field') {
    const base = pathOf(e.base);
    return base ? [...base, e.field] : undefined;
  }
  return undefined;
}

const isPrefix = (a: readonly string[], b: readonly string[]): boolean => a.length <= b.length && a.every((x, i) => x === b[i]);

/** Whether a value of this type is an object (copied on assignment) rather than an immutable scalar. */
function isCompound(type: IrType): boolean {
  return type.kind === 'header' || type.kind === 'struct' || type.kind === 'union' || type.kind === 'stack' || type.kind === 'tuple';
}

/**
 * Copy-in/copy-out of arguments into parameter slots.
 *
 * With `byReference` (control applications), an `in`/`inout` argument of a
 * header, struct or stack type that names a plain location disjoint from
 * every other argument is passed as the object itself: the callee can reach
 * that location only through this parameter, so working on it in place is
 * what copy-in/copy-out would leave behind, without copying a tree (the
 * whole `hdr` with its stacks) twice per application. If the callee assigns
 * the parameter as a whole, the new object is copied out as before.
 */
export function bindArguments(
  exprs: ExpressionCompiler,
  params: readonly { readonly slot: number; readonly direction: string }[],
  args: readonly IrArgument[],
  byReference = false,
): Binding {
  const ins: { slot: number; value: Eval; copy: boolean }[] = [];
  const outs: { slot: number; target: LValue; copy: boolean }[] = [];
  const refs: { slot: number; value: Eval; target: LValue | undefined }[] = [];
  const paths = args.map((a) => (a ? pathOf(a.value) : undefined));
  const disjoint = (i: number): boolean => {
    const mine = paths[i];
    if (!mine) return false;
    return paths.every((other, j) => j === i || !other || (!isPrefix(mine, other) && !isPrefix(other, mine)));
  };
  params.forEach((p, i) => {
    const a = args[i];
    if (!a || p.slot < 0) return;
    const compound = isCompound(a.value.type);
    if (byReference && compound && (p.direction === 'in' || p.direction === 'inout') && disjoint(i)) {
      refs.push({ slot: p.slot, value: exprs.compile(a.value), target: p.direction === 'inout' ? exprs.lvalue(a.value) : undefined });
      return;
    }
    if (p.direction === 'out') {
      outs.push({ slot: p.slot, target: exprs.lvalue(a.value), copy: compound });
      return;
    }
    const value = exprs.compile(a.value);
    ins.push({ slot: p.slot, value, copy: compound || a.value.type.kind === 'tuple' });
    if (p.direction === 'inout') outs.push({ slot: p.slot, target: exprs.lvalue(a.value), copy: compound });
  });
  // The objects passed by reference, per slot, to notice a callee that replaced one.
  const passed: Value[] = new Array<Value>(refs.length);
  // The parameter slots' own objects, put back after the call: a slot left aliasing the
  // caller's object would be overwritten when a pooled context is copied slot by slot.
  const own: Value[] = new Array<Value>(refs.length);
  return {
    copyIn: (ctx) => {
      for (let k = 0; k < refs.length; k++) {
        const r = refs[k]!;
        own[k] = ctx.slots[r.slot]!;
        ctx.slots[r.slot] = passed[k] = r.value(ctx);
      }
      for (let k = 0; k < ins.length; k++) {
        const x = ins[k]!;
        const v = x.value(ctx);
        ctx.slots[x.slot] = x.copy ? copyValue(v) : v;
      }
    },
    copyOut: (ctx) => {
      for (let k = 0; k < refs.length; k++) {
        const r = refs[k]!;
        const now = ctx.slots[r.slot];
        if (r.target && now !== passed[k]) r.target.set(ctx, copyValue(now));
        ctx.slots[r.slot] = own[k]!;
      }
      for (let k = 0; k < outs.length; k++) {
        const o = outs[k]!;
        const v = ctx.slots[o.slot];
        o.target.set(ctx, o.copy ? copyValue(v) : v);
      }
    },
  };
}

export class StatementCompiler {
  readonly exprs: ExpressionCompiler;
  private readonly generator: StatementGenerator;

  constructor(private readonly env: CompileEnv) {
    this.exprs = new ExpressionCompiler(env);
    this.generator = new StatementGenerator(env, this.exprs, this);
  }

  /** The statements as one generated function (generate-statements.ts). */
  compileAll(body: readonly IrStatement[]): Exec {
    return this.generator.generate(body);
  }

  compile(s: IrStatement): Exec {
    switch (s.kind) {
      case 'assign': {
        const target = this.exprs.lvalue(s.target);
        const value = this.exprs.compile(s.value);
        const from = s.value.type;
        const to = s.target.type;
        if (from.kind === 'int' || (from.kind !== to.kind && (to.kind === 'bits' || to.kind === 'bool'))) {
          return (ctx) => {
            target.set(ctx, convert(value(ctx), from, to));
            return FLOW_NEXT;
          };
        }
        if (to.kind === 'bits' || to.kind === 'bool') {
          // Scalars are immutable numbers/bigints/booleans: nothing to copy.
          return (ctx) => {
            target.set(ctx, value(ctx));
            return FLOW_NEXT;
          };
        }
        return (ctx) => {
          target.set(ctx, copyValue(value(ctx)));
          return FLOW_NEXT;
        };
      }
      case 'if': {
        const c = this.exprs.compile(s.condition);
        const t = this.compileAll(s.then);
        const f = this.compileAll(s.else);
        return (ctx) => (c(ctx) ? t(ctx) : f(ctx));
      }
      case 'block':
        return this.compileAll(s.body);
      case 'call': {
        const call = this.env.compileCall(s.call);
        return (ctx) => {
          call(ctx);
          return FLOW_NEXT;
        };
      }
      case 'apply-table': {
        const apply = this.env.compileApply(s.table);
        return (ctx) => apply(ctx).flow;
      }
      case 'switch-action': {
        const apply = this.env.compileApply(s.table);
        const byAction = new Map<string, Exec>();
        let fallback: Exec = () => FLOW_NEXT;
        for (const c of s.cases) {
          const body = this.compileAll(c.body);
          if (c.isDefault) fallback = body;
          for (const a of c.actions) if (!byAction.has(a)) byAction.set(a, body);
        }
        return (ctx) => {
          const result = apply(ctx);
          if (result.flow === FLOW_EXIT) return FLOW_EXIT;
          return (byAction.get(result.action) ?? fallback)(ctx);
        };
      }
      case 'switch': {
        const subject = this.exprs.compile(s.subject);
        const cases: { values: Value[]; body: Exec }[] = [];
        let fallback: Exec = () => FLOW_NEXT;
        for (const c of s.cases) {
          const body = this.compileAll(c.body);
          if (c.isDefault) fallback = body;
          else cases.push({ values: c.values.map((v) => convert(this.exprs.compile(v)(undefined as unknown as PacketContext), v.type, s.subject.type)), body });
        }
        return (ctx) => {
          const v = subject(ctx);
          for (const c of cases) if (c.values.includes(v)) return c.body(ctx);
          return fallback(ctx);
        };
      }
      case 'call-action':
        return this.callAction(s.action, s.args);
      case 'apply-block': {
        const { block, run } = this.env.block(s.block);
        const binding = bindArguments(this.exprs, block.params, s.args, true);
        return (ctx) => {
          binding.copyIn(ctx);
          let flow: Flow;
          try {
            flow = run(ctx);
          } finally {
            // Also when the block throws: the context may be pooled and reused.
            binding.copyOut(ctx);
          }
          return flow === FLOW_EXIT ? FLOW_EXIT : FLOW_NEXT;
        };
      }
      case 'exit':
        return () => FLOW_EXIT;
      case 'return': {
        if (!s.value) return () => FLOW_RETURN;
        const value = this.exprs.compile(s.value);
        return (ctx) => {
          ctx.returnValue = copyValue(value(ctx));
          return FLOW_RETURN;
        };
      }
    }
  }

  /** A direct call of an action with every argument given in parameter order. */
  private callAction(name: string, args: readonly IrExpression[]): Exec {
    const { action, body } = this.env.action(name);
    const binding = bindArguments(
      this.exprs,
      action.params.map((p) => ({ slot: p.slot, direction: p.controlPlane ? 'in' : p.direction })),
      args.map((value) => ({ direction: 'in' as const, value })),
    );
    return (ctx): Flow => {
      binding.copyIn(ctx);
      const flow = body(ctx);
      binding.copyOut(ctx);
      return flow === FLOW_EXIT ? FLOW_EXIT : FLOW_NEXT;
    };
  }
}
