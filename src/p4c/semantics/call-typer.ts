/**
 * @fileoverview Types calls: actions, functions and extern functions
 * (overloads chosen by argument count), extern methods (with the extern's
 * type arguments substituted, e.g. `register<bit<32>>.read(out T, ...)`
 * reads a bit<32>), header validity methods, stack methods, `t.apply()` and
 * `control.apply(...)`. Checks argument counts and that out/inout
 * arguments are l-values; type variables of generic functions match anything.
 */
import type { MethodPrototype, Parameter } from '../ast/declarations.js';
import type { Argument, CallExpression, Expression } from '../ast/expressions.js';
import type { TyperApi } from './typer-api.js';
import { isStaticAssert } from './const-eval.js';
import { assignable, BOOL, INT, SIZE_METHODS, typeName, underlying, UNKNOWN, VOID, type P4Type } from './p4-types.js';

/** Each static_assert is checked once, however often its call is typed. */
const checkedAsserts = new WeakSet<CallExpression>();

export class CallTyper {
  constructor(private readonly typer: TyperApi) {}

  call(e: CallExpression): P4Type {
    const callee = e.callee;
    if (callee.kind === 'MemberExpression') return this.method(e, callee);
    if (callee.kind === 'PathExpression') {
      const entity = this.typer.refs.get(callee);
      if (!entity) return this.argsOnly(e);
      if (entity.kind === 'ActionDeclaration') {
        this.checkArgs(e, entity.name.text, entity.params, new Map());
        return VOID;
      }
      if (entity.kind === 'FunctionDeclaration' || entity.kind === 'ExternFunctionDeclaration') {
        const overloads = this.typer.overloads(entity.name.text).filter((o) => o.kind === entity.kind) as (typeof entity)[];
        const chosen = overloads.find((o) => this.fits(o.params, e.args)) ?? entity;
        const subst = this.bindTypeArgs(chosen.typeParams.map((p) => p.text), e);
        this.checkArgs(e, chosen.name.text, chosen.params, subst);
        if (entity.kind === 'ExternFunctionDeclaration' && chosen.name.text === 'digest') this.checkDigestData(e);
        if (isStaticAssert(e, this.typer.refs)) this.checkStaticAssert(e);
        return this.typer.resolver.resolve(chosen.returnType, subst);
      }
      this.typer.diagnostics.report('NotCallable', callee.span, [callee.path.name.text]);
      return this.argsOnly(e);
    }
    return this.argsOnly(e);
  }

  private method(e: CallExpression, callee: Extract<Expression, { kind: 'MemberExpression' }>): P4Type {
    const name = callee.member.text;
    if (callee.target.kind === 'TypeNameExpression') {
      // `Control.apply(args)`: direct application of a control or parser type.
      const t = this.typer.resolver.resolve(callee.target.type);
      if ((t.kind === 'control' || t.kind === 'parser') && name === 'apply') {
        this.checkArgs(e, t.name, t.decl.params, new Map());
        return VOID;
      }
      return this.argsOnly(e);
    }
    this.typer.type(callee); // types the target and reports an unknown method
    const target = underlying(this.typer.types.get(callee.target) ?? UNKNOWN);
    if (SIZE_METHODS.has(name) && ['header', 'union', 'struct', 'stack'].includes(target.kind)) return this.noArgs(e, name, INT);
    switch (target.kind) {
      case 'header': case 'union':
        if (name === 'isValid') return this.noArgs(e, name, BOOL);
        if (name === 'setValid' || name === 'setInvalid') return this.noArgs(e, name, VOID);
        break;
      case 'stack':
        if (name === 'push_front' || name === 'pop_front') {
          this.checkArgs(e, name, [], new Map(), 1);
          return VOID;
        }
        break;
      case 'table':
        if (name === 'apply') return this.noArgs(e, name, { kind: 'table-result', table: callee.target.kind === 'PathExpression' ? callee.target.path.name.text : '' });
        break;
      case 'parser': case 'control':
        if (name === 'apply') {
          this.checkArgs(e, name, target.decl.params, new Map());
          return VOID;
        }
        break;
      case 'extern': {
        const candidates = target.decl.methods.filter((m) => m.name.text === name && !m.isConstructor);
        const chosen = candidates.find((m) => this.fits(m.params, e.args)) ?? candidates[0];
        if (!chosen) break;
        const subst = new Map<string, P4Type>(target.decl.typeParams.map((p, i) => [p.text, target.args[i] ?? UNKNOWN]));
        for (const [k, v] of this.bindTypeArgs(chosen.typeParams.map((p) => p.text), e)) subst.set(k, v);
        this.checkArgs(e, name, chosen.params, subst);
        if (target.name === 'packet_in' && name === 'extract') this.checkExtracted(e);
        return chosen.returnType ? this.typer.resolver.resolve(chosen.returnType, subst) : VOID;
      }
      default:
    }
    return this.argsOnly(e);
  }

  /** v1model names a digest after its struct type, so the data must be a struct (p4c rejects anything else too). */
  private checkDigestData(e: CallExpression): void {
    const data = e.args[1]?.value;
    const type = e.typeArgs[0] ? this.typer.resolver.resolve(e.typeArgs[0]) : data ? this.typer.types.get(data) : undefined;
    if (type && type.kind !== 'struct' && type.kind !== 'unknown' && type.kind !== 'typevar') {
      this.typer.diagnostics.report('TypeMismatch', (data ?? e).span, ['a struct (write digest<T>(receiver, data) with T a struct type)', typeName(type)]);
    }
  }

  /** `static_assert(check, message)`: the check must be a compile-time constant, and true. */
  private checkStaticAssert(e: CallExpression): void {
    if (checkedAsserts.has(e)) return;
    checkedAsserts.add(e);
    const check = e.args[0]?.value;
    if (!check) return;
    const value = this.typer.resolver.constants.evaluate(check);
    if (typeof value !== 'boolean') {
      this.typer.diagnostics.report('NotConstant', check.span, ['the condition of static_assert']);
    } else if (!value) {
      const message = e.args[1]?.value;
      this.typer.diagnostics.report('StaticAssertFailed', e.span, [message?.kind === 'StringLiteral' ? message.value : 'the condition is false']);
    }
  }

  /** `extract` fills a header (or the next element of a header stack). */
  private checkExtracted(e: CallExpression): void {
    const arg = e.args[0]?.value;
    const type = arg ? underlying(this.typer.types.get(arg) ?? UNKNOWN) : UNKNOWN;
    if (arg && type.kind !== 'header' && type.kind !== 'union' && type.kind !== 'unknown' && type.kind !== 'typevar') {
      this.typer.diagnostics.report('TypeMismatch', arg.span, ['a header', typeName(type)]);
    }
  }

  private noArgs(e: CallExpression, name: string, result: P4Type): P4Type {
    this.checkArgs(e, name, [], new Map());
    return result;
  }

  private argsOnly(e: CallExpression): P4Type {
    for (const a of e.args) this.typer.type(a.value);
    return UNKNOWN;
  }

  private fits(params: readonly Parameter[], args: readonly Argument[]): boolean {
    const required = params.filter((p) => !p.defaultValue && !p.annotations.some((a) => a.name.text === 'optional')).length;
    return args.length >= required && args.length <= params.length;
  }

  private bindTypeArgs(names: readonly string[], e: CallExpression): Map<string, P4Type> {
    return new Map(names.map((n, i) => [n, e.typeArgs[i] ? this.typer.resolver.resolve(e.typeArgs[i]!) : { kind: 'typevar', name: n }] as const));
  }

  /** Matches arguments to parameters (positionally or by name) and checks each. `extra` allows stack methods' count argument. */
  checkArgs(e: CallExpression, name: string, params: readonly (Parameter | MethodPrototype['params'][number])[], subst: ReadonlyMap<string, P4Type>, extra = 0): void {
    const named = e.args.some((a) => a.name);
    if (!named && extra === 0 && !this.fits(params, e.args)) {
      const required = params.filter((p) => !p.defaultValue).length;
      this.typer.diagnostics.report('ArgumentCount', e.span, [name, required === params.length ? String(params.length) : `${required} to ${params.length}`, String(e.args.length)]);
    }
    const paramOf = (arg: Argument, index: number): (typeof params)[number] | undefined =>
      arg.name ? params.find((p) => p.name.text === arg.name!.text) : params[index];
    // Bind type variables from the arguments that have a type of their own (`random(out T, in T, in T)` with a
    // bit<16> first argument makes T bit<16>), so that unsized literals for the other T's get that width.
    const bound = new Map(subst);
    const typedEarly = new Map<Argument, P4Type>();
    e.args.forEach((arg, index) => {
      const param = paramOf(arg, index);
      if (!param || arg.value.kind === 'DontCareExpression') return;
      const expected = this.typer.resolver.resolve(param.type, bound);
      if (expected.kind !== 'typevar') return;
      const actual = this.typer.type(arg.value);
      typedEarly.set(arg, actual);
      if (!['int', 'unknown', 'typevar', 'dontcare'].includes(actual.kind)) bound.set(expected.name, actual);
    });
    e.args.forEach((arg, index) => {
      const param = paramOf(arg, index);
      if (!param) {
        this.typer.type(arg.value);
        if (arg.name) this.typer.diagnostics.report('UnknownName', arg.name.span, [arg.name.text]);
        return;
      }
      if (arg.value.kind === 'DontCareExpression') return;
      const expected = this.typer.resolver.resolve(param.type, bound);
      const early = typedEarly.get(arg);
      // Typed once already with a type of its own: typing again would only repeat its diagnostics.
      const actual = early && early.kind !== 'int' ? early : this.typer.type(arg.value, expected);
      if (expected.kind !== 'typevar' && !argumentFits(expected, actual)) {
        this.typer.diagnostics.report('TypeMismatch', arg.value.span, [typeName(expected), typeName(actual)]);
      }
      if ((param.direction === 'out' || param.direction === 'inout') && !this.isLValue(arg.value)) {
        this.typer.diagnostics.report('NotLValue', arg.value.span, [param.direction, param.name.text]);
      }
    });
  }

  isLValue(e: Expression): boolean {
    switch (e.kind) {
      case 'PathExpression': {
        const entity = this.typer.refs.get(e);
        if (!entity) return true;
        if (entity.kind === 'VariableDeclaration') return true;
        if (entity.kind === 'Parameter') return entity.direction === 'out' || entity.direction === 'inout';
        return false;
      }
      case 'MemberExpression':
        return this.isLValue(e.target);
      case 'IndexExpression':
      case 'SliceExpression':
        return this.isLValue(e.target);
      default:
        return false;
    }
  }
}

/** Arguments are checked like assignments, except that a header stack or struct passes for a generic or list parameter. */
function argumentFits(expected: P4Type, actual: P4Type): boolean {
  const u = underlying(expected);
  if (u.kind === 'unknown' || actual.kind === 'unknown' || u.kind === 'typevar') return true;
  if (u.kind === 'tuple' || u.kind === 'dontcare') return true;
  if (u.kind === 'bits' && actual.kind === 'int') return true;
  if (u.kind === 'bits' && underlying(actual).kind === 'bits') {
    const a = underlying(actual) as { width: number; signed: boolean };
    return a.width === u.width && a.signed === u.signed;
  }
  if (u.kind === 'bool') return actual.kind === 'bool';
  return actual.kind === u.kind || (actual.kind === 'newtype' && underlying(actual).kind === u.kind) || u.kind === 'extern' || u.kind === 'string' || assignable(expected, actual);
}
