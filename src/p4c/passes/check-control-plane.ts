/**
 * @fileoverview The check-control-plane pass: table properties (known,
 * not repeated, `actions` present, `default_action` in the list with its
 * control-plane arguments and not @tableonly, entries' actions in the list,
 * `counters`/`meters`/`implementation` naming the right extern, a direct
 * resource on one table only), the `main` V1Switch instantiation, and
 * control-plane names used twice.
 */
import type { ActionDeclaration, ControlDeclaration, Instantiation, ParserDeclaration, TableDeclaration } from '../ast/declarations.js';
import type { ConstructorCallExpression, Expression } from '../ast/expressions.js';
import type { ActionReference, KeyProperty, ValueProperty } from '../ast/tables.js';
import type { AstNode } from '../ast/walk.js';
import { collectControlPlane, instantiatedDeclaration, packageArguments } from '../control-plane/model.js';
import { REFERENCES } from '../semantics/side-tables.js';
import type { Entity } from '../semantics/scope.js';
import type { CompileContext } from './context.js';
import type { Pass } from './pass-manager.js';
import { typerFor } from './type-check.js';
import { typeName, underlying } from '../semantics/p4-types.js';
import { nameAnnotation } from '../control-plane/names.js';
import { printNode } from '../printer.js';
import { keyName } from '../p4info/key-names.js';

const KNOWN_PROPERTIES = new Set(['key', 'actions', 'default_action', 'entries', 'size', 'counters', 'meters', 'implementation', 'support_timeout']);
const RESOURCE_PROPERTIES: Readonly<Record<string, readonly string[]>> = {
  counters: ['direct_counter'],
  meters: ['direct_meter'],
  implementation: ['action_profile', 'action_selector'],
};
/** Each V1Switch block's parameters, by what they stand for. */
const ROLES: readonly { readonly name: string; readonly params: readonly string[] }[] = [
  { name: 'parser', params: ['packet_in', 'headers', 'metadata', 'standard_metadata'] },
  { name: 'verify-checksum control', params: ['headers', 'metadata'] },
  { name: 'ingress control', params: ['headers', 'metadata', 'standard_metadata'] },
  { name: 'egress control', params: ['headers', 'metadata', 'standard_metadata'] },
  { name: 'compute-checksum control', params: ['headers', 'metadata'] },
  { name: 'deparser', params: ['packet_out', 'headers'] },
];
const BLOCK_KINDS = ['ParserDeclaration', 'ControlDeclaration', 'ControlDeclaration', 'ControlDeclaration', 'ControlDeclaration', 'ControlDeclaration'];

export const checkControlPlanePass: Pass = {
  name: 'check-control-plane',
  run: (program, context) => {
    const refs = context.table(REFERENCES);
    const model = collectControlPlane(program, refs);
    checkMain(model.main, refs, context);
    const owners = new Map<Entity, string>();
    // Once per declaration: a control instantiated twice lists its tables and actions once per instance.
    for (const table of new Set(model.tables.map((t) => t.decl))) checkTable(table, refs, context, owners);
    for (const action of new Set(model.actions.map((a) => a.decl))) checkActionDataTypes(action, context);
    const seen = new Map<string, string>();
    const named = [
      ...model.tables.map((t) => ['table', t.name] as const),
      ...model.actions.map((a) => ['action', a.name] as const),
      ...model.externs.map((e) => ['extern', e.name] as const),
    ];
    const spans = [...model.tables, ...model.actions, ...model.externs].map((x) => x.decl.name.span);
    named.forEach(([kind, name], i) => {
      const key = `${kind}:${name}`;
      if (seen.has(key)) context.diagnostics.report('DuplicateControlPlaneName', spans[i]!, [name]);
      seen.set(key, name);
    });
  },
};

function checkMain(main: Instantiation | null, refs: ReadonlyMap<AstNode, Entity>, context: CompileContext): void {
  if (!main) {
    context.diagnostics.report('NoMain', null);
    return;
  }
  const pkg = instantiatedDeclaration(main, refs);
  if (pkg?.kind !== 'PackageTypeDeclaration' || pkg.name.text !== 'V1Switch') {
    context.diagnostics.report('UnsupportedSyntax', main.type.span, ['packages other than v1model\'s V1Switch']);
    return;
  }
  const args = packageArguments(main, refs);
  if (args.length !== 6) {
    context.diagnostics.report('BadMain', main.span, [`it has ${args.length} argument(s) matching V1Switch's parameters, not 6`]);
    return;
  }
  const typer = typerFor(context);
  const agreed: { headers?: string; metadata?: string } = {};
  args.forEach((arg, i) => {
    const v = arg.value;
    const decl = v.kind === 'ConstructorCallExpression' ? refs.get(v.type.kind === 'NamedType' ? v.type : v.type.base) : undefined;
    if (!decl || decl.kind !== BLOCK_KINDS[i]) {
      context.diagnostics.report('BadMain', v.span, [`argument ${i + 1} must be a ${i === 0 ? 'parser' : 'control'} instance`]);
      return;
    }
    const params = (decl as ParserDeclaration | ControlDeclaration).params;
    const role = ROLES[i]!;
    if (params.length !== role.params.length) {
      context.diagnostics.report('BadMain', v.span, [`the ${role.name} must have ${role.params.length} parameters (${role.params.join(', ')}), '${(decl as ParserDeclaration).name.text}' has ${params.length}`]);
      return;
    }
    // Every block must see the same headers and metadata types (V1Switch<H, M>).
    role.params.forEach((kind, j) => {
      if (kind !== 'headers' && kind !== 'metadata') return;
      const type = typeName(typer.entityType(params[j]!));
      const first = agreed[kind];
      if (first === undefined) agreed[kind] = type;
      else if (first !== type) context.diagnostics.report('BadMain', v.span, [`the ${role.name}'s ${kind} type is ${type}, but the parser's is ${first}`]);
    });
  });
}

function checkTable(table: TableDeclaration, refs: ReadonlyMap<AstNode, Entity>, context: CompileContext, owners: Map<Entity, string>): void {
  const d = context.diagnostics;
  const seen = new Set<string>();
  let actions: readonly ActionReference[] | null = null;
  for (const p of table.properties) {
    const name = p.kind === 'KeyProperty' ? 'key' : p.kind === 'ActionsProperty' ? 'actions' : p.kind === 'EntriesProperty' ? 'entries' : p.name.text;
    const span = p.kind === 'ValueProperty' ? p.name.span : p.span;
    if (seen.has(name)) d.report('DuplicateTableProperty', span, [name]);
    seen.add(name);
    if (!KNOWN_PROPERTIES.has(name)) d.report('UnknownTableProperty', span, [name]);
    if (p.kind === 'ActionsProperty') actions = p.actions;
    if (p.kind === 'KeyProperty') checkKeyTypes(p, context);
  }
  if (!actions) {
    d.report('TableWithoutActions', table.name.span, [table.name.text]);
    return;
  }
  const listed = new Map<Entity, ActionReference>();
  for (const ref of actions) {
    const entity = refs.get(ref.action);
    if (entity) listed.set(entity, ref);
  }
  for (const p of table.properties) {
    if (p.kind === 'ValueProperty' && p.name.text === 'default_action') checkDefault(table, p.value, listed, refs, context);
    if (p.kind === 'ValueProperty' && RESOURCE_PROPERTIES[p.name.text]) {
      const wanted = RESOURCE_PROPERTIES[p.name.text]!;
      if (p.value.kind === 'ConstructorCallExpression') {
        checkInPlace(table, p, p.value, wanted, refs, context);
        continue;
      }
      const entity = p.value.kind === 'PathExpression' ? refs.get(p.value) : undefined;
      const decl = entity?.kind === 'Instantiation' ? instantiatedDeclaration(entity, refs) : undefined;
      if (decl?.kind !== 'ExternDeclaration' || !wanted.includes(decl.name.text)) {
        d.report('NotDirectResource', p.value.span, [p.name.text, table.name.text, wanted.join(' or ')]);
      } else if (p.name.text !== 'implementation' && entity) {
        const owner = owners.get(entity);
        if (owner !== undefined && owner !== table.name.text) d.report('DirectResourceShared', p.value.span, [decl.name.text, entity.kind === 'Instantiation' ? entity.name.text : '']);
        owners.set(entity, table.name.text);
      }
    }
    if (p.kind === 'EntriesProperty') {
      for (const entry of p.entries) {
        const entity = refs.get(entry.action.action);
        if (entity && !listed.has(entity)) d.report('ActionNotInTable', entry.action.action.span, [entry.action.action.path.name.text, table.name.text]);
      }
    }
  }
}

/**
 * An extern constructed in the property itself. For `implementation`, p4c
 * accepts an action profile or selector with a `@name` on the property (the
 * instance's control-plane name) and refuses one without ("anonymous table
 * property ... not supported by P4Runtime"). In-place direct counters and
 * meters stay unsupported here (p4c-bm2-ss refuses an in-place meter; an
 * in-place counter is not implemented by us).
 */
function checkInPlace(table: TableDeclaration, p: ValueProperty, call: ConstructorCallExpression, wanted: readonly string[], refs: ReadonlyMap<AstNode, Entity>, context: CompileContext): void {
  if (p.name.text !== 'implementation') {
    context.diagnostics.report('UnsupportedSyntax', call.span, [`an extern instantiated inside the '${p.name.text}' property; declare it in the control and name it here`]);
    return;
  }
  const decl = refs.get(call.type.kind === 'NamedType' ? call.type : call.type.base);
  if (decl?.kind !== 'ExternDeclaration' || !wanted.includes(decl.name.text)) context.diagnostics.report('NotDirectResource', call.span, [p.name.text, table.name.text, wanted.join(' or ')]);
  else if (nameAnnotation(p.annotations) === undefined) context.diagnostics.report('AnonymousTableProperty', p.name.span, [table.name.text, p.name.text]);
}

/**
 * A match field needs a bitwidth in P4Info. An enum without an underlying
 * type has none: p4c's P4Runtime serializer reports "width not well-defined"
 * for it (v1model/BMv2 serialize P4Info before the mid end maps enums to
 * bit<32>), so we reject it too rather than emit a field our switch refuses.
 */
function checkKeyTypes(key: KeyProperty, context: CompileContext): void {
  const typer = typerFor(context);
  const types = typer.types;
  for (const element of key.elements) {
    // p4c's TableKeyNames names every key element (selector ones too) or refuses it.
    if (nameAnnotation(element.annotations) === undefined && keyName(element.expression, types, typer.resolver.constants) === undefined) {
      context.diagnostics.report('KeyNeedsName', element.expression.span, [printNode(element.expression)]);
    }
    if (element.matchKind.text === 'selector') continue;
    const type = types.get(element.expression);
    const u = type && underlying(type);
    if (u?.kind === 'enum' && u.underlying === null) {
      const name = nameAnnotation(element.annotations) ?? printNode(element.expression);
      context.diagnostics.report('KeyWithoutWidth', element.expression.span, [name, u.name]);
    }
  }
}

/**
 * Action data needs a bitwidth too. p4c does accept an enum without an
 * underlying type here (no bitwidth, `type_name` = the enum), but our switch
 * cannot install such a P4Info, so this is rejected at compile time instead.
 */
function checkActionDataTypes(action: ActionDeclaration, context: CompileContext): void {
  const typer = typerFor(context);
  for (const param of action.params) {
    if (param.direction !== null) continue;
    const u = underlying(typer.entityType(param));
    if (u.kind === 'enum' && u.underlying === null) context.diagnostics.report('ActionDataWithoutWidth', param.name.span, [param.name.text, action.name.text, u.name]);
  }
}

function checkDefault(table: TableDeclaration, value: Expression, listed: Map<Entity, ActionReference>, refs: ReadonlyMap<AstNode, Entity>, context: CompileContext): void {
  const callee = value.kind === 'CallExpression' ? value.callee : value;
  if (callee.kind !== 'PathExpression') return;
  const entity = refs.get(callee);
  if (!entity) return;
  const ref = listed.get(entity);
  if (!ref) {
    context.diagnostics.report('DefaultActionNotInTable', callee.span, [callee.path.name.text, table.name.text]);
    return;
  }
  if (ref.annotations.some((a) => a.name.text === 'tableonly')) context.diagnostics.report('DefaultActionScope', callee.span, [callee.path.name.text, table.name.text]);
  if (entity.kind === 'ActionDeclaration' && value.kind === 'PathExpression' && entity.params.some((p) => p.direction === null)) {
    context.diagnostics.report('ActionRequiresArguments', value.span, [entity.name.text, entity.params.filter((p) => p.direction === null).length]);
  }
}
