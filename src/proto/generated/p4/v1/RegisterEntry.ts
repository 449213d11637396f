// Original file: proto/p4/v1/p4runtime.proto

import type { Index as _p4_v1_Index, Index__Output as _p4_v1_Index__Output } from '../../p4/v1/Index.js';
import type { P4Data as _p4_v1_P4Data, P4Data__Output as _p4_v1_P4Data__Output } from '../../p4/v1/P4Data.js';

export interface RegisterEntry {
  'register_id'?: (number);
  'index'?: (_p4_v1_Index | null);
  'data'?: (_p4_v1_P4Data | null);
}

export interface RegisterEntry__Output {
  'register_id': (number);
  'index': (_p4_v1_Index__Output | null);
  'data': (_p4_v1_P4Data__Output | null);
}
