/**
 * @fileoverview Lexical scopes. An entity is the declaring node itself (a
 * declaration, parameter, parser state, the `Name` of a type parameter,
 * an enum/error/match_kind member), or a built-in (`accept`, `reject`).
 * Functions and extern functions may be overloaded, so a name maps to a list.
 */
import type { AstNode } from '../ast/walk.js';
import type { Name } from '../ast/node.js';

/** `accept` and `reject`, the parser states every parser has. */
export interface BuiltinState {
  readonly kind: 'BuiltinState';
  readonly name: 'accept' | 'reject';
}

/** A member of `match_kind { ... }`: the value `exact` in a key. */
export interface MatchKindMember {
  readonly kind: 'MatchKindMember';
  readonly name: Name;
}

export type Entity = AstNode | BuiltinState | MatchKindMember;

export const ACCEPT: BuiltinState = { kind: 'BuiltinState', name: 'accept' };
export const REJECT: BuiltinState = { kind: 'BuiltinState', name: 'reject' };

export class Scope {
  private readonly entries = new Map<string, Entity[]>();

  constructor(readonly parent: Scope | null) {}

  /** Adds `entity` under `name`; returns what was already declared in this very scope. */
  declare(name: string, entity: Entity): readonly Entity[] {
    const existing = this.entries.get(name) ?? [];
    this.entries.set(name, [...existing, entity]);
    return existing;
  }

  /** Every entity named `name` in the innermost scope that has one. */
  lookupAll(name: string): readonly Entity[] {
    return this.entries.get(name) ?? this.parent?.lookupAll(name) ?? [];
  }

  lookup(name: string): Entity | undefined {
    return this.lookupAll(name)[0];
  }

  root(): Scope {
    return this.parent ? this.parent.root() : this;
  }
}

/** Kinds of node that name a type. */
export const TYPE_DECLARATION_KINDS: ReadonlySet<string> = new Set([
  'HeaderDeclaration', 'HeaderUnionDeclaration', 'StructDeclaration', 'EnumDeclaration', 'TypedefDeclaration',
  'ExternDeclaration', 'ParserTypeDeclaration', 'ControlTypeDeclaration', 'PackageTypeDeclaration',
  'ParserDeclaration', 'ControlDeclaration', 'Name',
]);
