// Original file: proto/p4/config/v1/p4info.proto

import type { Preamble as _p4_config_v1_Preamble, Preamble__Output as _p4_config_v1_Preamble__Output } from '../../../p4/config/v1/Preamble.js';
import type { MatchField as _p4_config_v1_MatchField, MatchField__Output as _p4_config_v1_MatchField__Output } from '../../../p4/config/v1/MatchField.js';

export interface ValueSet {
  'preamble'?: (_p4_config_v1_Preamble | null);
  'match'?: (_p4_config_v1_MatchField)[];
  'size'?: (number);
}

export interface ValueSet__Output {
  'preamble': (_p4_config_v1_Preamble__Output | null);
  'match': (_p4_config_v1_MatchField__Output)[];
  'size': (number);
}
