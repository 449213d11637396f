// Original file: proto/p4/config/v1/p4info.proto

import type { Preamble as _p4_config_v1_Preamble, Preamble__Output as _p4_config_v1_Preamble__Output } from '../../../p4/config/v1/Preamble.js';
import type { P4DataTypeSpec as _p4_config_v1_P4DataTypeSpec, P4DataTypeSpec__Output as _p4_config_v1_P4DataTypeSpec__Output } from '../../../p4/config/v1/P4DataTypeSpec.js';
import type { P4NamedType as _p4_config_v1_P4NamedType, P4NamedType__Output as _p4_config_v1_P4NamedType__Output } from '../../../p4/config/v1/P4NamedType.js';

export interface Register {
  'preamble'?: (_p4_config_v1_Preamble | null);
  'type_spec'?: (_p4_config_v1_P4DataTypeSpec | null);
  'size'?: (number);
  'index_type_name'?: (_p4_config_v1_P4NamedType | null);
}

export interface Register__Output {
  'preamble': (_p4_config_v1_Preamble__Output | null);
  'type_spec': (_p4_config_v1_P4DataTypeSpec__Output | null);
  'size': (number);
  'index_type_name': (_p4_config_v1_P4NamedType__Output | null);
}
