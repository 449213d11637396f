/**
 * @fileoverview A checked program (with its P4Info) to the IR document:
 * the V1Switch blocks with their parameters bound to the architecture's
 * storage (headers, metadata, standard_metadata), nested and directly
 * applied blocks, actions, tables, extern instances, user functions,
 * layouts and the deparser's emit order.
 */
import type * as p4i from '../../proto/p4i.js';
import type { ActionDeclaration, ControlDeclaration, Declaration, FunctionDeclaration, ParserDeclaration } from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { Program } from '../ast/program.js';
import { walk } from '../ast/walk.js';
import { collectControlPlane, instantiatedDeclaration, packageArguments } from '../control-plane/model.js';
import { controlPlaneName } from '../control-plane/names.js';
import type { ExpressionTyper } from '../semantics/expression-typer.js';
import type { Entity } from '../semantics/scope.js';
import { bitWidth } from '../semantics/p4-types.js';
import { printNode } from '../printer.js';
import type { SourceSpan } from '../source/span.js';
import { Layouts } from './layouts.js';
import { ExpressionLowering } from './lower-expressions.js';
import { StatementLowering } from './lower-statements.js';
import { TableLowering } from './lower-tables.js';
import { LoweringContext } from './lowering-context.js';
import { lowerParserStates } from './lower-parser.js';
import { IR_FORMAT, IR_VERSION, type IrAction, type IrBlock, type IrExpression, type IrExtern, type IrFunction, type IrProgram, type IrStatement, type IrTable, type IrValueSet } from './types.js';

/** The architecture storage each V1Switch block's parameters stand for, by position. */
const ROLES: readonly (readonly ('packet' | 'headers' | 'metadata' | 'standard_metadata')[])[] = [
  ['packet', 'headers', 'metadata', 'standard_metadata'],
  ['headers', 'metadata'],
  ['headers', 'metadata', 'standard_metadata'],
  ['headers', 'metadata', 'standard_metadata'],
  ['headers', 'metadata'],
  ['packet', 'headers'],
];
const PIPELINE_KEYS = ['parser', 'verifyChecksum', 'ingress', 'egress', 'computeChecksum', 'deparser'] as const;

export interface LowerOptions {
  readonly source: string;
  readonly onUnsupported: (node: { readonly span: SourceSpan }, what: string) => void;
  /** Whether a declaration comes from a library file (core.p4, v1model.p4). */
  readonly isLibrary?: (node: { readonly span: SourceSpan }) => boolean;
}

export function lowerToIr(program: Program, typer: ExpressionTyper, p4info: p4i.P4Info, options: LowerOptions): IrProgram {
  const layouts = new Layouts(typer.resolver.constants);
  const ctx = new LoweringContext(typer, layouts);
  ctx.unsupported = options.onUnsupported;
  if (options.isLibrary) ctx.isLibrary = options.isLibrary;
  for (const d of program.declarations) if (d.kind === 'ErrorDeclaration') for (const m of d.members) if (!ctx.errors.includes(m.text)) ctx.errors.push(m.text);
  const expressions = new ExpressionLowering(ctx);
  const model = collectControlPlane(program, typer.refs);
  const idByName = new Map<string, number>();
  for (const list of [p4info.tables, p4info.actions, p4info.counters, p4info.direct_counters, p4info.meters, p4info.direct_meters, p4info.registers, p4info.action_profiles, p4info.value_sets]) {
    for (const o of list ?? []) if (o.preamble?.name) idByName.set(`${o.preamble.name}`, o.preamble.id ?? 0);
  }
  const idOf = (name: string): number => idByName.get(name) ?? 0;
  for (const a of [...model.actions, ...model.calledActions]) ctx.names.set(a.decl, a.name);
  for (const t of model.tables) ctx.names.set(t.decl, t.name);
  for (const e of model.externs) ctx.names.set(e.decl, e.name);
  for (const v of model.valueSets) ctx.names.set(v.decl, v.name);
  const noAction = program.declarations.find((d): d is ActionDeclaration => d.kind === 'ActionDeclaration' && d.name.text === 'NoAction');
  const tables = new TableLowering(ctx, expressions, (_kind, name) => idOf(name), noAction, model.inPlaceExterns);
  const statementsIn = (scope: string): StatementLowering => new StatementLowering(ctx, expressions, scope);

  const out = { blocks: [] as IrBlock[], actions: [] as IrAction[], tables: [] as IrTable[], externs: [] as IrExtern[], functions: [] as IrFunction[] };
  // Architecture storage, typed from the parser's parameters: slots 0, 1, 2, before any other (the IR's contract).
  const mainArgs = model.main ? packageArguments(model.main, typer.refs) : [];
  const blockDecls = mainArgs.map((a) => (a.value.kind === 'ConstructorCallExpression' ? typer.refs.get(a.value.type.kind === 'NamedType' ? a.value.type : a.value.type.base) : undefined));
  const parserDecl = blockDecls[0]?.kind === 'ParserDeclaration' ? blockDecls[0] : undefined;
  const archSlots = new Map<string, number>();
  (['headers', 'metadata', 'standard_metadata'] as const).forEach((role, i) => {
    const param = parserDecl?.params[i + 1];
    archSlots.set(role, ctx.newSlot(role, role, param ? layouts.type(typer.entityType(param)) : { kind: 'void' }));
  });

  const loweredActions = new Set<string>();
  const lowerAction = (decl: ActionDeclaration): void => {
    const name = ctx.names.get(decl) ?? controlPlaneName('', decl.name.text, decl.annotations);
    // An action of a control instantiated twice is two actions, one per instance.
    if (loweredActions.has(name)) return;
    loweredActions.add(name);
    ctx.names.set(decl, name);
    out.actions.push(tables.action(decl, name, statementsIn));
  };
  // Top-level actions and functions are shared by every block that uses them.
  for (const d of program.declarations) {
    if (d.kind === 'ActionDeclaration' && ctx.names.has(d)) lowerAction(d);
    if (d.kind === 'FunctionDeclaration' && [...typer.refs.values()].includes(d)) out.functions.push(lowerFunction(d, ctx, statementsIn));
  }
  // What the control plane uses (the model's tables, actions, externs and value sets), whatever instance they sit in.
  const used = new Set<Entity>(ctx.names.keys());

  /**
   * One block instance: its sub-blocks first (each instance lowered on its own, as p4c inlines
   * them: `Block.instance.table`), then its own objects, named under `name`. `bound` gives the
   * instance each parameter of extern, control or parser type stands for here (from constructor
   * arguments, or from the arguments of the calls that apply this instance).
   */
  const lowered = new Set<string>();
  const lowerBlock = (decl: ParserDeclaration | ControlDeclaration, name: string, roles: readonly string[] | null, bound: ReadonlyMap<Entity, string>): void => {
    if (lowered.has(name)) return;
    lowered.add(name);
    const isTopLevel = (d: Entity): boolean => program.declarations.includes(d as Declaration);
    /** The instance an argument names, seen from this block. */
    const instanceOf = (e: Expression): string | undefined => {
      const entity = e.kind === 'PathExpression' ? typer.refs.get(e) : undefined;
      if (!entity) return undefined;
      if (bound.has(entity)) return bound.get(entity);
      if (entity.kind !== 'Instantiation') return undefined;
      return controlPlaneName(isTopLevel(entity) ? '' : name, entity.name.text, entity.annotations);
    };
    /** Binds `target`'s parameters of instance type from the arguments of every `applied.apply(...)` in this block. */
    const applyBindings = (target: ParserDeclaration | ControlDeclaration, applied: (callee: Expression) => boolean, into: Map<Entity, string>): void => {
      walk(decl, (node) => {
        if (node.kind !== 'CallExpression' || node.callee.kind !== 'MemberExpression' || node.callee.member.text !== 'apply' || !applied(node.callee.target)) return;
        node.args.forEach((arg, i) => {
          const param = arg.name ? target.params.find((p) => p.name.text === arg.name!.text) : target.params[i];
          const instance = param && !isPacket(typer, param) ? instanceOf(arg.value) : undefined;
          if (!param || instance === undefined) return;
          const before = into.get(param);
          if (before !== undefined && before !== instance) ctx.unsupported(arg.value, `applying '${target.name.text}' with different extern instances (${before}, ${instance})`);
          into.set(param, instance);
        });
      });
    };
    const children = new Map<Entity, string>();
    for (const local of decl.locals) {
      if (local.kind !== 'Instantiation') continue;
      const target = instantiatedDeclaration(local, typer.refs);
      if (target?.kind !== 'ControlDeclaration' && target?.kind !== 'ParserDeclaration') continue;
      const instName = controlPlaneName(name, local.name.text, local.annotations);
      const childBound = new Map<Entity, string>();
      target.constructorParams.forEach((p, i) => {
        const arg = local.args.find((a) => a.name?.text === p.name.text) ?? (local.args.some((a) => a.name) ? undefined : local.args[i]);
        if (!arg) return;
        const instance = instanceOf(arg.value);
        if (instance !== undefined) childBound.set(p, instance);
        else ctx.constructorArguments.set(p, arg.value);
      });
      applyBindings(target, (callee) => callee.kind === 'PathExpression' && typer.refs.get(callee) === local, childBound);
      lowerBlock(target, instName, null, childBound);
      children.set(local, instName);
    }
    // Controls and parsers applied directly by type name (`Stamp.apply(meta)`): an instance named after the type, as p4c makes one.
    walk(decl, (node) => {
      if (node.kind === 'MemberExpression' && node.target.kind === 'TypeNameExpression' && node.member.text === 'apply' && node.target.type.kind === 'NamedType') {
        const target = typer.refs.get(node.target.type);
        if (target?.kind !== 'ControlDeclaration' && target?.kind !== 'ParserDeclaration') return;
        const instName = `${name}.${target.name.text}`;
        const childBound = new Map<Entity, string>();
        applyBindings(target, (callee) => callee.kind === 'TypeNameExpression' && callee.type.kind === 'NamedType' && typer.refs.get(callee.type) === target, childBound);
        lowerBlock(target, instName, null, childBound);
        children.set(target, instName);
      }
    });

    // This instance's names: what its parameters stand for, its sub-blocks, its own objects.
    for (const [entity, instance] of [...bound, ...children]) ctx.names.set(entity, instance);
    for (const local of decl.locals) {
      if ((local.kind === 'ActionDeclaration' || local.kind === 'TableDeclaration' || local.kind === 'ValueSetDeclaration' || local.kind === 'Instantiation') && (used.has(local) || local.kind === 'Instantiation')) {
        if (!children.has(local)) ctx.names.set(local, controlPlaneName(name, local.name.text, local.annotations));
      }
    }
    const params = decl.params.map((p, i) => {
      const role = roles?.[i];
      let slot = -1;
      if (role && role !== 'packet') slot = archSlots.get(role)!;
      else if (!role && !isPacket(typer, p) && !bound.has(p)) slot = ctx.newSlot(`${name}.${p.name.text}`, 'block-parameter', layouts.type(typer.entityType(p)));
      if (slot >= 0) ctx.bindSlot(p, slot);
      return { name: p.name.text, direction: p.direction ?? ('none' as const), slot };
    });
    for (const p of decl.constructorParams) {
      if (!bound.has(p) && !ctx.constructorArguments.has(p)) ctx.newSlot(`${name}.${p.name.text}`, 'block-parameter', layouts.type(typer.entityType(p)), p);
    }
    const locals: IrStatement[] = [];
    const valueSets: IrValueSet[] = [];
    const statements = statementsIn(name);
    for (const local of decl.locals) {
      switch (local.kind) {
        case 'VariableDeclaration': locals.push(...statements.statement(local)); break;
        case 'ActionDeclaration': if (used.has(local)) lowerAction(local); break;
        case 'TableDeclaration': {
          if (!used.has(local)) break;
          out.tables.push(tables.table(local, ctx.names.get(local)!));
          // An action profile the table constructs in place: an instance of its own, named by the property's @name.
          const implementation = local.properties.find((p) => p.kind === 'ValueProperty' && p.name.text === 'implementation');
          const profile = implementation?.kind === 'ValueProperty' ? model.inPlaceExterns.get(implementation.value) : undefined;
          const profileName = profile && ctx.names.get(profile);
          if (profile && profileName !== undefined && !out.externs.some((e) => e.name === profileName)) {
            out.externs.push(lowerExtern(profile, profileName, instantiatedDeclaration(profile, typer.refs), ctx, idOf));
          }
          break;
        }
        case 'ValueSetDeclaration':
          if (used.has(local)) {
            const vsName = ctx.names.get(local)!;
            valueSets.push({ name: vsName, id: idOf(vsName), width: bitWidth(typer.entityType(local)) ?? 0, size: Number(typer.resolver.constants.integer(local.size) ?? 0n) });
          }
          break;
        case 'Instantiation':
          if (!children.has(local)) out.externs.push(lowerExtern(local, ctx.names.get(local)!, instantiatedDeclaration(local, typer.refs), ctx, idOf));
          break;
        default:
      }
    }
    const block: IrBlock = decl.kind === 'ControlDeclaration'
      ? { name, kind: 'control', params, locals, apply: statements.block(decl.apply.body), states: [], valueSets }
      : { name, kind: 'parser', params, locals, apply: [], states: lowerParserStates(decl, statements, expressions), valueSets };
    out.blocks.push(block);
  };
  const pipelineNames: string[] = [];
  blockDecls.forEach((decl, i) => {
    if (decl?.kind !== 'ParserDeclaration' && decl?.kind !== 'ControlDeclaration') return;
    const name = controlPlaneName('', decl.name.text, decl.annotations);
    pipelineNames[i] = name;
    lowerBlock(decl, name, ROLES[i]!, new Map());
  });
  const pipeline = Object.fromEntries(PIPELINE_KEYS.map((k, i) => [k, pipelineNames[i] ?? ''])) as IrProgram['pipeline'];
  const deparser = out.blocks.find((b) => b.name === pipeline.deparser);

  return {
    format: IR_FORMAT,
    version: IR_VERSION,
    architecture: 'v1model',
    source: options.source,
    headers: [...layouts.headers.values()],
    structs: [...layouts.structs.values()],
    enums: [...layouts.enums.values()],
    errors: ctx.errors,
    slots: ctx.slots,
    pipeline,
    blocks: out.blocks,
    actions: out.actions,
    tables: out.tables,
    externs: out.externs,
    functions: out.functions,
    deparserEmitOrder: deparser ? emitOrder(deparser.apply) : null,
  };
}

function isPacket(typer: ExpressionTyper, p: Parameters<ExpressionTyper['entityType']>[0]): boolean {
  const t = typer.entityType(p);
  return t.kind === 'extern' && (t.name === 'packet_in' || t.name === 'packet_out');
}

function lowerFunction(decl: FunctionDeclaration, ctx: LoweringContext, statementsIn: (scope: string) => StatementLowering): IrFunction {
  const params = decl.params.map((p) => ({
    name: p.name.text,
    slot: ctx.newSlot(`${decl.name.text}.${p.name.text}`, 'function-parameter', ctx.layouts.type(ctx.typer.entityType(p)), p),
    direction: p.direction ?? ('none' as const),
  }));
  return { name: decl.name.text, params, returnType: ctx.layouts.type(ctx.typer.resolver.resolve(decl.returnType)), body: statementsIn(decl.name.text).block(decl.body.body) };
}

function lowerExtern(inst: Extract<Declaration, { kind: 'Instantiation' }>, name: string, target: Declaration | undefined, ctx: LoweringContext, idOf: (name: string) => number): IrExtern {
  const type = target?.kind === 'ExternDeclaration' ? target.name.text : 'unknown';
  if (target?.kind === 'ExternDeclaration' && !ctx.isLibrary(target)) ctx.unsupportedExtern(inst, type);
  const t = ctx.typer.entityType(inst);
  const args = inst.args.map((a) => {
    const v = ctx.typer.resolver.constants.evaluate(a.value);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'boolean') return String(v);
    return a.value.kind === 'MemberExpression' ? a.value.member.text : printNode(a.value);
  });
  const sizeIndex = type === 'action_selector' ? 1 : ['counter', 'meter', 'register', 'action_profile'].includes(type) ? 0 : -1;
  const size = sizeIndex >= 0 && args[sizeIndex] !== undefined && /^\d+$/.test(args[sizeIndex]!) ? Number(args[sizeIndex]) : null;
  return { name, type, id: idOf(name), typeArgs: t.kind === 'extern' ? t.args.map((x) => ctx.layouts.type(x)) : [], args, size };
}

/** The emitted headers, when the deparser is nothing but `packet.emit(...)` calls. */
function emitOrder(body: readonly IrStatement[]): IrExpression[] | null {
  const order: IrExpression[] = [];
  for (const s of body) {
    if (s.kind !== 'call' || s.call.target.kind !== 'packet' || s.call.target.method !== 'emit' || !s.call.args[0]) return null;
    order.push(s.call.args[0].value);
  }
  return order;
}
