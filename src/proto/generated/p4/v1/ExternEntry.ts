// Original file: proto/p4/v1/p4runtime.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../google/protobuf/Any.js';

export interface ExternEntry {
  'extern_type_id'?: (number);
  'extern_id'?: (number);
  'entry'?: (_google_protobuf_Any | null);
}

export interface ExternEntry__Output {
  'extern_type_id': (number);
  'extern_id': (number);
  'entry': (_google_protobuf_Any__Output | null);
}
