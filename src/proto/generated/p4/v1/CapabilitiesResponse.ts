// Original file: proto/p4/v1/p4runtime.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../google/protobuf/Any.js';

export interface CapabilitiesResponse {
  'p4runtime_api_version'?: (string);
  'experimental'?: (_google_protobuf_Any | null);
}

export interface CapabilitiesResponse__Output {
  'p4runtime_api_version': (string);
  'experimental': (_google_protobuf_Any__Output | null);
}
