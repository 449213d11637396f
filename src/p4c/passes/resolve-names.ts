/**
 * @fileoverview The resolve-names pass: builds the scopes of the program and
 * records, for every PathExpression and NamedType, the entity it names
 * (side table REFERENCES). Reports unknown names, names that are not types,
 * unknown parser states and match kinds, duplicate declarations, and types
 * nested too deep through their declarations.
 * Members (`hdr.ipv4`, `CounterType.packets`) need types and are resolved by
 * type-check.
 */
import type { Declaration, ParserDeclaration, ControlDeclaration, ParserState, TableDeclaration } from '../ast/declarations.js';
import type { Name } from '../ast/node.js';
import type { Program } from '../ast/program.js';
import type { Parameter, StatementOrDeclaration } from '../ast/statements.js';
import { walk, type AstNode } from '../ast/walk.js';
import { GLOBAL_SCOPE, REFERENCES } from '../semantics/side-tables.js';
import { ACCEPT, REJECT, Scope, TYPE_DECLARATION_KINDS, type Entity } from '../semantics/scope.js';
import { checkTypeNesting } from '../semantics/type-nesting.js';
import type { CompileContext } from './context.js';
import type { Pass } from './pass-manager.js';

/** Declarations that may share a name when their parameter counts differ. */
const OVERLOADABLE = new Set(['ExternFunctionDeclaration', 'FunctionDeclaration', 'MethodPrototype']);

export const resolveNamesPass: Pass = {
  name: 'resolve-names',
  run: (program, context) => {
    new NameResolver(context).program(program);
    // Before any pass walks a type: a type nested through hundreds of declarations would overflow them.
    checkTypeNesting(program, context.table(REFERENCES), context.diagnostics);
  },
};

class NameResolver {
  private readonly refs: Map<AstNode, Entity>;

  constructor(private readonly context: CompileContext) {
    this.refs = context.table(REFERENCES);
  }

  program(program: Program): void {
    const global = new Scope(null);
    this.context.table(GLOBAL_SCOPE).scope = global;
    for (const decl of program.declarations) this.declareTopLevel(global, decl);
    for (const decl of program.declarations) this.declaration(global, decl);
    this.declarationsFirst(program);
  }

  /**
   * P4 names only what is declared before (p4c's resolver looks a name up among the declarations
   * that precede it, and says "declaration not found" otherwise): a top-level declaration may not
   * use one that comes later in the program.
   */
  private declarationsFirst(program: Program): void {
    // (Inside a control or parser the scope grows declaration by declaration, so a later local is already unknown: 2001.)
    this.inOrder(program.declarations);
  }

  /** Reports a use, inside one of `declarations`, of a later one of them. */
  private inOrder(declarations: readonly AstNode[]): void {
    const position = new Map<Entity, number>();
    declarations.forEach((d, i) => position.set(d as Entity, i));
    declarations.forEach((decl, i) => {
      walk(decl, (node) => {
        const target = this.refs.get(node);
        const at = target === undefined ? undefined : position.get(target);
        const name = at !== undefined && at > i && 'name' in target! ? (target.name as Name | null) : null;
        if (name) this.context.diagnostics.report('UsedBeforeDeclaration', node.span, [name.text], [{ message: `'${name.text}' is declared here`, span: name.span }]);
        return undefined;
      });
    });
  }

  private declareTopLevel(scope: Scope, decl: Declaration): void {
    if (decl.kind === 'ErrorDeclaration') return;
    if (decl.kind === 'MatchKindDeclaration') {
      for (const member of decl.members) this.declare(scope, member, { kind: 'MatchKindMember', name: member });
      return;
    }
    this.declare(scope, decl.name, decl);
  }

  private declare(scope: Scope, name: Name, entity: Entity): void {
    const previous = scope.declare(name.text, entity);
    if (previous.length === 0) return;
    if (OVERLOADABLE.has(entity.kind) && previous.every((p) => OVERLOADABLE.has(p.kind))) return;
    const first = previous[0]!;
    const firstSpan = 'span' in first ? first.span : first.kind === 'MatchKindMember' ? first.name.span : name.span;
    this.context.diagnostics.report('DuplicateDeclaration', name.span, [name.text], [{ message: `'${name.text}' was first declared here`, span: firstSpan }]);
  }

  private withTypeParams(scope: Scope, params: readonly Name[]): Scope {
    if (params.length === 0) return scope;
    const inner = new Scope(scope);
    for (const p of params) this.declare(inner, p, p);
    return inner;
  }

  private parameters(scope: Scope, params: readonly Parameter[]): void {
    for (const p of params) {
      this.node(scope, p.type);
      if (p.defaultValue) this.node(scope, p.defaultValue);
      this.declare(scope, p.name, p);
    }
  }

  private declaration(scope: Scope, decl: Declaration | StatementOrDeclaration): void {
    switch (decl.kind) {
      case 'HeaderDeclaration':
      case 'HeaderUnionDeclaration':
      case 'StructDeclaration': {
        const inner = this.withTypeParams(scope, decl.typeParams);
        const fields = new Scope(null);
        for (const f of decl.fields) {
          this.node(inner, f.type);
          this.declare(fields, f.name, f);
        }
        return;
      }
      case 'TypedefDeclaration':
        if (decl.type.kind === 'HeaderDeclaration' || decl.type.kind === 'StructDeclaration' || decl.type.kind === 'HeaderUnionDeclaration' || decl.type.kind === 'EnumDeclaration') {
          this.declaration(scope, decl.type);
        } else this.node(scope, decl.type);
        return;
      case 'EnumDeclaration': {
        if (decl.underlyingType) this.node(scope, decl.underlyingType);
        const members = new Scope(null);
        for (const m of decl.members) {
          this.declare(members, m.name, m);
          if (m.value) this.node(scope, m.value);
        }
        return;
      }
      case 'ErrorDeclaration':
      case 'MatchKindDeclaration':
        return;
      case 'ExternDeclaration': {
        const inner = this.withTypeParams(scope, decl.typeParams);
        const methods = new Scope(null);
        for (const m of decl.methods) {
          const methodScope = new Scope(this.withTypeParams(inner, m.typeParams));
          if (m.returnType) this.node(methodScope, m.returnType);
          this.parameters(methodScope, m.params);
          this.declare(methods, m.name, m);
        }
        return;
      }
      case 'ExternFunctionDeclaration':
      case 'FunctionDeclaration': {
        const inner = new Scope(this.withTypeParams(scope, decl.typeParams));
        this.node(inner, decl.returnType);
        this.parameters(inner, decl.params);
        if (decl.kind === 'FunctionDeclaration') this.block(inner, decl.body.body);
        return;
      }
      case 'ActionDeclaration': {
        const inner = new Scope(scope);
        this.parameters(inner, decl.params);
        this.block(inner, decl.body.body);
        return;
      }
      case 'ParserTypeDeclaration':
      case 'ControlTypeDeclaration':
      case 'PackageTypeDeclaration': {
        const inner = new Scope(this.withTypeParams(scope, decl.typeParams));
        this.parameters(inner, decl.params);
        return;
      }
      case 'ParserDeclaration':
        return this.parser(scope, decl);
      case 'ControlDeclaration':
        return this.control(scope, decl);
      case 'TableDeclaration':
        return this.table(scope, decl);
      case 'ValueSetDeclaration':
        this.node(scope, decl.elementType);
        this.node(scope, decl.size);
        return;
      case 'Instantiation':
        this.node(scope, decl.type);
        for (const a of decl.args) this.node(scope, a.value);
        for (const f of decl.initializer ?? []) this.declaration(new Scope(scope), f);
        return;
      case 'ConstantDeclaration':
        this.node(scope, decl.type);
        this.node(scope, decl.value);
        return;
      case 'VariableDeclaration':
        this.node(scope, decl.type);
        if (decl.initializer) this.node(scope, decl.initializer);
        return;
      default:
        this.statement(scope, decl);
    }
  }

  private parser(scope: Scope, decl: ParserDeclaration): void {
    const inner = new Scope(this.withTypeParams(scope, decl.typeParams));
    this.parameters(inner, decl.params);
    this.parameters(inner, decl.constructorParams);
    for (const local of decl.locals) {
      this.declaration(inner, local);
      this.declare(inner, local.name, local);
    }
    const states = new Scope(inner);
    states.declare('accept', ACCEPT);
    states.declare('reject', REJECT);
    for (const state of decl.states) this.declare(states, state.name, state);
    for (const state of decl.states) this.state(states, state);
  }

  private state(scope: Scope, state: ParserState): void {
    this.block(new Scope(scope), state.body);
    const transition = state.transition;
    if (!transition) return;
    const resolveState = (path: AstNode): void => {
      if (path.kind !== 'PathExpression') return;
      const entity = scope.lookup(path.path.name.text);
      if (!entity || !(entity.kind === 'ParserState' || entity.kind === 'BuiltinState')) {
        this.context.diagnostics.report('UnknownState', path.span, [path.path.name.text]);
      } else this.refs.set(path, entity);
    };
    if (transition.kind === 'PathExpression') return resolveState(transition);
    for (const s of transition.selectors) this.node(scope, s);
    for (const c of transition.cases) {
      this.node(scope, c.keyset);
      resolveState(c.state);
    }
  }

  private control(scope: Scope, decl: ControlDeclaration): void {
    const inner = new Scope(this.withTypeParams(scope, decl.typeParams));
    this.parameters(inner, decl.params);
    this.parameters(inner, decl.constructorParams);
    for (const local of decl.locals) {
      this.declaration(inner, local);
      this.declare(inner, local.name, local);
    }
    this.block(new Scope(inner), decl.apply.body);
  }

  private table(scope: Scope, decl: TableDeclaration): void {
    for (const property of decl.properties) {
      switch (property.kind) {
        case 'KeyProperty':
          for (const element of property.elements) {
            this.node(scope, element.expression);
            const kind = scope.lookup(element.matchKind.text);
            if (kind?.kind !== 'MatchKindMember') {
              const known = [...this.matchKinds(scope)].join(', ');
              this.context.diagnostics.report('UnknownMatchKind', element.matchKind.span, [element.matchKind.text, known]);
            }
          }
          break;
        case 'ActionsProperty':
          for (const ref of property.actions) this.node(scope, ref);
          break;
        case 'EntriesProperty':
          for (const entry of property.entries) this.node(scope, entry);
          break;
        case 'ValueProperty':
          this.node(scope, property.value);
          break;
      }
    }
  }

  private matchKinds(scope: Scope): string[] {
    const names: string[] = [];
    for (const candidate of ['exact', 'ternary', 'lpm', 'range', 'optional', 'selector']) {
      if (scope.lookup(candidate)?.kind === 'MatchKindMember') names.push(candidate);
    }
    return names;
  }

  private block(scope: Scope, body: readonly StatementOrDeclaration[]): void {
    for (const item of body) {
      if (item.kind === 'VariableDeclaration' || item.kind === 'ConstantDeclaration' || item.kind === 'Instantiation') {
        this.declaration(scope, item);
        this.declare(scope, item.name, item);
      } else this.statement(scope, item);
    }
  }

  private statement(scope: Scope, statement: StatementOrDeclaration): void {
    switch (statement.kind) {
      case 'BlockStatement':
        return this.block(new Scope(scope), statement.body);
      case 'IfStatement':
        this.node(scope, statement.condition);
        this.statement(new Scope(scope), statement.then);
        if (statement.else) this.statement(new Scope(scope), statement.else);
        return;
      case 'SwitchStatement':
        this.node(scope, statement.subject);
        for (const c of statement.cases) {
          this.node(scope, c.label);
          if (c.body) this.block(new Scope(scope), c.body.body);
        }
        return;
      case 'VariableDeclaration':
      case 'ConstantDeclaration':
      case 'Instantiation':
        return this.block(scope, [statement]);
      default:
        this.node(scope, statement);
    }
  }

  /** Resolves every path and type name inside an expression, type or other scope-free subtree. */
  private node(scope: Scope, root: AstNode): void {
    walk(root, (node) => {
      if (node.kind === 'PathExpression') {
        const name = node.path.name.text;
        const entity = node.path.absolute ? scope.root().lookup(name) : scope.lookup(name);
        if (!entity) this.context.diagnostics.report('UnknownName', node.span, [name]);
        else this.refs.set(node, entity);
        return false;
      }
      if (node.kind === 'NamedType') {
        const name = node.path.name.text;
        const entity = node.path.absolute ? scope.root().lookup(name) : scope.lookup(name);
        if (!entity) this.context.diagnostics.report('UnknownType', node.span, [name]);
        else if (!TYPE_DECLARATION_KINDS.has(entity.kind)) this.context.diagnostics.report('NotAType', node.span, [name]);
        else this.refs.set(node, entity);
        return false;
      }
      if (node.kind === 'MemberExpression') {
        this.node(scope, node.target);
        return false;
      }
      if (node.kind === 'Annotation') return false;
      return undefined;
    });
  }
}
