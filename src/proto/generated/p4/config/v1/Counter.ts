// Original file: proto/p4/config/v1/p4info.proto

import type { Preamble as _p4_config_v1_Preamble, Preamble__Output as _p4_config_v1_Preamble__Output } from '../../../p4/config/v1/Preamble.js';
import type { CounterSpec as _p4_config_v1_CounterSpec, CounterSpec__Output as _p4_config_v1_CounterSpec__Output } from '../../../p4/config/v1/CounterSpec.js';
import type { P4NamedType as _p4_config_v1_P4NamedType, P4NamedType__Output as _p4_config_v1_P4NamedType__Output } from '../../../p4/config/v1/P4NamedType.js';
import type { Long } from '@grpc/proto-loader';

export interface Counter {
  'preamble'?: (_p4_config_v1_Preamble | null);
  'spec'?: (_p4_config_v1_CounterSpec | null);
  'size'?: (number | string | Long);
  'index_type_name'?: (_p4_config_v1_P4NamedType | null);
}

export interface Counter__Output {
  'preamble': (_p4_config_v1_Preamble__Output | null);
  'spec': (_p4_config_v1_CounterSpec__Output | null);
  'size': (string);
  'index_type_name': (_p4_config_v1_P4NamedType__Output | null);
}
