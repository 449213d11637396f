/**
 * @fileoverview Types expressions: records the type of each one in the TYPES
 * side table and reports width mismatches, bad operands, bad casts, slices
 * out of range, unknown members, wrong argument counts and non-l-values
 * passed to out/inout parameters. Integer literals without a width take
 * their width from context (`x + 1`), as P4-16's infinite-precision ints do.
 */
import type { Expression } from '../ast/expressions.js';
import type { AstNode } from '../ast/walk.js';
import type { DiagnosticBag } from '../diagnostics/bag.js';
import { CallTyper } from './call-typer.js';
import { assignable, bitWidth, bits, BOOL, ERROR_TYPE, INT, SIZE_METHODS, STRING, typeName, underlying, UNKNOWN, type P4Type } from './p4-types.js';
import type { Entity } from './scope.js';
import type { TypeResolver } from './type-resolver.js';
import type { TyperApi } from './typer-api.js';

const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '|+|', '|-|', '&', '|', '^']);
const COMPARISON = new Set(['<', '>', '<=', '>=']);
const EQUALITY = new Set(['==', '!=']);

export class ExpressionTyper implements TyperApi {
  private readonly calls: CallTyper;
  /** Set while typing parser states: `.next`/`.last` are allowed only there. */
  inParser = false;

  constructor(
    readonly refs: ReadonlyMap<AstNode, Entity>,
    readonly types: Map<AstNode, P4Type>,
    readonly resolver: TypeResolver,
    readonly diagnostics: DiagnosticBag,
    /** Every declaration of a top-level name (functions may be overloaded). */
    readonly overloads: (name: string) => readonly Entity[],
  ) {
    this.calls = new CallTyper(this);
  }

  /** The type of `e`, with `expected` (when known) giving unsized literals a width. */
  type(e: Expression, expected?: P4Type): P4Type {
    const t = this.compute(e, expected);
    this.types.set(e, t);
    return t;
  }

  /** Types `e` and reports when it cannot be used as `expected`. */
  expect(e: Expression, expected: P4Type): P4Type {
    const t = this.type(e, expected);
    if (!assignable(expected, t)) this.diagnostics.report('TypeMismatch', e.span, [typeName(expected), typeName(t)]);
    return t;
  }

  /** The declared type of what a name refers to. */
  entityType(entity: Entity): P4Type {
    const cached = this.types.get(entity as AstNode);
    if (cached) return cached;
    let t: P4Type;
    switch (entity.kind) {
      case 'Parameter': case 'VariableDeclaration': case 'ConstantDeclaration': case 'Instantiation':
        t = this.resolver.resolve(entity.type); break;
      case 'ValueSetDeclaration': t = this.resolver.resolve(entity.elementType); break;
      case 'ActionDeclaration': t = { kind: 'action' }; break;
      case 'TableDeclaration': t = { kind: 'table' }; break;
      case 'ParserState': case 'BuiltinState': t = { kind: 'state' }; break;
      case 'MatchKindMember': t = { kind: 'match_kind' }; break;
      default: t = UNKNOWN;
    }
    if (entity.kind !== 'BuiltinState' && entity.kind !== 'MatchKindMember') this.types.set(entity, t);
    return t;
  }

  private compute(e: Expression, expected: P4Type | undefined): P4Type {
    switch (e.kind) {
      case 'IntegerLiteral':
        if (e.width !== null) return bits(e.width, e.signed);
        return expected && underlying(expected).kind === 'bits' ? underlying(expected) : INT;
      case 'BooleanLiteral': return BOOL;
      case 'StringLiteral': return STRING;
      case 'PathExpression': {
        const entity = this.refs.get(e);
        return entity ? this.entityType(entity) : UNKNOWN;
      }
      case 'TypeNameExpression':
      case 'ThisExpression':
        return UNKNOWN;
      case 'MemberExpression': return this.member(e);
      case 'IndexExpression': {
        const target = this.type(e.target);
        this.type(e.index, bits(32));
        if (target.kind === 'stack') return target.element;
        if (target.kind === 'unknown') return UNKNOWN;
        this.diagnostics.report('BadOperand', e.span, ['[]', typeName(target)]);
        return UNKNOWN;
      }
      case 'SliceExpression': return this.slice(e);
      case 'UnaryExpression': {
        // `-` and `+` on an int stay infinite-precision (`-1` is -1 until it meets a width); `~` needs a width.
        const t = e.operator === '~' ? this.type(e.operand, expected) : this.type(e.operand);
        if (t.kind === 'int' && e.operator !== '!') return sizedContext(expected) ?? t;
        const u = underlying(t);
        if (u.kind === 'unknown') return UNKNOWN;
        if (e.operator === '!' ? u.kind === 'bool' : u.kind === 'bits' || u.kind === 'int') return t;
        this.diagnostics.report('BadOperand', e.span, [e.operator, typeName(t)]);
        return UNKNOWN;
      }
      case 'BinaryExpression': return this.binary(e, expected);
      case 'ConditionalExpression': {
        this.expectConditionalCondition(e.condition);
        const a = this.type(e.whenTrue, expected);
        const b = this.type(e.whenFalse, a.kind === 'int' ? expected : a);
        if (a.kind === 'int' && b.kind !== 'int') this.type(e.whenTrue, b);
        return a.kind === 'int' ? b : a;
      }
      case 'CastExpression': return this.cast(e);
      case 'CallExpression': return this.calls.call(e);
      case 'ConstructorCallExpression': {
        for (const a of e.args) this.type(a.value);
        return this.resolver.resolve(e.type);
      }
      case 'ListExpression': {
        const hint = expected && (expected.kind === 'tuple' ? expected.elements : expected.kind === 'struct' || expected.kind === 'header' ? expected.fields.map((f) => f.type) : []);
        return { kind: 'tuple', elements: e.elements.map((x, i) => this.type(x, hint?.[i])) };
      }
      case 'StructExpression': {
        const target = expected && (expected.kind === 'struct' || expected.kind === 'header') ? expected : null;
        const fields = e.fields.map((f) => ({ name: f.name.text, type: this.type(f.value, target?.fields.find((x) => x.name === f.name.text)?.type) }));
        return target ?? { kind: 'tuple', elements: fields.map((f) => f.type) };
      }
      case 'MaskExpression':
        this.type(e.value, expected);
        this.type(e.mask, expected);
        return expected ?? UNKNOWN;
      case 'RangeExpression':
        this.type(e.low, expected);
        this.type(e.high, expected);
        return expected ?? UNKNOWN;
      case 'DefaultExpression':
      case 'DontCareExpression':
        return { kind: 'dontcare' };
    }
  }

  expectBool(e: Expression): void {
    const t = this.type(e);
    if (t.kind !== 'bool' && t.kind !== 'unknown') this.diagnostics.report('ConditionNotBool', e.span, [typeName(t)]);
  }

  /**
   * The condition of `?:`. p4c's grammar groups `a ? b : c ? d : e` as
   * `(a ? b : c) ? d : e` (unlike C), so a chain written C-style arrives here
   * with a conditional as its condition; the error then says how to write it.
   */
  private expectConditionalCondition(condition: Expression): void {
    if (condition.kind !== 'ConditionalExpression') return this.expectBool(condition);
    const t = this.type(condition);
    if (t.kind !== 'bool' && t.kind !== 'unknown') this.diagnostics.report('NestedConditionalCondition', condition.span, [typeName(t)]);
  }

  private member(e: Extract<Expression, { kind: 'MemberExpression' }>): P4Type {
    const name = e.member.text;
    if (e.target.kind === 'TypeNameExpression') {
      const typeRef = e.target.type;
      if (typeRef.kind === 'ErrorType') return ERROR_TYPE;
      const t = this.resolver.resolve(typeRef);
      const u = underlying(t);
      if (u.kind === 'enum') {
        if (!u.members.includes(name)) this.diagnostics.report('UnknownMember', e.member.span, [`enum ${u.name}`, name]);
        return t;
      }
      return UNKNOWN; // `Control.apply` is typed by the call typer
    }
    const target = underlying(this.type(e.target));
    switch (target.kind) {
      case 'struct': case 'header': case 'union': {
        const field = target.fields.find((f) => f.name === name);
        if (field) return field.type;
        if (target.kind !== 'struct' && ['isValid', 'setValid', 'setInvalid'].includes(name)) return UNKNOWN;
        if (SIZE_METHODS.has(name)) return UNKNOWN;
        break;
      }
      case 'stack':
        if (name === 'next' || name === 'last') {
          // They move with the parser's extraction cursor; a control has none (p4c rejects them there too).
          if (!this.inParser) this.diagnostics.report('StackCursorOutsideParser', e.member.span, [name]);
          return target.element;
        }
        if (name === 'size' || name === 'lastIndex') return bits(32);
        if (name === 'nextIndex') return bits(32);
        if (name === 'push_front' || name === 'pop_front' || SIZE_METHODS.has(name)) return UNKNOWN;
        break;
      case 'table-result':
        if (name === 'hit' || name === 'miss') return BOOL;
        if (name === 'action_run') return { kind: 'action' };
        break;
      case 'table':
        if (name === 'apply') return UNKNOWN;
        break;
      case 'extern':
        if (target.decl.methods.some((m) => m.name.text === name)) return UNKNOWN;
        break;
      case 'parser': case 'control':
        if (name === 'apply') return UNKNOWN;
        break;
      case 'unknown': case 'typevar':
        return UNKNOWN;
      default:
    }
    this.diagnostics.report('UnknownMember', e.member.span, [typeName(target), name]);
    return UNKNOWN;
  }

  private slice(e: Extract<Expression, { kind: 'SliceExpression' }>): P4Type {
    const target = underlying(this.type(e.target));
    const high = this.resolver.constants.integer(e.high);
    const low = this.resolver.constants.integer(e.low);
    this.type(e.high);
    this.type(e.low);
    if (high === undefined || low === undefined) {
      this.diagnostics.report('NotConstant', e.span, ['a slice bound']);
      return UNKNOWN;
    }
    if (target.kind === 'unknown') return UNKNOWN;
    if (target.kind !== 'bits') {
      this.diagnostics.report('BadOperand', e.span, ['[:]', typeName(target)]);
      return UNKNOWN;
    }
    if (high < low || low < 0n || high >= BigInt(target.width)) {
      this.diagnostics.report('SliceOutOfRange', e.span, [String(high), String(low), typeName(target)]);
      return UNKNOWN;
    }
    return bits(Number(high - low) + 1);
  }

  private binary(e: Extract<Expression, { kind: 'BinaryExpression' }>, expected: P4Type | undefined): P4Type {
    const op = e.operator;
    if (op === '&&' || op === '||') {
      this.expectBool(e.left);
      this.expectBool(e.right);
      return BOOL;
    }
    if (op === '++') {
      const l = underlying(this.type(e.left));
      const r = underlying(this.type(e.right));
      if (l.kind === 'unknown' || r.kind === 'unknown') return UNKNOWN;
      if (l.kind !== 'bits' || r.kind !== 'bits') {
        this.diagnostics.report('BadOperand', e.span, ['++', `${typeName(l)} and ${typeName(r)}`]);
        return UNKNOWN;
      }
      return bits(l.width + r.width, l.signed);
    }
    if (op === '<<' || op === '>>') {
      const l = this.type(e.left, expected);
      const r = this.type(e.right);
      const ru = underlying(r);
      if (ru.kind === 'bits' && ru.signed) this.diagnostics.report('ShiftByNegative', e.right.span, [typeName(r)]);
      if (l.kind === 'int' && r.kind !== 'int' && !this.resolver.constants.evaluate(e.left)) return l;
      return l;
    }
    // P4-16 §8.9.1: an int operand takes the type of the other, sized operand; int op int stays an
    // infinite-precision int (folded exactly), converted only where the result meets a width.
    let l = this.type(e.left);
    let r = this.type(e.right, l.kind === 'int' ? undefined : l);
    if (l.kind === 'int' && r.kind !== 'int') l = this.type(e.left, r);
    if (r.kind === 'int' && l.kind !== 'int') r = this.type(e.right, l);
    if (l.kind === 'int' && r.kind === 'int' && ARITHMETIC.has(op)) return sizedContext(expected) ?? INT;
    const lu = underlying(l);
    const ru = underlying(r);
    if (lu.kind === 'unknown' || ru.kind === 'unknown') return EQUALITY.has(op) || COMPARISON.has(op) ? BOOL : UNKNOWN;
    if (EQUALITY.has(op)) {
      if (!assignable(l, r) && !assignable(r, l)) this.diagnostics.report('OperandMismatch', e.span, [op, typeName(l), typeName(r)]);
      return BOOL;
    }
    const numeric = (t: P4Type): boolean => t.kind === 'bits' || t.kind === 'int';
    if (!numeric(lu) || !numeric(ru)) {
      this.diagnostics.report('BadOperand', e.span, [op, numeric(lu) ? typeName(r) : typeName(l)]);
      return COMPARISON.has(op) ? BOOL : UNKNOWN;
    }
    if (lu.kind === 'bits' && ru.kind === 'bits' && (lu.width !== ru.width || lu.signed !== ru.signed)) {
      this.diagnostics.report('OperandMismatch', e.span, [op, typeName(l), typeName(r)]);
    }
    if (COMPARISON.has(op)) return BOOL;
    if (!ARITHMETIC.has(op)) return UNKNOWN;
    return l;
  }

  private cast(e: Extract<Expression, { kind: 'CastExpression' }>): P4Type {
    const to = this.resolver.resolve(e.type);
    // The operand is typed on its own (`(bit<32>)(8 * (bit<9>)x)` multiplies in bit<9>); only a literal,
    // list or struct expression takes the cast's type as its own.
    const direct = e.operand.kind === 'IntegerLiteral' || e.operand.kind === 'ListExpression' || e.operand.kind === 'StructExpression';
    const from = this.type(e.operand, direct ? to : undefined);
    const t = underlying(to);
    const f = underlying(from);
    if (t.kind === 'unknown' || f.kind === 'unknown' || from.kind === 'int' || assignable(to, from)) return to;
    const legal =
      (t.kind === 'bits' && (f.kind === 'bits' || f.kind === 'bool' || (f.kind === 'enum' && f.underlying !== null))) ||
      (t.kind === 'bool' && f.kind === 'bits' && f.width === 1) ||
      (t.kind === 'enum' && t.underlying !== null && bitWidth(f) === t.underlying.width) ||
      ((t.kind === 'struct' || t.kind === 'header') && f.kind === 'tuple');
    if (!legal) this.diagnostics.report('InvalidCast', e.span, [typeName(from), typeName(to)]);
    return to;
  }
}

/** The bit<W>/int<W> an int-valued expression is converted to where it is used (an assignment, an argument), if any. */
function sizedContext(expected: P4Type | undefined): P4Type | undefined {
  const u = expected && underlying(expected);
  return u?.kind === 'bits' ? u : undefined;
}
