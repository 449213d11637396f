/**
 * @fileoverview Builds the P4Info of a checked program as p4c does: symbols
 * from the V1Switch blocks (tables, actions, v1model externs, value sets),
 * digests named after their struct, controller headers from
 * `@controller_header`, then ids, aliases and the messages.
 */
import type * as p4i from '../../proto/p4i.js';
import type { ActionDeclaration, Instantiation, StructLikeDeclaration } from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { Program } from '../ast/program.js';
import { walk, type AstNode } from '../ast/walk.js';
import { annotationBodyText, findAnnotation } from '../ast/annotations.js';
import { collectControlPlane, instantiatedDeclaration, type BlockInstance, type ControlPlaneModel, type Named } from '../control-plane/model.js';
import { controlPlaneName, documentation, isHidden, nameAnnotation, p4infoAnnotations } from '../control-plane/names.js';
import type { Annotation } from '../ast/annotations.js';
import type { ExpressionTyper } from '../semantics/expression-typer.js';
import { bitWidth, type P4Type } from '../semantics/p4-types.js';
import type { Entity } from '../semantics/scope.js';
import { externMessages, EXTERN_KINDS, type ExternKind } from './externs.js';
import { fieldIds, SymbolTable } from './symbols.js';
import { tableMessage } from './tables.js';
import { namedBitwidth, newTypeInfo, typeControlPlaneName, typeInfoMessage, typeSpec, type TypeInfoBuilder } from './type-spec.js';

export function buildP4Info(program: Program, typer: ExpressionTyper): p4i.P4Info {
  const refs = typer.refs;
  const full = collectControlPlane(program, refs);
  // @hidden tables and actions are left out of P4Info (p4c's isHidden).
  const model = { ...full, tables: full.tables.filter((t) => !isHidden(t.decl.annotations)), actions: full.actions.filter((a) => !isHidden(a.decl.annotations)) };
  const symbols = new SymbolTable();
  const externs: { named: Named<Instantiation>; kind: ExternKind; type: P4Type }[] = [];
  for (const named of model.externs) {
    const decl = instantiatedDeclaration(named.decl, refs);
    const kind = decl?.kind === 'ExternDeclaration' ? EXTERN_KINDS[decl.name.text] : undefined;
    if (kind) externs.push({ named, kind, type: typer.entityType(named.decl) });
  }
  const digests = collectDigests(full, typer);
  const controllerHeaders = program.declarations.filter(
    (d): d is StructLikeDeclaration => d.kind === 'HeaderDeclaration' && findAnnotation(d.annotations, 'controller_header') !== undefined,
  );

  const inPlace = new Set(model.inPlaceExterns.values());
  for (const t of model.tables) symbols.add('TABLE', t.name, t.decl.annotations);
  for (const a of model.actions) symbols.add('ACTION', a.name, a.decl.annotations);
  // p4c adds an instance constructed in a table property by its name only: an @id on the property is not used.
  for (const e of externs) symbols.add(e.kind.symbol, e.named.name, inPlace.has(e.named.decl) ? [] : e.named.decl.annotations);
  for (const v of model.valueSets) symbols.add('VALUE_SET', v.name, v.decl.annotations);
  for (const d of digests) symbols.add('DIGEST', d.name, []);
  for (const h of controllerHeaders) symbols.add('CONTROLLER_HEADER', controlPlaneName('', h.name.text, h.annotations), h.annotations, controllerHeaderName(h));
  symbols.finish();

  // Ids by declaration within each block instance (a control instantiated twice has two of each of
  // its tables, actions and externs), then program-wide for what a block uses from the top level.
  const idsIn = new Map<string, Map<Entity, number>>();
  const anywhere = new Map<Entity, number>();
  const noteId = (block: BlockInstance | null, decl: Entity, id: number): void => {
    const key = block?.name ?? '';
    idsIn.set(key, (idsIn.get(key) ?? new Map<Entity, number>()).set(decl, id));
    anywhere.set(decl, id);
  };
  for (const t of model.tables) noteId(t.block, t.decl, symbols.id('TABLE', t.name));
  for (const a of model.actions) noteId(a.block, a.decl, symbols.id('ACTION', a.name));
  for (const e of externs) noteId(e.named.block, e.named.decl, symbols.id(e.kind.symbol, e.named.name));
  const idIn = (block: BlockInstance | null) => (decl: Entity): number | undefined => idsIn.get(block?.name ?? '')?.get(decl) ?? anywhere.get(decl);
  /** The instance a table property names or constructs. */
  const instanceIn = (value: Expression): Entity | undefined => refs.get(value) ?? model.inPlaceExterns.get(value);

  const preamble = (id: number, name: string, annotations: string[], docOf: readonly Annotation[] = []): p4i.Preamble => {
    const p: p4i.Preamble = { id, name, alias: symbols.alias(name) };
    if (annotations.length > 0) p.annotations = annotations;
    const doc = documentation(docOf);
    if (doc) p.doc = doc;
    return p;
  };
  const errorMembers: string[] = [];
  for (const d of program.declarations) if (d.kind === 'ErrorDeclaration') for (const m of d.members) if (!errorMembers.includes(m.text)) errorMembers.push(m.text);
  const typeInfo = newTypeInfo((value) => typer.resolver.constants.integer(value), errorMembers);
  const noAction = model.actions.find((a) => a.name === 'NoAction')?.decl;
  const info: p4i.P4Info = { pkg_info: pkgInfo(model.main) };

  info.tables = model.tables.map((t) =>
    tableMessage(t.decl, preamble(symbols.id('TABLE', t.name), t.name, p4infoAnnotations(t.decl.annotations), t.decl.annotations), {
      resolve: instanceIn, types: typer.types, constants: typer.resolver.constants, idOf: idIn(t.block), noAction, typeInfo,
    }),
  );
  info.actions = model.actions.map((a) => actionMessage(a, preamble, symbols, typer, typeInfo));
  // The tables of the same block instance (any, for an instance declared at the top level).
  const tableIdsUsing = (extern: Named<Instantiation>, property: string): number[] =>
    model.tables
      .filter((t) => extern.block === null || t.block?.name === extern.block.name)
      .filter((t) => t.decl.properties.some((p) => p.kind === 'ValueProperty' && p.name.text === property && instanceIn(p.value) === extern.decl))
      .map((t) => symbols.id('TABLE', t.name));
  Object.assign(info, externMessages(externs, { preamble, symbols, typer, typeInfo, tableIdsUsing }));
  if (controllerHeaders.length > 0) {
    info.controller_packet_metadata = controllerHeaders.map((h) => {
      const type = typer.resolver.structLike(h);
      const fields = type.kind === 'header' ? type.fields : [];
      return {
        preamble: preamble(symbols.id('CONTROLLER_HEADER', controlPlaneName('', h.name.text, h.annotations)), controllerHeaderName(h), p4infoAnnotations(h.annotations), h.annotations),
        metadata: controllerMetadata(h, fields, typeInfo),
      };
    });
  }
  if (model.valueSets.length > 0) {
    info.value_sets = model.valueSets.map((v) => {
      const size = typer.resolver.constants.integer(v.decl.size);
      return {
        preamble: preamble(symbols.id('VALUE_SET', v.name), v.name, p4infoAnnotations(v.decl.annotations), v.decl.annotations),
        match: valueSetMatch(typer.entityType(v.decl)),
        size: size === undefined ? 0 : Number(size),
      };
    });
  }
  if (digests.length > 0) {
    info.digests = digests.map((d) => ({ preamble: preamble(symbols.id('DIGEST', d.name), d.name, []), type_spec: typeSpec(d.type, typeInfo) }));
  }
  info.type_info = typeInfoMessage(typeInfo);
  return info;
}

const VALUE_SET_MATCH: Readonly<Record<string, p4i._p4_config_v1_MatchField_MatchType>> = {
  exact: 'EXACT', lpm: 'LPM', ternary: 'TERNARY', range: 'RANGE', optional: 'OPTIONAL',
};

/**
 * A value set's match fields as p4c writes them: `bit<W>` is one unnamed EXACT
 * field; a struct gives one per field (ids by p4c's FieldIdAllocator, `@name`
 * honoured, the match kind from `@match(kind)`, EXACT by default); a
 * serializable enum one EXACT field per member.
 */
function valueSetMatch(type: P4Type): p4i.MatchField[] {
  if (type.kind === 'struct' && type.decl) {
    const decls = type.fields.map((f) => type.decl!.fields.find((d) => d.name.text === f.name));
    const ids = fieldIds(decls.map((d) => d?.annotations ?? []));
    return type.fields.map((f, i) => {
      const annotations = decls[i]?.annotations ?? [];
      const field: p4i.MatchField = { id: ids[i]!, name: nameAnnotation(annotations) ?? f.name, bitwidth: bitWidth(f.type) ?? 0 };
      const listed = p4infoAnnotations(annotations.filter((a) => a.name.text !== 'match'));
      if (listed.length > 0) field.annotations = listed;
      const matchAnnotation = annotations.find((a) => a.name.text === 'match');
      const kind = matchAnnotation ? annotationBodyText(matchAnnotation).trim() : 'exact';
      if (VALUE_SET_MATCH[kind]) field.match_type = VALUE_SET_MATCH[kind];
      else field.other_match_type = kind;
      const doc = documentation(annotations);
      if (doc) field.doc = doc;
      return field;
    });
  }
  if (type.kind === 'enum' && type.underlying) {
    return type.members.map((m, i) => ({ id: i + 1, name: m, bitwidth: type.underlying!.width, match_type: 'EXACT' }));
  }
  return [{ id: 1, bitwidth: bitWidth(type) ?? 0, match_type: 'EXACT' }];
}

/** The fields of a controller header: ids by p4c's FieldIdAllocator (`@id` kept), `@hidden` ones left out, `@name` honoured. */
function controllerMetadata(h: StructLikeDeclaration, fields: readonly { name: string; type: P4Type }[], typeInfo: TypeInfoBuilder): p4i._p4_config_v1_ControllerPacketMetadata_Metadata[] {
  const decls = fields.map((f) => h.fields.find((d) => d.name.text === f.name));
  const ids = fieldIds(decls.map((d) => d?.annotations ?? []));
  const out: p4i._p4_config_v1_ControllerPacketMetadata_Metadata[] = [];
  fields.forEach((f, i) => {
    const annotations = decls[i]?.annotations ?? [];
    if (isHidden(annotations)) return;
    const m: p4i._p4_config_v1_ControllerPacketMetadata_Metadata = { id: ids[i]!, name: nameAnnotation(annotations) ?? f.name };
    const listed = p4infoAnnotations(annotations);
    if (listed.length > 0) m.annotations = listed;
    Object.assign(m, namedBitwidth(f.type, typeInfo));
    out.push(m);
  });
  return out;
}

/**
 * pkg_info as p4c's addPkgInfo writes it: `arch`, the `@pkginfo(name = "…",
 * version = "…", organization, contact, url, arch)` keys of the `main`
 * instance, its other annotations and its @brief/@description.
 */
function pkgInfo(main: Instantiation | null): p4i.PkgInfo {
  const out: p4i.PkgInfo = { arch: 'v1model' };
  if (!main) return out;
  for (const a of main.annotations) {
    if (a.name.text !== 'pkginfo') continue;
    const pairs: [string, string][] = [];
    if (a.body.kind === 'KeyValueList') {
      for (const p of a.body.pairs) if (p.value.kind === 'StringLiteral') pairs.push([p.name.text, p.value.value]);
    } else if (a.body.kind === 'Unparsed') {
      const tokens = a.body.tokens;
      for (let i = 0; i + 2 < tokens.length; i++) {
        if (tokens[i + 1]!.text !== '=' || !tokens[i + 2]!.text.startsWith('"')) continue;
        pairs.push([tokens[i]!.text, tokens[i + 2]!.text.slice(1, -1)]);
        i += 2;
      }
    }
    for (const [key, value] of pairs) if (['name', 'version', 'organization', 'contact', 'url', 'arch'].includes(key)) Object.assign(out, { [key]: value });
  }
  const annotations = p4infoAnnotations(main.annotations.filter((a) => a.name.text !== 'pkginfo'));
  if (annotations.length > 0) out.annotations = annotations;
  const doc = documentation(main.annotations);
  if (doc) out.doc = doc;
  return out;
}

function controllerHeaderName(h: StructLikeDeclaration): string {
  const body = annotationBodyText(findAnnotation(h.annotations, 'controller_header')!).trim();
  return body.startsWith('"') && body.endsWith('"') ? body.slice(1, -1) : h.name.text;
}

function actionMessage(
  a: Named<ActionDeclaration>,
  preamble: (id: number, name: string, annotations: string[], docOf?: readonly Annotation[]) => p4i.Preamble,
  symbols: SymbolTable,
  typer: ExpressionTyper,
  typeInfo: TypeInfoBuilder,
): p4i.Action {
  const annotations = p4infoAnnotations(a.decl.annotations);
  const message: p4i.Action = { preamble: preamble(symbols.id('ACTION', a.name), a.name, annotations, a.decl.annotations) };
  const params = a.decl.params.filter((p) => p.direction === null);
  if (params.length > 0) {
    const ids = fieldIds(params.map((p) => p.annotations));
    message.params = params.map((p, i) => {
      const param: p4i._p4_config_v1_Action_Param = { id: ids[i]!, name: nameAnnotation(p.annotations) ?? p.name.text };
      const annotations = p4infoAnnotations(p.annotations);
      if (annotations.length > 0) param.annotations = annotations;
      const doc = documentation(p.annotations);
      if (doc) param.doc = doc;
      const { bitwidth, type_name } = namedBitwidth(typer.entityType(p), typeInfo);
      param.bitwidth = bitwidth;
      if (type_name) param.type_name = type_name;
      return param;
    });
  }
  return message;
}

/**
 * `digest<T>(receiver, data)` calls, one digest per struct type, in the order
 * p4c's analyzeControl meets them: per top-level control, the bodies of its
 * listed actions (an action or function they call being inlined where it is
 * called), then its apply block (sub-controls' apply blocks after it).
 * Unused actions, removed by p4c's front end, contribute nothing.
 */
function collectDigests(model: ControlPlaneModel, typer: ExpressionTyper): { name: string; type: P4Type }[] {
  const found = new Map<string, P4Type>();
  const visiting = new Set<AstNode>();
  const scan = (root: AstNode): void => {
    if (visiting.has(root)) return;
    visiting.add(root);
    walk(root, (node) => {
      if (node.kind !== 'CallExpression' || node.callee.kind !== 'PathExpression') return;
      const target = typer.refs.get(node.callee);
      // Actions called from actions and functions are inlined by p4c's front end: their calls count where they are called.
      if (target?.kind === 'ActionDeclaration' || target?.kind === 'FunctionDeclaration') {
        scan(target.body);
        return;
      }
      if (target?.kind !== 'ExternFunctionDeclaration' || target.name.text !== 'digest') return;
      const type = node.typeArgs[0] ? typer.resolver.resolve(node.typeArgs[0]) : node.args[1] ? typer.types.get(node.args[1].value) : undefined;
      if (type && (type.kind === 'struct' || type.kind === 'header') && !found.has(typeControlPlaneName(type))) found.set(typeControlPlaneName(type), type);
    });
    visiting.delete(root);
  };
  const topOf = (block: BlockInstance | null): string | undefined => block?.name.split('.')[0];
  const tops = [...new Set(model.blocks.map((b) => topOf(b)!))];
  for (const top of tops) {
    for (const a of model.actions) if (topOf(a.block) === top) scan(a.decl.body);
    for (const b of model.blocks) if (topOf(b) === top && b.decl.kind === 'ControlDeclaration') scan(b.decl.apply);
  }
  return [...found].map(([name, type]) => ({ name, type }));
}
