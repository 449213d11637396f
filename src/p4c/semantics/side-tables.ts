/**
 * @fileoverview The side tables the semantic passes fill, keyed by AST node
 * (p4c's refMap, typeMap and constant values).
 */
import type { AstNode } from '../ast/walk.js';
import { SideTableKey } from '../passes/context.js';
import type { P4Type } from './p4-types.js';
import type { Entity, Scope } from './scope.js';

/** What each PathExpression / NamedType refers to. */
export const REFERENCES = new SideTableKey('references', () => new Map<AstNode, Entity>());
/** The type of each expression and of each typed declaration. */
export const TYPES = new SideTableKey('types', () => new Map<AstNode, P4Type>());
/** The value of each expression and constant that folds to an integer or boolean. */
export const CONSTANTS = new SideTableKey('constants', () => new Map<AstNode, bigint | boolean>());
/** The top-level scope, kept for later passes. */
export const GLOBAL_SCOPE = new SideTableKey<{ scope: Scope | null }>('global-scope', () => ({ scope: null }));
