// Original file: proto/p4/config/v1/p4info.proto

import type { Preamble as _p4_config_v1_Preamble, Preamble__Output as _p4_config_v1_Preamble__Output } from '../../../p4/config/v1/Preamble.js';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../../google/protobuf/Any.js';

export interface ExternInstance {
  'preamble'?: (_p4_config_v1_Preamble | null);
  'info'?: (_google_protobuf_Any | null);
}

export interface ExternInstance__Output {
  'preamble': (_p4_config_v1_Preamble__Output | null);
  'info': (_google_protobuf_Any__Output | null);
}
