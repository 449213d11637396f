// Original file: proto/p4/config/v1/p4types.proto

import type { P4BitstringLikeTypeSpec as _p4_config_v1_P4BitstringLikeTypeSpec, P4BitstringLikeTypeSpec__Output as _p4_config_v1_P4BitstringLikeTypeSpec__Output } from '../../../p4/config/v1/P4BitstringLikeTypeSpec.js';
import type { P4BoolType as _p4_config_v1_P4BoolType, P4BoolType__Output as _p4_config_v1_P4BoolType__Output } from '../../../p4/config/v1/P4BoolType.js';
import type { P4TupleTypeSpec as _p4_config_v1_P4TupleTypeSpec, P4TupleTypeSpec__Output as _p4_config_v1_P4TupleTypeSpec__Output } from '../../../p4/config/v1/P4TupleTypeSpec.js';
import type { P4NamedType as _p4_config_v1_P4NamedType, P4NamedType__Output as _p4_config_v1_P4NamedType__Output } from '../../../p4/config/v1/P4NamedType.js';
import type { P4HeaderStackTypeSpec as _p4_config_v1_P4HeaderStackTypeSpec, P4HeaderStackTypeSpec__Output as _p4_config_v1_P4HeaderStackTypeSpec__Output } from '../../../p4/config/v1/P4HeaderStackTypeSpec.js';
import type { P4HeaderUnionStackTypeSpec as _p4_config_v1_P4HeaderUnionStackTypeSpec, P4HeaderUnionStackTypeSpec__Output as _p4_config_v1_P4HeaderUnionStackTypeSpec__Output } from '../../../p4/config/v1/P4HeaderUnionStackTypeSpec.js';
import type { P4ErrorType as _p4_config_v1_P4ErrorType, P4ErrorType__Output as _p4_config_v1_P4ErrorType__Output } from '../../../p4/config/v1/P4ErrorType.js';

export interface P4DataTypeSpec {
  'bitstring'?: (_p4_config_v1_P4BitstringLikeTypeSpec | null);
  'bool'?: (_p4_config_v1_P4BoolType | null);
  'tuple'?: (_p4_config_v1_P4TupleTypeSpec | null);
  'struct'?: (_p4_config_v1_P4NamedType | null);
  'header'?: (_p4_config_v1_P4NamedType | null);
  'header_union'?: (_p4_config_v1_P4NamedType | null);
  'header_stack'?: (_p4_config_v1_P4HeaderStackTypeSpec | null);
  'header_union_stack'?: (_p4_config_v1_P4HeaderUnionStackTypeSpec | null);
  'enum'?: (_p4_config_v1_P4NamedType | null);
  'error'?: (_p4_config_v1_P4ErrorType | null);
  'serializable_enum'?: (_p4_config_v1_P4NamedType | null);
  'new_type'?: (_p4_config_v1_P4NamedType | null);
  'type_spec'?: "bitstring"|"bool"|"tuple"|"struct"|"header"|"header_union"|"header_stack"|"header_union_stack"|"enum"|"error"|"serializable_enum"|"new_type";
}

export interface P4DataTypeSpec__Output {
  'bitstring'?: (_p4_config_v1_P4BitstringLikeTypeSpec__Output | null);
  'bool'?: (_p4_config_v1_P4BoolType__Output | null);
  'tuple'?: (_p4_config_v1_P4TupleTypeSpec__Output | null);
  'struct'?: (_p4_config_v1_P4NamedType__Output | null);
  'header'?: (_p4_config_v1_P4NamedType__Output | null);
  'header_union'?: (_p4_config_v1_P4NamedType__Output | null);
  'header_stack'?: (_p4_config_v1_P4HeaderStackTypeSpec__Output | null);
  'header_union_stack'?: (_p4_config_v1_P4HeaderUnionStackTypeSpec__Output | null);
  'enum'?: (_p4_config_v1_P4NamedType__Output | null);
  'error'?: (_p4_config_v1_P4ErrorType__Output | null);
  'serializable_enum'?: (_p4_config_v1_P4NamedType__Output | null);
  'new_type'?: (_p4_config_v1_P4NamedType__Output | null);
  'type_spec'?: "bitstring"|"bool"|"tuple"|"struct"|"header"|"header_union"|"header_stack"|"header_union_stack"|"enum"|"error"|"serializable_enum"|"new_type";
}
