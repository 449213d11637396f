// Original file: proto/p4/config/v1/p4types.proto

import type { Expression as _p4_config_v1_Expression, Expression__Output as _p4_config_v1_Expression__Output } from '../../../p4/config/v1/Expression.js';

export interface KeyValuePair {
  'key'?: (string);
  'value'?: (_p4_config_v1_Expression | null);
}

export interface KeyValuePair__Output {
  'key': (string);
  'value': (_p4_config_v1_Expression__Output | null);
}
