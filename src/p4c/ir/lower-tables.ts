/**
 * @fileoverview Tables and actions to IR: keys with their expressions and
 * widths, the action list with scopes and bound arguments, the default
 * action (NoAction when none is given, as p4c adds it), entries with
 * keysets and priorities, size and attached resources.
 */
import { annotationBodyText, findAnnotation } from '../ast/annotations.js';
import type { ActionDeclaration, TableDeclaration } from '../ast/declarations.js';
import type { Argument, Expression } from '../ast/expressions.js';
import { entryKeysets, type ActionReference } from '../ast/tables.js';
import { nameAnnotation } from '../control-plane/names.js';
import { printNode } from '../printer.js';
import { bitWidth } from '../semantics/p4-types.js';
import type { Entity } from '../semantics/scope.js';
import { DEFAULT_TABLE_SIZE } from '../p4info/tables.js';
import type { ExpressionLowering } from './lower-expressions.js';
import type { StatementLowering } from './lower-statements.js';
import type { LoweringContext } from './lowering-context.js';
import type { IrAction, IrActionCall, IrTable, IrTableEntry } from './types.js';

export class TableLowering {
  constructor(
    private readonly ctx: LoweringContext,
    private readonly expressions: ExpressionLowering,
    private readonly ids: (kind: 'table' | 'action', name: string) => number,
    private readonly noAction: ActionDeclaration | undefined,
    /** Instances constructed in a table property (the control-plane model's inPlaceExterns). */
    private readonly inPlace: ReadonlyMap<Expression, Entity>,
  ) {}

  action(decl: ActionDeclaration, name: string, statements: (scope: string) => StatementLowering): IrAction {
    const params = decl.params.map((p) => {
      const type = this.ctx.layouts.type(this.ctx.typer.entityType(p));
      const slot = this.ctx.newSlot(`${name}.${p.name.text}`, 'action-parameter', type, p);
      return { name: p.name.text, slot, width: bitWidth(this.ctx.typer.entityType(p)) ?? 0, type, controlPlane: p.direction === null, direction: p.direction ?? ('none' as const) };
    });
    return { id: this.ids('action', name), name, params, body: statements(name).block(decl.body.body) };
  }

  table(decl: TableDeclaration, name: string): IrTable {
    const c = this.ctx.typer.resolver.constants;
    const keys: IrTable['keys'][number][] = [];
    const actions: IrTable['actions'][number][] = [];
    const entries: IrTableEntry[] = [];
    let defaultAction: IrTable['defaultAction'] | null = null;
    let size = DEFAULT_TABLE_SIZE;
    let isConst = false;
    const resource = { directCounter: null as string | null, directMeter: null as string | null, implementation: null as string | null };
    let supportTimeout = false;
    for (const p of decl.properties) {
      if (p.kind === 'KeyProperty') {
        for (const el of p.elements) {
          keys.push({
            name: nameAnnotation(el.annotations) ?? printNode(el.expression),
            matchKind: el.matchKind.text,
            width: bitWidth(this.ctx.typeOf(el.expression)) ?? 0,
            expression: this.expressions.expression(el.expression),
          });
        }
      } else if (p.kind === 'ActionsProperty') {
        for (const ref of p.actions) actions.push({ ...this.actionName(ref), scope: scopeOf(ref), boundArgs: (ref.args ?? []).map((a) => this.expressions.expression(a.value)) });
      } else if (p.kind === 'EntriesProperty') {
        isConst = p.isConst;
        // p4c: once an entry has `priority = N:`, each later one without it gets the previous priority minus 1.
        let running: bigint | undefined;
        for (const entry of p.entries) {
          const annotated = findAnnotation(entry.annotations, 'priority');
          const given = entry.priority ? c.integer(entry.priority) : undefined;
          running = given ?? (running === undefined ? undefined : running - 1n);
          const priority = running ?? (annotated ? BigInt(annotationBodyText(annotated).trim() || '0') : undefined);
          entries.push({
            keys: entryKeysets(entry).map((k) => this.expressions.keyset(k)),
            priority: priority === undefined ? null : Number(priority),
            action: this.call(entry.action.action, entry.action.args ?? []),
            isConst: p.isConst || entry.isConst,
          });
        }
      } else if (p.kind === 'ValueProperty') {
        const property = p.name.text;
        if (property === 'default_action') {
          const v = p.value;
          defaultAction = { ...this.call(v.kind === 'CallExpression' ? v.callee : v, v.kind === 'CallExpression' ? v.args : []), isConst: p.isConst };
        } else if (property === 'size') size = Number(c.integer(p.value) || BigInt(DEFAULT_TABLE_SIZE)); // 0: the default, as p4c
        else if (property === 'support_timeout') supportTimeout = c.evaluate(p.value) === true;
        else if (property === 'counters' || property === 'meters' || property === 'implementation') {
          const entity = this.ctx.typer.refs.get(p.value) ?? this.inPlace.get(p.value);
          const target = (entity && this.ctx.names.get(entity)) ?? null;
          if (property === 'counters') resource.directCounter = target;
          else if (property === 'meters') resource.directMeter = target;
          else resource.implementation = target;
        }
      }
    }
    if (!defaultAction) {
      const noAction = this.noAction ? this.ctx.names.get(this.noAction) ?? 'NoAction' : 'NoAction';
      defaultAction = { action: noAction, actionId: this.ids('action', noAction), args: [], boundArgs: [], isConst: false };
      if (!actions.some((a) => a.action === noAction)) actions.push({ action: noAction, actionId: defaultAction.actionId, scope: 'default_only', boundArgs: [] });
    }
    return { id: this.ids('table', name), name, keys, actions, defaultAction, entries, isConst, size, ...resource, supportTimeout };
  }

  private actionName(ref: ActionReference): { action: string; actionId: number } {
    const entity = this.ctx.typer.refs.get(ref.action);
    const action = (entity && this.ctx.names.get(entity)) ?? ref.action.path.name.text;
    return { action, actionId: this.ids('action', action) };
  }

  /** An action with arguments: the directional ones bound, the rest control-plane data folded to decimal. */
  private call(callee: Expression, args: readonly Argument[]): IrActionCall {
    const entity = this.ctx.typer.refs.get(callee);
    const action = (entity && this.ctx.names.get(entity)) ?? (callee.kind === 'PathExpression' ? callee.path.name.text : '');
    const params = entity?.kind === 'ActionDeclaration' ? entity.params : [];
    const bound = params.filter((p) => p.direction !== null).length;
    const boundArgs = args.slice(0, bound).map((a) => this.expressions.expression(a.value));
    const data = args.slice(bound).map((a) => {
      const v = this.ctx.typer.resolver.constants.evaluate(a.value);
      return typeof v === 'bigint' ? v.toString() : v === true ? '1' : '0';
    });
    return { action, actionId: this.ids('action', action), args: data, boundArgs };
  }
}

function scopeOf(ref: ActionReference): 'table_and_default' | 'table_only' | 'default_only' {
  if (ref.annotations.some((a) => a.name.text === 'tableonly')) return 'table_only';
  if (ref.annotations.some((a) => a.name.text === 'defaultonly')) return 'default_only';
  return 'table_and_default';
}
