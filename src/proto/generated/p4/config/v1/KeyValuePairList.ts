// Original file: proto/p4/config/v1/p4types.proto

import type { KeyValuePair as _p4_config_v1_KeyValuePair, KeyValuePair__Output as _p4_config_v1_KeyValuePair__Output } from '../../../p4/config/v1/KeyValuePair.js';

export interface KeyValuePairList {
  'kv_pairs'?: (_p4_config_v1_KeyValuePair)[];
}

export interface KeyValuePairList__Output {
  'kv_pairs': (_p4_config_v1_KeyValuePair__Output)[];
}
