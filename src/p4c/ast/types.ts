/**
 * @fileoverview Type references: they live in expressions.ts (types and
 * expressions contain each other); the parser and printer, which deal in
 * types alone, import them from here.
 */
export type { NamedType, SpecializedType, TypeRef } from './expressions.js';
