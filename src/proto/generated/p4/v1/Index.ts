// Original file: proto/p4/v1/p4runtime.proto

import type { Long } from '@grpc/proto-loader';

export interface Index {
  'index'?: (number | string | Long);
}

export interface Index__Output {
  'index': (string);
}
