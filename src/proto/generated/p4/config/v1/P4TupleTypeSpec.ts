// Original file: proto/p4/config/v1/p4types.proto

import type { P4DataTypeSpec as _p4_config_v1_P4DataTypeSpec, P4DataTypeSpec__Output as _p4_config_v1_P4DataTypeSpec__Output } from '../../../p4/config/v1/P4DataTypeSpec.js';

export interface P4TupleTypeSpec {
  'members'?: (_p4_config_v1_P4DataTypeSpec)[];
}

export interface P4TupleTypeSpec__Output {
  'members': (_p4_config_v1_P4DataTypeSpec__Output)[];
}
