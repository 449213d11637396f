/**
 * @fileoverview AST statements to IR statements. Local variables get slots
 * (initialised where declared, to zero/invalid when no initializer: the
 * executor's choice, as P4 leaves them undefined); `t.apply()` and
 * `switch (t.apply().action_run)` become table statements; fall-through
 * switch labels are merged into the case they fall to.
 */
import type { CallExpression, Expression } from '../ast/expressions.js';
import type { Parameter, Statement, StatementOrDeclaration } from '../ast/statements.js';
import { isStaticAssert } from '../semantics/const-eval.js';
import { underlying } from '../semantics/p4-types.js';
import type { ExpressionLowering } from './lower-expressions.js';
import type { LoweringContext } from './lowering-context.js';
import type { IrExpression, IrStatement } from './types.js';

export class StatementLowering {
  constructor(
    private readonly ctx: LoweringContext,
    private readonly expressions: ExpressionLowering,
    /** The readable prefix for slots of locals declared here (`MyIngress.set_nhop`). */
    private readonly scopeName: string,
  ) {}

  block(body: readonly StatementOrDeclaration[]): IrStatement[] {
    return body.flatMap((s) => this.statement(s));
  }

  statement(s: StatementOrDeclaration): IrStatement[] {
    switch (s.kind) {
      case 'VariableDeclaration': {
        const slot = this.ctx.newSlot(`${this.scopeName}.${s.name.text}`, 'local', this.ctx.layouts.type(this.ctx.typer.entityType(s)), s);
        if (!s.initializer) return [];
        return [{ kind: 'assign', target: { op: 'slot', type: this.ctx.slots[slot]!.type, slot }, value: this.expressions.expression(s.initializer) }];
      }
      case 'ConstantDeclaration':
        return [];
      case 'Instantiation':
        this.ctx.unsupported(s, 'instantiating an extern inside a block body');
        return [];
      case 'AssignmentStatement':
        return [{ kind: 'assign', target: this.expressions.expression(s.target), value: this.expressions.expression(s.value) }];
      case 'CallStatement':
        return this.call(s.call);
      case 'BlockStatement':
        return [{ kind: 'block', body: this.block(s.body) }];
      case 'IfStatement':
        return [{ kind: 'if', condition: this.expressions.expression(s.condition), then: this.statement(s.then), else: s.else ? this.statement(s.else) : [] }];
      case 'SwitchStatement':
        return [this.switchStatement(s)];
      case 'ExitStatement':
        return [{ kind: 'exit' }];
      case 'ReturnStatement':
        return [{ kind: 'return', value: s.value ? this.expressions.expression(s.value) : null }];
      case 'EmptyStatement':
        return [];
    }
  }

  private call(call: CallExpression): IrStatement[] {
    if (isStaticAssert(call, this.ctx.typer.refs)) return []; // checked at compile time; nothing runs
    const callee = call.callee;
    if (callee.kind === 'PathExpression') {
      const entity = this.ctx.typer.refs.get(callee);
      if (entity?.kind === 'ActionDeclaration') {
        return [{ kind: 'call-action', action: this.ctx.names.get(entity) ?? entity.name.text, args: call.args.map((a) => this.expressions.expression(a.value)) }];
      }
    }
    if (callee.kind === 'MemberExpression' && callee.member.text === 'apply') {
      const targetType = underlying(this.ctx.typeOf(callee.target));
      if (targetType.kind === 'table') return [{ kind: 'apply-table', table: this.expressions.tableName(call) }];
      if (targetType.kind === 'control' || targetType.kind === 'parser' || callee.target.kind === 'TypeNameExpression') {
        const entity = this.ctx.typer.refs.get(callee.target.kind === 'TypeNameExpression' && callee.target.type.kind === 'NamedType' ? callee.target.type : callee.target);
        const block = entity ? this.ctx.names.get(entity) : undefined;
        if (block === undefined) {
          this.ctx.unsupported(call, 'applying this block');
          return [];
        }
        const params = entity?.kind === 'ControlDeclaration' || entity?.kind === 'ParserDeclaration' ? entity.params
          : entity?.kind === 'Instantiation' || entity?.kind === 'Parameter' ? this.instanceParams(entity) : [];
        return [{ kind: 'apply-block', block, args: this.expressions.args(call.args, params) }];
      }
    }
    const lowered = this.expressions.call(call);
    if (!lowered) {
      this.ctx.unsupported(call, 'this call');
      return [];
    }
    return [{ kind: 'call', call: lowered }];
  }

  /** The apply parameters of the block an instance (or a constructor parameter of control/parser type) stands for. */
  private instanceParams(inst: Extract<StatementOrDeclaration, { kind: 'Instantiation' }> | Parameter): readonly Parameter[] {
    const t = this.ctx.typer.entityType(inst);
    return t.kind === 'control' || t.kind === 'parser' ? t.decl.params : [];
  }

  private switchStatement(s: Extract<Statement, { kind: 'SwitchStatement' }>): IrStatement {
    const onActionRun = s.subject.kind === 'MemberExpression' && s.subject.member.text === 'action_run' && s.subject.target.kind === 'CallExpression';
    const groups: { labels: Expression[]; isDefault: boolean; body: IrStatement[] }[] = [];
    let pending: Expression[] = [];
    let pendingDefault = false;
    for (const c of s.cases) {
      if (c.label.kind === 'DefaultExpression') pendingDefault = true;
      else pending.push(c.label);
      if (c.body) {
        groups.push({ labels: pending, isDefault: pendingDefault, body: this.block(c.body.body) });
        pending = [];
        pendingDefault = false;
      }
    }
    if (onActionRun && s.subject.kind === 'MemberExpression' && s.subject.target.kind === 'CallExpression') {
      const table = this.expressions.tableName(s.subject.target);
      return {
        kind: 'switch-action',
        table,
        cases: groups.map((g) => ({
          actions: g.labels.map((l) => {
            const entity = this.ctx.typer.refs.get(l);
            return (entity && this.ctx.names.get(entity)) ?? '';
          }),
          isDefault: g.isDefault,
          body: g.body,
        })),
      };
    }
    const subject: IrExpression = this.expressions.expression(s.subject);
    return { kind: 'switch', subject, cases: groups.map((g) => ({ values: g.labels.map((l) => this.expressions.expression(l)), isDefault: g.isDefault, body: g.body })) };
  }
}
