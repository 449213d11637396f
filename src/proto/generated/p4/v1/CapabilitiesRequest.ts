// Original file: proto/p4/v1/p4runtime.proto

import type { Long } from '@grpc/proto-loader';

export interface CapabilitiesRequest {
  'device_id'?: (number | string | Long);
}

export interface CapabilitiesRequest__Output {
  'device_id': (string);
}
