/**
 * @fileoverview The control-plane view of a checked program: the V1Switch
 * blocks in package order, and in each the actions, tables, extern
 * instances and value sets with their fully qualified names, as p4c's
 * P4RuntimeSymbolTable collects them. Only objects the program uses are
 * kept (p4c's front end removes unused declarations). Top-level actions a
 * block uses (NoAction) come first in that block, as p4c copies them in.
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
import type { Program } from '../ast/program.js';
import { walk, type AstNode } from '../ast/walk.js';
import type { Entity } from '../semantics/scope.js';
import { controlPlaneName } from './names.js';

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
  readonly actions: readonly Named<ActionDeclaration>[];
  readonly tables: readonly Named<TableDeclaration>[];
  readonly externs: readonly Named<Instantiation>[];
  readonly valueSets: readonly Named<ValueSetDeclaration>[];
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
  const model = { main, blocks: [] as BlockInstance[], actions: [] as Named<ActionDeclaration>[], tables: [] as Named<TableDeclaration>[], externs: [] as Named<Instantiation>[], valueSets: [] as Named<ValueSetDeclaration>[] };
  const seenActions = new Set<ActionDeclaration>();
  const topLevelActions = program.declarations.filter((d): d is ActionDeclaration => d.kind === 'ActionDeclaration');

  const addAction = (name: string, decl: ActionDeclaration, block: BlockInstance | null): void => {
    // A top-level action (NoAction) used by several blocks is one object; two declarations sharing a name are two (and an error).
    if (seenActions.has(decl)) return;
    seenActions.add(decl);
    model.actions.push({ name, decl, block });
  };

  const visitBlock = (decl: Declaration | undefined, name: string, depth: number): void => {
    if (!decl || depth > 8 || (decl.kind !== 'ParserDeclaration' && decl.kind !== 'ControlDeclaration')) return;
    const block: BlockInstance = { name, decl };
    model.blocks.push(block);
    const used = reachable(decl, refs);
    const referencedHere = used;
    // A table without default_action gets `NoAction` as its default (p4c's front end adds it).
    const needsNoAction = decl.locals.some((l) => l.kind === 'TableDeclaration' && used.has(l) && !hasDefaultAction(l));
    for (const action of topLevelActions) if (referencedHere.has(action) || (needsNoAction && action.name.text === 'NoAction')) addAction(controlPlaneName('', action.name.text, action.annotations), action, block);
    for (const local of decl.locals) {
      if (!used.has(local)) continue;
      const fqn = controlPlaneName(name, local.name.text, local.annotations);
      switch (local.kind) {
        case 'ActionDeclaration': addAction(fqn, local, block); break;
        case 'TableDeclaration': model.tables.push({ name: fqn, decl: local, block }); break;
        case 'ValueSetDeclaration': model.valueSets.push({ name: fqn, decl: local, block }); break;
        case 'Instantiation': {
          const typeDecl = instantiatedDeclaration(local, refs);
          if (typeDecl?.kind === 'ExternDeclaration') model.externs.push({ name: fqn, decl: local, block });
          else visitBlock(typeDecl, fqn, depth + 1);
          break;
        }
        default:
      }
    }
  };

  if (main) {
    for (const arg of packageArguments(main, refs)) {
      const value = arg.value;
      if (value.kind !== 'ConstructorCallExpression') continue;
      const typeDecl = refs.get(value.type.kind === 'NamedType' ? value.type : value.type.base);
      if (typeDecl && (typeDecl.kind === 'ParserDeclaration' || typeDecl.kind === 'ControlDeclaration')) {
        visitBlock(typeDecl, controlPlaneName('', typeDecl.name.text, typeDecl.annotations), 0);
      }
    }
  }
  return model;
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
