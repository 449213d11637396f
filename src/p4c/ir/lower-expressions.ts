/**
 * @fileoverview AST expressions to IR expressions: names become slots or
 * folded constants, enum and error members become values, members of
 * headers/structs/stacks become field/stack accesses, and every node gets
 * its type from the checker.
 */
import type { Argument, CallExpression, Expression } from '../ast/expressions.js';
import type { Parameter } from '../ast/statements.js';
import { underlying } from '../semantics/p4-types.js';
import type { LoweringContext } from './lowering-context.js';
import type { IrArgument, IrCall, IrExpression, IrKeyset, IrType } from './types.js';

const BOOL: IrType = { kind: 'bool' };

export class ExpressionLowering {
  constructor(private readonly ctx: LoweringContext) {}

  expression(e: Expression): IrExpression {
    const type = this.ctx.irTypeOf(e);
    const folded = this.ctx.typer.resolver.constants.evaluate(e);
    if (typeof folded === 'bigint' && e.kind !== 'PathExpression' && (type.kind === 'bits' || type.kind === 'int')) {
      return { op: 'const', type, value: wrap(folded, type).toString() };
    }
    if (typeof folded === 'boolean' && e.kind === 'CallExpression') return { op: 'bool', type: BOOL, value: folded }; // static_assert
    switch (e.kind) {
      case 'IntegerLiteral': return { op: 'const', type, value: wrap(e.value, type).toString() };
      case 'BooleanLiteral': return { op: 'bool', type: BOOL, value: e.value };
      case 'StringLiteral': return { op: 'string', type: { kind: 'string' }, value: e.value };
      case 'PathExpression': return this.path(e, type);
      case 'MemberExpression': return this.member(e, type);
      case 'IndexExpression': return { op: 'index', type, base: this.expression(e.target), index: this.expression(e.index) };
      case 'SliceExpression':
        return {
          op: 'slice', type, base: this.expression(e.target),
          high: Number(this.ctx.typer.resolver.constants.integer(e.high) ?? 0n),
          low: Number(this.ctx.typer.resolver.constants.integer(e.low) ?? 0n),
        };
      case 'UnaryExpression':
        if (e.operator === '+') return this.expression(e.operand);
        return { op: 'unary', type, operator: e.operator, operand: this.expression(e.operand) };
      case 'BinaryExpression':
        return { op: 'binary', type, operator: e.operator, left: this.expression(e.left), right: this.expression(e.right) };
      case 'ConditionalExpression':
        return { op: 'cond', type, condition: this.expression(e.condition), whenTrue: this.expression(e.whenTrue), whenFalse: this.expression(e.whenFalse) };
      case 'CastExpression': return { op: 'cast', type, operand: this.expression(e.operand) };
      case 'CallExpression': return this.callExpression(e, type);
      case 'ListExpression': return { op: 'list', type, elements: e.elements.map((x) => this.expression(x)) };
      case 'StructExpression': return { op: 'struct', type, fields: e.fields.map((f) => ({ name: f.name.text, value: this.expression(f.value) })) };
      case 'DontCareExpression': case 'DefaultExpression': return { op: 'dontcare', type };
      default:
        this.ctx.unsupported(e, `the expression '${e.kind}' at run time`);
        return { op: 'dontcare', type };
    }
  }

  private path(e: Extract<Expression, { kind: 'PathExpression' }>, type: IrType): IrExpression {
    const entity = this.ctx.typer.refs.get(e);
    if (!entity) return { op: 'dontcare', type };
    if (entity.kind === 'ConstantDeclaration') {
      const value = this.ctx.typer.resolver.constants.evaluate(entity.value);
      if (typeof value === 'boolean') return { op: 'bool', type: BOOL, value };
      if (typeof value === 'bigint') return { op: 'const', type, value: wrap(value, type).toString() };
      return this.expression(entity.value);
    }
    const argument = this.ctx.constructorArguments.get(entity);
    if (argument) return this.expression(argument);
    const slot = this.ctx.slot(entity);
    if (slot !== undefined) return { op: 'slot', type, slot };
    this.ctx.unsupported(e, `'${e.path.name.text}' as a value at run time`);
    return { op: 'dontcare', type };
  }

  private member(e: Extract<Expression, { kind: 'MemberExpression' }>, type: IrType): IrExpression {
    const name = e.member.text;
    if (e.target.kind === 'TypeNameExpression') {
      if (e.target.type.kind === 'ErrorType') return { op: 'const', type: { kind: 'error' }, value: String(Math.max(0, this.ctx.errors.indexOf(name))) };
      const t = underlying(this.ctx.typeOf(e));
      if (t.kind === 'enum') {
        const index = t.members.indexOf(name);
        if (t.underlying) {
          const member = t.decl.members[index];
          const value = member?.value ? this.ctx.typer.resolver.constants.integer(member.value) ?? 0n : 0n;
          return { op: 'const', type, value: value.toString() };
        }
        return { op: 'const', type, value: String(index) };
      }
    }
    // A field of a struct inside a header: the header's flattened field `s.t.f` (see Layouts).
    const path = [name];
    let base: Expression = e.target;
    while (base.kind === 'MemberExpression' && underlying(this.ctx.typeOf(base)).kind === 'struct') {
      path.unshift(base.member.text);
      base = base.target;
    }
    if (underlying(this.ctx.typeOf(base)).kind === 'header' && (path.length > 1 || underlying(this.ctx.typeOf(e)).kind === 'struct')) {
      if (underlying(this.ctx.typeOf(e)).kind === 'struct') this.ctx.unsupported(e, 'a whole struct inside a header as a value (use its fields)');
      return { op: 'field', type, base: this.expression(base), field: path.join('.') };
    }
    const targetType = underlying(this.ctx.typeOf(e.target));
    if (targetType.kind === 'stack') {
      if (name === 'next' || name === 'last' || name === 'lastIndex' || name === 'nextIndex' || name === 'size') {
        return { op: 'stack', type, base: this.expression(e.target), member: name };
      }
    }
    if (targetType.kind === 'table-result' && e.target.kind === 'CallExpression' && (name === 'hit' || name === 'miss')) {
      return { op: 'apply-table', type: BOOL, table: this.tableName(e.target), result: name };
    }
    return { op: 'field', type, base: this.expression(e.target), field: name };
  }

  tableName(apply: CallExpression): string {
    const callee = apply.callee;
    const target = callee.kind === 'MemberExpression' ? callee.target : callee;
    const entity = this.ctx.typer.refs.get(target);
    return (entity && this.ctx.names.get(entity)) ?? '';
  }

  private callExpression(e: CallExpression, type: IrType): IrExpression {
    const callee = e.callee;
    if (callee.kind === 'MemberExpression' && callee.member.text === 'isValid') {
      return { op: 'is-valid', type: BOOL, header: this.expression(callee.target) };
    }
    const call = this.call(e);
    if (!call) {
      this.ctx.unsupported(e, 'this call inside an expression');
      return { op: 'dontcare', type };
    }
    return { op: 'call', type, call };
  }

  /** A call of an extern function, extern method, packet method, header/stack built-in or user function; null for other calls. */
  call(e: CallExpression): IrCall | null {
    const callee = e.callee;
    const typeArgs = e.typeArgs.map((t) => this.ctx.layouts.type(this.ctx.typer.resolver.resolve(t)));
    if (callee.kind === 'PathExpression') {
      const entity = this.ctx.typer.refs.get(callee);
      if (entity?.kind === 'ExternFunctionDeclaration' && !this.ctx.isLibrary(entity)) this.ctx.unsupportedExtern(e, entity.name.text);
      if (entity?.kind === 'ExternFunctionDeclaration' || entity?.kind === 'FunctionDeclaration') {
        const overloads = this.ctx.typer.overloads(entity.name.text).filter((o): o is typeof entity => o.kind === entity.kind);
        const chosen = overloads.find((o) => o.params.length >= e.args.length && o.params.filter((p) => !p.defaultValue).length <= e.args.length) ?? entity;
        const target = entity.kind === 'ExternFunctionDeclaration' ? { kind: 'function' as const, name: entity.name.text } : { kind: 'user-function' as const, name: entity.name.text };
        return { target, typeArgs, args: this.args(e.args, chosen.params) };
      }
      return null;
    }
    if (callee.kind !== 'MemberExpression') return null;
    const method = callee.member.text;
    const targetType = underlying(this.ctx.typeOf(callee.target));
    if (targetType.kind === 'header' || targetType.kind === 'union' || targetType.kind === 'stack') {
      return { target: { kind: 'builtin', method, object: this.expression(callee.target) }, typeArgs, args: this.args(e.args, []) };
    }
    if (targetType.kind === 'extern') {
      const chosen = targetType.decl.methods.find((m) => m.name.text === method && m.params.length >= e.args.length) ?? targetType.decl.methods.find((m) => m.name.text === method);
      const params = chosen?.params ?? [];
      if (targetType.name === 'packet_in' || targetType.name === 'packet_out') {
        return { target: { kind: 'packet', method }, typeArgs, args: this.args(e.args, params) };
      }
      const entity = this.ctx.typer.refs.get(callee.target);
      const instance = (entity && this.ctx.names.get(entity)) ?? '';
      return { target: { kind: 'method', instance, method }, typeArgs, args: this.args(e.args, params) };
    }
    return null;
  }

  args(args: readonly Argument[], params: readonly Parameter[]): IrArgument[] {
    const ordered = args.some((a) => a.name)
      ? params.map((p) => args.find((a) => a.name?.text === p.name.text)).filter((a): a is Argument => a !== undefined)
      : args;
    return ordered.map((a) => {
      const param = a.name ? params.find((p) => p.name.text === a.name!.text) : params[args.indexOf(a)];
      // A packet or an extern instance passed to a block is no value: the block's parameter stands for the same object.
      if (param && this.ctx.typer.resolver.resolve(param.type).kind === 'extern') return { direction: param.direction ?? 'none', value: { op: 'dontcare', type: { kind: 'void' } } };
      return { direction: param?.direction ?? 'none', value: this.expression(a.value) };
    });
  }

  keyset(k: Expression): IrKeyset {
    const c = this.ctx.typer.resolver.constants;
    const text = (x: Expression): string => {
      const v = c.evaluate(x);
      if (typeof v === 'bigint') return wrap(v, this.ctx.irTypeOf(x)).toString();
      if (typeof v === 'boolean') return v ? '1' : '0';
      const lowered = this.expression(x);
      return lowered.op === 'const' ? lowered.value : '0';
    };
    switch (k.kind) {
      case 'DefaultExpression': case 'DontCareExpression': return { kind: 'default' };
      case 'MaskExpression': return { kind: 'mask', value: text(k.value), mask: text(k.mask) };
      case 'RangeExpression': return { kind: 'range', low: text(k.low), high: text(k.high) };
      case 'PathExpression': {
        const entity = this.ctx.typer.refs.get(k);
        if (entity?.kind === 'ValueSetDeclaration') return { kind: 'value-set', valueSet: this.ctx.names.get(entity) ?? entity.name.text };
        return { kind: 'value', value: text(k) };
      }
      default: return { kind: 'value', value: text(k) };
    }
  }
}

/** A constant as stored in a value of `type`: two's complement wrapped to the width. */
function wrap(value: bigint, type: IrType): bigint {
  if (type.kind !== 'bits') return value;
  return type.signed ? BigInt.asIntN(type.width, value) : BigInt.asUintN(type.width, value);
}

