/**
 * @fileoverview The type-check pass: gives every expression a type (side
 * table TYPES) with width inference, and checks assignments, conditions,
 * calls, select keysets, table keys, entries and action references.
 */
import type { ActionDeclaration, ControlDeclaration, Declaration, Instantiation, ParserDeclaration, SelectExpression, TableDeclaration } from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import { walk } from '../ast/walk.js';
import type { Program } from '../ast/program.js';
import type { FunctionDeclaration, StatementOrDeclaration } from '../ast/statements.js';
import { entryKeysets, type ActionReference } from '../ast/tables.js';
import { ExpressionTyper } from '../semantics/expression-typer.js';
import { CallTyper } from '../semantics/call-typer.js';
import { assignable, SIZE_METHODS, sizeMethodValue, typeName, underlying, type P4Type } from '../semantics/p4-types.js';
import { CONSTANTS, GLOBAL_SCOPE, REFERENCES, TYPES } from '../semantics/side-tables.js';
import { TypeResolver } from '../semantics/type-resolver.js';
import type { CompileContext } from './context.js';
import type { Pass } from './pass-manager.js';

export const typeCheckPass: Pass = {
  name: 'type-check',
  run: (program, context) => {
    new TypeChecker(context).program(program);
  },
};

/** The typer for a context whose names are resolved (later passes reuse it to read types). */
export function typerFor(context: CompileContext): ExpressionTyper {
  const refs = context.table(REFERENCES);
  const resolver = new TypeResolver(refs, context.table(CONSTANTS), context.diagnostics);
  const scope = context.table(GLOBAL_SCOPE).scope;
  const types = context.table(TYPES);
  resolver.constants.useTypes(
    (e) => {
      const t = types.get(e);
      return t?.kind === 'bits' ? t : null;
    },
    (call) => {
      if (call.callee.kind !== 'MemberExpression' || !SIZE_METHODS.has(call.callee.member.text)) return undefined;
      const target = types.get(call.callee.target);
      return target ? sizeMethodValue(target, call.callee.member.text) : undefined;
    },
  );
  return new ExpressionTyper(refs, types, resolver, context.diagnostics, (name) => scope?.lookupAll(name) ?? []);
}

class TypeChecker {
  private readonly typer: ExpressionTyper;
  private readonly calls: CallTyper;

  constructor(private readonly context: CompileContext) {
    this.typer = typerFor(context);
    this.calls = new CallTyper(this.typer);
  }

  program(program: Program): void {
    for (const decl of program.declarations) this.declaration(decl);
  }

  private declaration(decl: Declaration | StatementOrDeclaration): void {
    switch (decl.kind) {
      case 'HeaderDeclaration': case 'HeaderUnionDeclaration': case 'StructDeclaration':
        if (decl.typeParams.length === 0) this.typer.resolver.structLike(decl);
        return;
      case 'EnumDeclaration':
        for (const m of decl.members) if (m.value) this.typer.type(m.value, decl.underlyingType ? this.typer.resolver.resolve(decl.underlyingType) : undefined);
        return;
      case 'ConstantDeclaration':
        this.typer.expect(decl.value, this.typer.entityType(decl));
        return;
      case 'VariableDeclaration':
        if (decl.initializer) this.typer.expect(decl.initializer, this.typer.entityType(decl));
        else this.typer.entityType(decl);
        return;
      case 'Instantiation': {
        const t = this.typer.entityType(decl);
        this.externTypeArguments(t, decl);
        this.constructorArgs(t, decl.args, decl);
        for (const f of decl.initializer ?? []) this.declaration(f);
        return;
      }
      case 'FunctionDeclaration':
        return this.functionBody(decl);
      case 'ActionDeclaration':
        return this.action(decl);
      case 'ParserDeclaration':
        return this.parser(decl);
      case 'ControlDeclaration':
        return this.control(decl);
      case 'TableDeclaration':
        return this.table(decl);
      case 'ValueSetDeclaration':
        this.typer.entityType(decl);
        return;
      case 'TypedefDeclaration': case 'ErrorDeclaration': case 'MatchKindDeclaration': case 'ExternDeclaration':
      case 'ExternFunctionDeclaration': case 'ParserTypeDeclaration': case 'ControlTypeDeclaration': case 'PackageTypeDeclaration':
        return;
      default:
        this.statement(decl);
    }
  }

  /**
   * An extern instance gives as many type arguments as the extern has type parameters (p4c refuses
   * `counter<bit<16>>` where counter is not generic, and `register(16)` where nothing can tell T),
   * unless the constructor's parameters give them.
   */
  private externTypeArguments(type: P4Type, at: Instantiation): void {
    if (type.kind !== 'extern') return;
    const expected = type.decl.typeParams.length;
    const given = at.type.kind === 'SpecializedType' ? at.type.args.length : 0;
    if (given === expected) return;
    if (given === 0) {
      const constructor = type.decl.methods.find((m) => m.isConstructor && m.params.length === at.args.length);
      const named = new Set<string>();
      for (const p of constructor?.params ?? []) walk(p.type, (n) => { if (n.kind === 'NamedType') named.add(n.path.name.text); return undefined; });
      if (type.decl.typeParams.every((p) => named.has(p.text))) return;
    }
    this.context.diagnostics.report('TypeArgumentCount', at.type.span, [type.name, String(expected), String(given)]);
  }

  private constructorArgs(type: P4Type, args: readonly { value: Expression }[], at: Instantiation): void {
    const constructors = type.kind === 'extern' ? type.decl.methods.filter((m) => m.isConstructor) : [];
    const params = type.kind === 'extern'
      ? constructors.find((m) => m.params.length === args.length)?.params
      : type.kind === 'parser' || type.kind === 'control'
        ? 'constructorParams' in type.decl ? type.decl.constructorParams : undefined
        : undefined;
    if (type.kind === 'extern' && constructors.length > 0 && !params) {
      this.context.diagnostics.report('ArgumentCount', at.span, [type.name, constructors.map((c) => c.params.length).join(' or '), String(args.length)]);
    } else if ((type.kind === 'parser' || type.kind === 'control') && params && params.length !== args.length) {
      this.context.diagnostics.report('ArgumentCount', at.span, [type.name, String(params.length), String(args.length)]);
    }
    args.forEach((a, i) => {
      const p = params?.[i];
      this.typer.type(a.value, p ? this.typer.resolver.resolve(p.type) : undefined);
    });
  }

  private action(decl: ActionDeclaration): void {
    for (const p of decl.params) this.typer.entityType(p);
    // Directional parameters (bound where the action is listed) come before action data (P4-16 §14.1).
    const firstData = decl.params.findIndex((p) => p.direction === null);
    const lateBound = firstData < 0 ? undefined : decl.params.slice(firstData).find((p) => p.direction !== null);
    if (lateBound) this.context.diagnostics.report('ActionParameterOrder', lateBound.span, [lateBound.name.text, decl.name.text]);
    this.block(decl.body.body);
  }

  private parser(decl: ParserDeclaration): void {
    for (const p of [...decl.params, ...decl.constructorParams]) this.typer.entityType(p);
    for (const local of decl.locals) this.declaration(local);
    this.typer.inParser = true;
    for (const state of decl.states) {
      this.block(state.body);
      if (state.transition?.kind === 'SelectExpression') this.select(state.transition);
    }
    this.typer.inParser = false;
  }

  private select(select: SelectExpression): void {
    const selectorTypes = select.selectors.map((s) => this.typer.type(s));
    for (const c of select.cases) {
      const keysets = c.keyset.kind === 'ListExpression' ? c.keyset.elements : [c.keyset];
      if (c.keyset.kind === 'DefaultExpression' || c.keyset.kind === 'DontCareExpression') continue;
      if (this.structValueSetFor(c.keyset, selectorTypes)) continue;
      if (keysets.length !== selectorTypes.length) {
        this.context.diagnostics.report('TypeMismatch', c.keyset.span, [`a keyset of ${selectorTypes.length} value(s)`, `${keysets.length} value(s)`]);
        continue;
      }
      keysets.forEach((k, i) => this.keyset(k, selectorTypes[i]!));
    }
  }

  /**
   * `select(a, b) { pvs: ... }` with `pvs` a value_set of a struct of two fields: the set matches the
   * tuple of selectors, one field each (p4c's pvs-struct samples). Reports fields of the wrong type.
   */
  private structValueSetFor(keyset: Expression, selectorTypes: readonly P4Type[]): boolean {
    if (selectorTypes.length < 2 || keyset.kind !== 'PathExpression' || this.typer.refs.get(keyset)?.kind !== 'ValueSetDeclaration') return false;
    const element = underlying(this.typer.type(keyset));
    if (element.kind !== 'struct' || element.fields.length !== selectorTypes.length) return false;
    element.fields.forEach((f, i) => {
      if (!assignable(selectorTypes[i]!, f.type)) this.context.diagnostics.report('TypeMismatch', keyset.span, [typeName(selectorTypes[i]!), `${typeName(f.type)} (field '${f.name}' of ${element.name})`]);
    });
    return true;
  }

  private keyset(k: Expression, expected: P4Type): void {
    const t = this.typer.type(k, expected);
    if (k.kind === 'PathExpression' && this.typer.refs.get(k)?.kind === 'ValueSetDeclaration') return;
    if (k.kind === 'MaskExpression' || k.kind === 'RangeExpression' || k.kind === 'DefaultExpression' || k.kind === 'DontCareExpression') return;
    if (!assignable(expected, t)) this.context.diagnostics.report('TypeMismatch', k.span, [typeName(expected), typeName(t)]);
  }

  private control(decl: ControlDeclaration): void {
    for (const p of [...decl.params, ...decl.constructorParams]) this.typer.entityType(p);
    for (const local of decl.locals) this.declaration(local);
    this.block(decl.apply.body);
  }

  private table(decl: TableDeclaration): void {
    const keyTypes: P4Type[] = [];
    for (const property of decl.properties) {
      if (property.kind === 'KeyProperty') for (const el of property.elements) keyTypes.push(this.typer.type(el.expression));
      if (property.kind === 'ActionsProperty') for (const ref of property.actions) this.actionRef(ref, true);
    }
    this.entryPriorities(decl);
    for (const property of decl.properties) {
      if (property.kind === 'EntriesProperty') {
        for (const entry of property.entries) {
          const keysets = entryKeysets(entry);
          if (keysets.length === keyTypes.length) keysets.forEach((k, i) => this.keyset(k, keyTypes[i]!));
          else if (!(keysets.length === 1 && (keysets[0]!.kind === 'DefaultExpression' || keysets[0]!.kind === 'DontCareExpression'))) {
            this.context.diagnostics.report('EntryKeyCount', entry.span, [decl.name.text, String(keysets.length), String(keyTypes.length)]);
          }
          if (entry.priority) this.typer.type(entry.priority);
          this.actionRef(entry.action, false);
        }
      }
      if (property.kind === 'ValueProperty') {
        if (property.name.text === 'default_action') {
          const v = property.value;
          if (v.kind === 'CallExpression' && v.callee.kind === 'PathExpression') this.typer.type(v);
          else if (v.kind !== 'PathExpression') this.context.diagnostics.report('NotAnAction', v.span, ['default_action']);
        } else this.typer.type(property.value);
      }
    }
  }

  /**
   * `priority = N:` on entries, as p4c's EntryPriorities pass allows it: never with `const entries`;
   * with `entries`, only for a key that has a field other than exact and lpm, and then the first
   * entry must have one (the entries after it without one count down from it).
   */
  private entryPriorities(decl: TableDeclaration): void {
    const entries = decl.properties.find((p) => p.kind === 'EntriesProperty');
    const withPriority = entries?.entries.find((e) => e.priority !== null);
    if (!entries || !withPriority) return;
    if (entries.isConst) {
      this.context.diagnostics.report('ConstEntriesWithPriority', withPriority.priority!.span, [decl.name.text]);
      return;
    }
    const keys = decl.properties.flatMap((p) => (p.kind === 'KeyProperty' ? p.elements : []));
    if (keys.every((k) => k.matchKind.text === 'exact' || k.matchKind.text === 'lpm')) {
      this.context.diagnostics.report('PriorityNotNeeded', withPriority.priority!.span, [decl.name.text]);
    } else if (entries.entries[0]!.priority === null) {
      this.context.diagnostics.report('FirstEntryWithoutPriority', entries.entries[0]!.span, [decl.name.text]);
    }
  }

  /** The function whose body is being checked (its return type), or null in actions, controls and parsers. */
  private currentFunction: { decl: FunctionDeclaration; returnType: P4Type } | null = null;

  /** A function body: `return` values of its return type, and a value on every path unless it returns void. */
  private functionBody(decl: FunctionDeclaration): void {
    const outer = this.currentFunction;
    this.currentFunction = { decl, returnType: this.typer.resolver.resolve(decl.returnType) };
    try {
      this.block(decl.body.body);
      if (this.currentFunction.returnType.kind !== 'void' && !alwaysLeaves(decl.body.body)) {
        this.context.diagnostics.report('MissingReturn', decl.name.span, [decl.name.text]);
      }
    } finally {
      this.currentFunction = outer;
    }
  }

  /** An action in `actions` (leading arguments bind directional parameters) or an entry (all arguments). */
  private actionRef(ref: ActionReference, inActionsList: boolean): void {
    const entity = this.typer.refs.get(ref.action);
    if (!entity) return;
    if (entity.kind !== 'ActionDeclaration') {
      this.context.diagnostics.report('NotAnAction', ref.action.span, [ref.action.path.name.text]);
      return;
    }
    const args = ref.args ?? [];
    const params = inActionsList ? entity.params.filter((p) => p.direction !== null) : entity.params;
    // In `actions`, a bare name is fine only when there is nothing to bind.
    if (args.length !== params.length && !(inActionsList && ref.args === null && params.length === 0)) {
      this.context.diagnostics.report('ArgumentCount', ref.span, [entity.name.text, String(params.length), String(args.length)]);
    }
    args.forEach((a, i) => {
      const p = params[i];
      const actual = this.typer.type(a.value, p ? this.typer.resolver.resolve(p.type) : undefined);
      if (p && !assignable(this.typer.resolver.resolve(p.type), actual)) this.context.diagnostics.report('TypeMismatch', a.value.span, [typeName(this.typer.resolver.resolve(p.type)), typeName(actual)]);
    });
  }

  /** For `switch (t.apply().action_run)`: the actions table `t` lists. */
  private actionsOfAppliedTable(subject: Expression): { table: string; actions: Set<unknown> } | null {
    if (subject.kind !== 'MemberExpression' || subject.target.kind !== 'CallExpression' || subject.target.callee.kind !== 'MemberExpression') return null;
    const table = this.typer.refs.get(subject.target.callee.target);
    if (table?.kind !== 'TableDeclaration') return null;
    const actions = new Set<unknown>();
    for (const p of table.properties) if (p.kind === 'ActionsProperty') for (const ref of p.actions) actions.add(this.typer.refs.get(ref.action));
    return { table: table.name.text, actions };
  }

  private block(body: readonly StatementOrDeclaration[]): void {
    for (const s of body) this.declaration(s);
  }

  private statement(s: StatementOrDeclaration): void {
    switch (s.kind) {
      case 'AssignmentStatement': {
        const target = this.typer.type(s.target);
        this.typer.expect(s.value, target);
        if (!this.calls.isLValue(s.target)) {
          const root = rootName(s.target);
          this.context.diagnostics.report('ReadOnlyAssignment', s.target.span, [root, 'it is a constant, an in parameter or action data']);
        }
        return;
      }
      case 'CallStatement':
        this.typer.type(s.call);
        return;
      case 'BlockStatement':
        return this.block(s.body);
      case 'IfStatement':
        this.typer.expectBool(s.condition);
        this.statement(s.then);
        if (s.else) this.statement(s.else);
        return;
      case 'SwitchStatement': {
        const subject = this.typer.type(s.subject);
        const tableActions = subject.kind === 'action' ? this.actionsOfAppliedTable(s.subject) : null;
        for (const c of s.cases) {
          if (c.label.kind !== 'DefaultExpression') {
            const label = this.typer.type(c.label, subject);
            const labelEntity = this.typer.refs.get(c.label);
            if (subject.kind === 'action' ? labelEntity?.kind !== 'ActionDeclaration' : !assignable(subject, label)) {
              this.context.diagnostics.report('TypeMismatch', c.label.span, [typeName(subject), typeName(label)]);
            } else if (tableActions && labelEntity && !tableActions.actions.has(labelEntity)) {
              this.context.diagnostics.report('ActionNotInTable', c.label.span, [c.label.kind === 'PathExpression' ? c.label.path.name.text : '?', tableActions.table]);
            }
          }
          if (c.body) this.block(c.body.body);
        }
        return;
      }
      case 'ReturnStatement': {
        const fn = this.currentFunction;
        if (!fn) {
          if (s.value) {
            this.typer.type(s.value);
            this.context.diagnostics.report('ReturnValueNotAllowed', s.value.span, []);
          }
          return;
        }
        if (s.value) this.typer.expect(s.value, fn.returnType);
        else if (fn.returnType.kind !== 'void') this.context.diagnostics.report('MissingReturnValue', s.span, [fn.decl.name.text, typeName(fn.returnType)]);
        return;
      }
      case 'ExitStatement': case 'EmptyStatement':
        return;
      default:
        this.declaration(s);
    }
  }
}

/** Whether every path through `body` ends in `return` or `exit` (p4c: a function must return a value on all paths). */
function alwaysLeaves(body: readonly StatementOrDeclaration[]): boolean {
  return body.some((s) => {
    switch (s.kind) {
      case 'ReturnStatement': case 'ExitStatement': return true;
      case 'BlockStatement': return alwaysLeaves(s.body);
      case 'IfStatement': return s.else !== null && alwaysLeaves([s.then]) && alwaysLeaves([s.else]);
      case 'SwitchStatement':
        return s.cases.some((c) => c.label.kind === 'DefaultExpression') && s.cases.every((c) => c.body === null || alwaysLeaves(c.body.body));
      default: return false;
    }
  });
}

function rootName(e: Expression): string {
  if (e.kind === 'PathExpression') return e.path.name.text;
  if (e.kind === 'MemberExpression' || e.kind === 'IndexExpression' || e.kind === 'SliceExpression') return rootName(e.target);
  return '?';
}

