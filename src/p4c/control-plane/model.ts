/**
 * @fileoverview The control-plane view of a checked program: the V1Switch
 * blocks in package order, and in each the actions, tables, extern
 * instances and value sets with their fully qualified names, as p4c's
 * P4RuntimeSerializer finds them in its front end's output:
 *
 * - Sub-controls and sub-parsers are inlined (p4c's `Inline`): their objects
 *   sit in the enclosing top-level block, at the instance's place, named
 *   `Block.instance.object`.
 * - A top-level block's prefix is its type's declared name (an `@name` on the
 *   control type does not change it; p4c's sample
 *   name_annotations_to_p4info-bmv2.p4).
 * - Actions: only those a used table refers to (`actions`, `default_action`,
 *   entries) or an apply block calls. An action only other actions call is
 *   inlined into them (p4c's `InlineActions`) and then removed, so P4Info does
 *   not list it (sample crc32-bmv2.p4, `send_back`); it is kept apart in
 *   `calledActions` for the IR.
 * - Top-level actions a block uses (NoAction) are copied into the block
 *   (p4c's `LocalizeAllActions`) ahead of its own actions, in order of first
 *   use; an `@name` without a leading dot on one is prefixed with the block.
 * - Extern instances are never removed, used or not (p4c's
 *   `RemoveUnusedDeclarations`); those declared at the top level of the
 *   program come first, named without a prefix (sample issue1097-bmv2.p4).
 * - An action profile or selector constructed in a used table's
 *   `implementation` property is an extern instance at the table's place,
 *   named by the property's `@name` exactly as written, without the block's
 *   prefix (p4c's getExternInstanceFromProperty takes the property's
 *   controlPlaneName; the v1model handler adds the profile when it serializes
 *   the table; sample action_profile-bmv2.p4: `@name("ap")` in IngressI is
 *   `ap`). Without `@name` there is none: p4c refuses the program
 *   (check-control-plane reports it).
 * - Each instance of a sub-control has its own tables and actions, named
 *   `Block.instance.object` (p4c's Inline renames every table, action,
 *   instance and value set of the callee per instance: ComputeNewNames), so a
 *   control instantiated twice lists its actions twice, once per instance.
 * - Unused tables, actions and value sets are removed.
 */
import type {
  ActionDeclaration,
  ControlDeclaration,
  Declaration,
  Instantiation,
  ParserDeclaration,
  TableDeclaration,
  ValueSetDeclaration,
} from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { Program } from '../ast/program.js';
import type { ValueProperty } from '../ast/tables.js';
import { walk, type AstNode } from '../ast/walk.js';
import type { Entity } from '../semantics/scope.js';
import { controlPlaneName, nameAnnotation } from './names.js';

export interface BlockInstance {
  /** The instance path: `MyIngress`, or `TourIngress.floor` for a nested control. */
  readonly name: string;
  readonly decl: ParserDeclaration | ControlDeclaration;
}

export interface Named<T> {
  readonly name: string;
  readonly decl: T;
  readonly block: BlockInstance | null;
}

export interface ControlPlaneModel {
  /** The `main` instantiation, when there is one. */
  readonly main: Instantiation | null;
  readonly blocks: readonly BlockInstance[];
  /** The actions P4Info lists, in p4c's order. */
  readonly actions: readonly Named<ActionDeclaration>[];
  /** Actions the program uses only by calling them from other actions: not in P4Info, but the IR runs them. */
  readonly calledActions: readonly Named<ActionDeclaration>[];
  readonly tables: readonly Named<TableDeclaration>[];
  readonly externs: readonly Named<Instantiation>[];
  readonly valueSets: readonly Named<ValueSetDeclaration>[];
  /**
   * The instances constructed in a table property (`@name("ap") implementation
   * = action_profile(128)`), by the constructor call: an Instantiation made
   * here from the property (its annotations, the call's type and arguments,
   * the control-plane name as its name), also listed in `externs`.
   */
  readonly inPlaceExterns: ReadonlyMap<Expression, Instantiation>;
}

/** Models already collected, per program and reference table (the passes after check-control-plane reuse them). */
const collected = new WeakMap<Program, WeakMap<ReadonlyMap<AstNode, Entity>, ControlPlaneModel>>();

export function collectControlPlane(program: Program, refs: ReadonlyMap<AstNode, Entity>): ControlPlaneModel {
  const byRefs = collected.get(program) ?? new WeakMap<ReadonlyMap<AstNode, Entity>, ControlPlaneModel>();
  collected.set(program, byRefs);
  const known = byRefs.get(refs);
  if (known) return known;
  const model = collectUncached(program, refs);
  byRefs.set(refs, model);
  return model;
}

function collectUncached(program: Program, refs: ReadonlyMap<AstNode, Entity>): ControlPlaneModel {
  const main = program.declarations.find((d): d is Instantiation => d.kind === 'Instantiation' && d.name.text === 'main') ?? null;
  const model = {
    main,
    blocks: [] as BlockInstance[],
    actions: [] as Named<ActionDeclaration>[],
    calledActions: [] as Named<ActionDeclaration>[],
    tables: [] as Named<TableDeclaration>[],
    externs: [] as Named<Instantiation>[],
    valueSets: [] as Named<ValueSetDeclaration>[],
    inPlaceExterns: new Map<Expression, Instantiation>(),
  };
  const seenActions = new Set<ActionDeclaration>();
  const seenOwnActions = new Map<ActionDeclaration, Set<string>>();
  const topLevelActions = new Set(program.declarations.filter((d): d is ActionDeclaration => d.kind === 'ActionDeclaration'));
  const noAction = [...topLevelActions].find((a) => a.name.text === 'NoAction');

  // Extern instances at the top level: evaluated before `main`'s blocks, named without a prefix.
  for (const d of program.declarations) {
    if (d.kind !== 'Instantiation' || d === main) continue;
    if (instantiatedDeclaration(d, refs)?.kind === 'ExternDeclaration') model.externs.push({ name: controlPlaneName('', d.name.text, d.annotations), decl: d, block: null });
  }

  /** One top-level block with its sub-blocks inlined. */
  const visitTopBlock = (decl: ParserDeclaration | ControlDeclaration): void => {
    const prefix = decl.name.text;
    const ownActions: Named<ActionDeclaration>[] = [];
    const globalsUsed: ActionDeclaration[] = [];
    const direct = new Set<Entity>();
    const allUsed = new Set<Entity>();
    const noteDirect = (root: AstNode): void => {
      walk(root, (node) => {
        const target = refs.get(node);
        if (target?.kind !== 'ActionDeclaration') return;
        direct.add(target);
        if (topLevelActions.has(target) && !globalsUsed.includes(target)) globalsUsed.push(target);
      });
    };
    const applies: AstNode[] = [];

    const visitBlock = (block: BlockInstance, depth: number): void => {
      model.blocks.push(block);
      const used = reachable(block.decl, refs);
      for (const e of used) allUsed.add(e);
      if (block.decl.kind === 'ControlDeclaration') applies.push(block.decl.apply);
      for (const local of block.decl.locals) {
        const fqn = controlPlaneName(block.name, local.name.text, local.annotations);
        switch (local.kind) {
          case 'ActionDeclaration':
            if (used.has(local)) ownActions.push({ name: fqn, decl: local, block });
            break;
          case 'TableDeclaration': {
            if (!used.has(local)) break;
            model.tables.push({ name: fqn, decl: local, block });
            const profile = inPlaceImplementation(local, refs, model.inPlaceExterns);
            if (profile) model.externs.push({ name: profile.name.text, decl: profile, block });
            noteDirect(local);
            // A table without default_action gets `NoAction` as its default (p4c's front end adds it).
            if (noAction && !hasDefaultAction(local)) {
              direct.add(noAction);
              if (!globalsUsed.includes(noAction)) globalsUsed.push(noAction);
            }
            break;
          }
          case 'ValueSetDeclaration':
            if (used.has(local)) model.valueSets.push({ name: fqn, decl: local, block });
            break;
          case 'Instantiation': {
            const typeDecl = instantiatedDeclaration(local, refs);
            if (typeDecl?.kind === 'ExternDeclaration') model.externs.push({ name: fqn, decl: local, block });
            else if ((typeDecl?.kind === 'ControlDeclaration' || typeDecl?.kind === 'ParserDeclaration') && used.has(local) && depth < 8) {
              visitBlock({ name: fqn, decl: typeDecl }, depth + 1);
            }
            break;
          }
          default:
        }
      }
      // A control or parser applied by its type name (`E.apply(x)`) is an instance named after the type, in this block.
      const typeApplied = new Set<string>();
      walk(block.decl, (node) => {
        if (node.kind !== 'MemberExpression' || node.member.text !== 'apply' || node.target.kind !== 'TypeNameExpression' || node.target.type.kind !== 'NamedType' || depth >= 8) return;
        const target = refs.get(node.target.type);
        if ((target?.kind !== 'ControlDeclaration' && target?.kind !== 'ParserDeclaration') || typeApplied.has(target.name.text)) return;
        typeApplied.add(target.name.text);
        visitBlock({ name: `${block.name}.${target.name.text}`, decl: target }, depth + 1);
      });
    };
    visitBlock({ name: prefix, decl }, 0);
    for (const apply of applies) noteDirect(apply);

    const top = model.blocks.find((b) => b.decl === decl && b.name === prefix) ?? null;
    for (const action of globalsUsed) {
      if (!direct.has(action) || seenActions.has(action)) continue;
      seenActions.add(action);
      const given = nameAnnotation(action.annotations);
      const name = given === undefined ? action.name.text : given.startsWith('.') ? given.slice(1) : `${prefix}.${given}`;
      model.actions.push({ name, decl: action, block: top });
    }
    // Per block instance, not per declaration: each instance of a control has its own copy of its actions.
    for (const a of ownActions) {
      const instances = seenOwnActions.get(a.decl) ?? new Set<string>();
      if (instances.has(a.block?.name ?? '')) continue;
      seenOwnActions.set(a.decl, instances.add(a.block?.name ?? ''));
      (direct.has(a.decl) ? model.actions : model.calledActions).push(a);
    }
    // Top-level actions only other actions call: the IR still needs them.
    for (const action of topLevelActions) {
      if (allUsed.has(action) && !direct.has(action) && !seenActions.has(action) && !model.calledActions.some((c) => c.decl === action)) {
        model.calledActions.push({ name: controlPlaneName('', action.name.text, action.annotations), decl: action, block: top });
      }
    }
  };

  const visited = new Set<ParserDeclaration | ControlDeclaration>();
  if (main) {
    for (const arg of packageArguments(main, refs)) {
      const value = arg.value;
      if (value.kind !== 'ConstructorCallExpression') continue;
      const typeDecl = refs.get(value.type.kind === 'NamedType' ? value.type : value.type.base);
      if (typeDecl && (typeDecl.kind === 'ParserDeclaration' || typeDecl.kind === 'ControlDeclaration') && !visited.has(typeDecl)) {
        visited.add(typeDecl);
        visitTopBlock(typeDecl);
      }
    }
  }
  return model;
}

/** v1model's externs a table's `implementation` property may construct in place. */
const PROFILE_EXTERNS = ['action_profile', 'action_selector'];

/**
 * The action profile or selector `table` constructs in its `implementation`
 * property, as an instance (made once per constructor call and kept in
 * `made`), or undefined when there is none or the property has no `@name`.
 */
function inPlaceImplementation(table: TableDeclaration, refs: ReadonlyMap<AstNode, Entity>, made: Map<Expression, Instantiation>): Instantiation | undefined {
  const property = table.properties.find((p): p is ValueProperty => p.kind === 'ValueProperty' && p.name.text === 'implementation');
  const call = property?.value;
  if (!property || call?.kind !== 'ConstructorCallExpression') return undefined;
  const known = made.get(call);
  if (known) return known;
  const given = nameAnnotation(property.annotations);
  const extern = refs.get(call.type.kind === 'NamedType' ? call.type : call.type.base);
  if (given === undefined || extern?.kind !== 'ExternDeclaration' || !PROFILE_EXTERNS.includes(extern.name.text)) return undefined;
  const instance: Instantiation = {
    kind: 'Instantiation',
    span: call.span,
    annotations: property.annotations,
    type: call.type,
    args: call.args,
    name: { kind: 'Name', text: given.startsWith('.') ? given.slice(1) : given, span: property.name.span },
    initializer: null,
  };
  made.set(call, instance);
  return instance;
}

/** The declaration an instantiation's type names (an extern, parser or control). */
export function instantiatedDeclaration(inst: Instantiation, refs: ReadonlyMap<AstNode, Entity>): Declaration | undefined {
  const t = inst.type;
  const named = t.kind === 'NamedType' ? t : t.kind === 'SpecializedType' ? t.base : null;
  const entity = named ? refs.get(named) : undefined;
  return entity && 'kind' in entity && entity.kind !== 'BuiltinState' && entity.kind !== 'MatchKindMember' ? (entity as Declaration) : undefined;
}

export function hasDefaultAction(table: TableDeclaration): boolean {
  return table.properties.some((p) => p.kind === 'ValueProperty' && p.name.text === 'default_action');
}

/**
 * What a block really uses: everything its apply block, parser states and
 * variables refer to, then transitively what those tables, actions and
 * instances refer to. A table nobody applies keeps its actions out too.
 */
function reachable(block: ParserDeclaration | ControlDeclaration, refs: ReadonlyMap<AstNode, Entity>): Set<Entity> {
  const used = new Set<Entity>();
  const pending: AstNode[] = block.kind === 'ControlDeclaration' ? [block.apply] : [...block.states];
  for (const local of block.locals) if (local.kind === 'VariableDeclaration' || local.kind === 'ConstantDeclaration') pending.push(local);
  for (let steps = 0; pending.length > 0 && steps < 100_000; steps++) {
    walk(pending.pop()!, (node) => {
      const target = refs.get(node);
      if (!target || used.has(target)) return;
      used.add(target);
      if (target.kind === 'ActionDeclaration' || target.kind === 'TableDeclaration' || target.kind === 'Instantiation' || target.kind === 'FunctionDeclaration' || target.kind === 'ValueSetDeclaration') pending.push(target);
    });
  }
  return used;
}

/** The package's arguments in parameter order: named arguments (`p = MyParser()`) are placed by name. */
export function packageArguments(main: Instantiation, refs: ReadonlyMap<AstNode, Entity>): Instantiation['args'] {
  if (!main.args.some((a) => a.name)) return main.args;
  const pkg = instantiatedDeclaration(main, refs);
  if (pkg?.kind !== 'PackageTypeDeclaration') return main.args;
  return pkg.params.map((p) => main.args.find((a) => a.name?.text === p.name.text)).filter((a): a is Instantiation['args'][number] => a !== undefined);
}
