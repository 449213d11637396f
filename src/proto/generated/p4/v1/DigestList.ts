// Original file: proto/p4/v1/p4runtime.proto

import type { P4Data as _p4_v1_P4Data, P4Data__Output as _p4_v1_P4Data__Output } from '../../p4/v1/P4Data.js';
import type { Long } from '@grpc/proto-loader';

export interface DigestList {
  'digest_id'?: (number);
  'list_id'?: (number | string | Long);
  'data'?: (_p4_v1_P4Data)[];
  'timestamp'?: (number | string | Long);
}

export interface DigestList__Output {
  'digest_id': (number);
  'list_id': (string);
  'data': (_p4_v1_P4Data__Output)[];
  'timestamp': (string);
}
