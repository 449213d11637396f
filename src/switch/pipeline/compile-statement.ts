/**
 * IR statements into closures returning a Flow (next, return, exit), so
 * `exit` and `return` need no exceptions on the hot path.
 */
import type { IrArgument, IrExpression, IrStatement } from '../../p4c/ir/types.js';
import type { CompileEnv, Eval, Exec, LValue } from './compile-env.js';
import { convert, ExpressionCompiler } from './compile-expression.js';
import { FLOW_EXIT, FLOW_NEXT, FLOW_RETURN, type Flow, type PacketContext } from './packet-context.js';
import { copyValue, type Value } from './values.js';

/** Runs a list of compiled statements, stopping at the first return/exit. */
export function sequence(steps: readonly Exec[]): Exec {
  if (steps.length === 0) return () => FLOW_NEXT;
  if (steps.length === 1) return steps[0]!;
  return (ctx) => {
    for (let i = 0; i < steps.length; i++) {
      const flow = steps[i]!(ctx);
      if (flow !== FLOW_NEXT) return flow;
    }
    return FLOW_NEXT;
  };
}

/** Copy-in/copy-out of arguments into parameter slots. */
export interface Binding {
  readonly copyIn: (ctx: PacketContext) => void;
  readonly copyOut: (ctx: PacketContext) => void;
}

export function bindArguments(exprs: ExpressionCompiler, params: readonly { readonly slot: number; readonly direction: string }[], args: readonly IrArgument[]): Binding {
  const ins: { slot: number; value: Eval }[] = [];
  const outs: { slot: number; target: LValue }[] = [];
  params.forEach((p, i) => {
    const a = args[i];
    if (!a || p.slot < 0) return;
    if (p.direction === 'out') {
      outs.push({ slot: p.slot, target: exprs.lvalue(a.value) });
      return;
    }
    const value = exprs.compile(a.value);
    ins.push({ slot: p.slot, value });
    if (p.direction === 'inout') outs.push({ slot: p.slot, target: exprs.lvalue(a.value) });
  });
  return {
    copyIn: (ctx) => {
      for (const i of ins) ctx.slots[i.slot] = copyValue(i.value(ctx));
    },
    copyOut: (ctx) => {
      for (const o of outs) o.target.set(ctx, copyValue(ctx.slots[o.slot]));
    },
  };
}

export class StatementCompiler {
  readonly exprs: ExpressionCompiler;

  constructor(private readonly env: CompileEnv) {
    this.exprs = new ExpressionCompiler(env);
  }

  compileAll(body: readonly IrStatement[]): Exec {
    return sequence(body.map((s) => this.compile(s)));
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
        const binding = bindArguments(this.exprs, block.params, s.args);
        return (ctx) => {
          binding.copyIn(ctx);
          const flow = run(ctx);
          binding.copyOut(ctx);
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
