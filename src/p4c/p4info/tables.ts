/**
 * @fileoverview The P4Info `Table` message for one table: match fields
 * (named as written in the key, or by `@name`), action refs with scopes,
 * the default action (p4c adds `@defaultonly NoAction` when none is given;
 * a const default sets const_default_action_id, no initial_default_action),
 * initial entries flags, size (1024 by default), direct resources and the
 * action profile.
 */
import type * as p4i from '../../proto/p4i.js';
import type { ActionDeclaration, TableDeclaration } from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { ActionReference } from '../ast/tables.js';
import type { AstNode } from '../ast/walk.js';
import { printNode } from '../printer.js';
import { documentation, nameAnnotation, p4infoAnnotations } from '../control-plane/names.js';
import type { P4Type } from '../semantics/p4-types.js';
import type { Entity } from '../semantics/scope.js';
import type { ConstEvaluator } from '../semantics/const-eval.js';
import { keyName } from './key-names.js';
import { fieldIds } from './symbols.js';
import { namedBitwidth, type TypeInfoBuilder } from './type-spec.js';

export const DEFAULT_TABLE_SIZE = 1024;
/** The largest `size` p4c takes: it reads sizes as 32-bit signed integers. (0 means DEFAULT_TABLE_SIZE.) */
export const MAX_TABLE_SIZE = 2n ** 31n - 1n;

const MATCH_TYPES: Readonly<Record<string, p4i._p4_config_v1_MatchField_MatchType>> = {
  exact: 'EXACT', lpm: 'LPM', ternary: 'TERNARY', range: 'RANGE', optional: 'OPTIONAL',
};

export interface TableContext {
  /** What an expression of the table refers to (an action, an instance), or the instance a property constructs in place. */
  readonly resolve: (value: Expression) => Entity | undefined;
  readonly types: ReadonlyMap<AstNode, P4Type>;
  readonly constants: ConstEvaluator;
  /** The P4Info id of an action / direct resource / profile declaration. */
  readonly idOf: (decl: Entity) => number | undefined;
  readonly noAction: ActionDeclaration | undefined;
  readonly typeInfo: TypeInfoBuilder;
}

export function tableMessage(table: TableDeclaration, preamble: p4i.Preamble, ctx: TableContext): p4i.Table {
  const message: p4i.Table = { preamble };
  const matchFields: p4i.MatchField[] = [];
  const actionRefs: p4i.ActionRef[] = [];
  const listed = new Set<Entity>();
  let defaultValue: Expression | null = null;
  let defaultIsConst = false;
  let size = DEFAULT_TABLE_SIZE;
  const directIds: number[] = [];
  for (const p of table.properties) {
    if (p.kind === 'KeyProperty') {
      // Every key element takes an id, a selector key too (p4c allocates them before dropping selectors).
      const ids = fieldIds(p.elements.map((el) => el.annotations));
      p.elements.forEach((el, index) => {
        const kind = el.matchKind.text;
        if (kind === 'selector') return;
        const { bitwidth, type_name } = namedBitwidth(ctx.types.get(el.expression) ?? { kind: 'unknown' }, ctx.typeInfo);
        const name = nameAnnotation(el.annotations) ?? keyName(el.expression, ctx.types, ctx.constants) ?? printNode(el.expression);
        const field: p4i.MatchField = { id: ids[index]!, name, bitwidth };
        const annotations = p4infoAnnotations(el.annotations);
        if (annotations.length > 0) field.annotations = annotations;
        const doc = documentation(el.annotations);
        if (doc) field.doc = doc;
        if (MATCH_TYPES[kind]) field.match_type = MATCH_TYPES[kind];
        else field.other_match_type = kind;
        if (type_name) field.type_name = type_name;
        matchFields.push(field);
      });
    } else if (p.kind === 'ActionsProperty') {
      for (const ref of p.actions) {
        const entity = ctx.resolve(ref.action);
        if (!entity) continue;
        listed.add(entity);
        actionRefs.push(actionRef(ref, ctx.idOf(entity) ?? 0));
      }
    } else if (p.kind === 'ValueProperty') {
      const name = p.name.text;
      if (name === 'default_action') {
        defaultValue = p.value;
        defaultIsConst = p.isConst;
      } else if (name === 'size') {
        const v = ctx.constants.integer(p.value);
        if (v !== undefined && v !== 0n) size = Number(v);
      } else if (name === 'counters' || name === 'meters') {
        const id = p.value.kind === 'PathExpression' ? idOfPath(p.value, ctx) : undefined;
        if (id !== undefined) directIds.push(id);
      } else if (name === 'implementation') {
        const id = idOfPath(p.value, ctx);
        if (id !== undefined) message.implementation_id = id;
      } else if (name === 'support_timeout') {
        if (ctx.constants.evaluate(p.value) === true) message.idle_timeout_behavior = 'NOTIFY_CONTROL';
      }
    }
  }
  if (defaultValue === null && ctx.noAction) {
    const id = ctx.idOf(ctx.noAction) ?? 0;
    if (!listed.has(ctx.noAction)) actionRefs.push({ id, annotations: ['@defaultonly'], scope: 'DEFAULT_ONLY' });
  }
  if (matchFields.length > 0) message.match_fields = matchFields;
  message.action_refs = actionRefs;
  // p4c 1.2.4.8 writes no initial_default_action: a const default is only its id (the IR carries the default's arguments).
  if (defaultValue && defaultIsConst) {
    const id = defaultActionId(defaultValue, ctx);
    if (id !== undefined) message.const_default_action_id = id;
  }
  if (directIds.length > 0) message.direct_resource_ids = directIds;
  message.size = String(size);
  const entries = table.properties.find((p) => p.kind === 'EntriesProperty');
  if (entries?.kind === 'EntriesProperty') {
    if (entries.isConst) message.is_const_table = true;
    message.has_initial_entries = true;
  }
  return message;
}

function idOfPath(path: Expression, ctx: TableContext): number | undefined {
  const entity = ctx.resolve(path);
  return entity ? ctx.idOf(entity) : undefined;
}

function actionRef(ref: ActionReference, id: number): p4i.ActionRef {
  const message: p4i.ActionRef = { id };
  const annotations = p4infoAnnotations(ref.annotations);
  if (annotations.length > 0) message.annotations = annotations;
  if (ref.annotations.some((a) => a.name.text === 'tableonly')) message.scope = 'TABLE_ONLY';
  else if (ref.annotations.some((a) => a.name.text === 'defaultonly')) message.scope = 'DEFAULT_ONLY';
  return message;
}

/** The id of the action `default_action = a(args)` names. */
function defaultActionId(value: Expression, ctx: TableContext): number | undefined {
  const callee = value.kind === 'CallExpression' ? value.callee : value;
  const entity = ctx.resolve(callee);
  return entity?.kind === 'ActionDeclaration' ? (ctx.idOf(entity) ?? 0) : undefined;
}
