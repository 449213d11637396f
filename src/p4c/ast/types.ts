/**
 * @fileoverview Type references: they live in expressions.ts (types and
 * expressions contain each other); this module names them on their own.
 */
export type {
  BitsType,
  BoolType,
  DontCareType,
  ErrorType,
  InfIntType,
  MatchKindType,
  NamedType,
  SpecializedType,
  StackType,
  StringType,
  TupleType,
  TypeRef,
  VarbitType,
  VoidType,
} from './expressions.js';
