// Original file: proto/p4/config/v1/p4info.proto

import type { Preamble as _p4_config_v1_Preamble, Preamble__Output as _p4_config_v1_Preamble__Output } from '../../../p4/config/v1/Preamble.js';
import type { CounterSpec as _p4_config_v1_CounterSpec, CounterSpec__Output as _p4_config_v1_CounterSpec__Output } from '../../../p4/config/v1/CounterSpec.js';

export interface DirectCounter {
  'preamble'?: (_p4_config_v1_Preamble | null);
  'spec'?: (_p4_config_v1_CounterSpec | null);
  'direct_table_id'?: (number);
}

export interface DirectCounter__Output {
  'preamble': (_p4_config_v1_Preamble__Output | null);
  'spec': (_p4_config_v1_CounterSpec__Output | null);
  'direct_table_id': (number);
}
