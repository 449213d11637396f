// Original file: proto/p4/v1/p4runtime.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../google/protobuf/Any.js';

export interface Error {
  'canonical_code'?: (number);
  'message'?: (string);
  'space'?: (string);
  'code'?: (number);
  'details'?: (_google_protobuf_Any | null);
}

export interface Error__Output {
  'canonical_code': (number);
  'message': (string);
  'space': (string);
  'code': (number);
  'details': (_google_protobuf_Any__Output | null);
}
