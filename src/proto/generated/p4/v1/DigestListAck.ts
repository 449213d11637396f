// Original file: proto/p4/v1/p4runtime.proto

import type { Long } from '@grpc/proto-loader';

export interface DigestListAck {
  'digest_id'?: (number);
  'list_id'?: (number | string | Long);
}

export interface DigestListAck__Output {
  'digest_id': (number);
  'list_id': (string);
}
