// Original file: proto/p4/v1/p4runtime.proto

import type { Entity as _p4_v1_Entity, Entity__Output as _p4_v1_Entity__Output } from '../../p4/v1/Entity.js';
import type { Long } from '@grpc/proto-loader';

export interface ReadRequest {
  'device_id'?: (number | string | Long);
  'entities'?: (_p4_v1_Entity)[];
  'role'?: (string);
}

export interface ReadRequest__Output {
  'device_id': (string);
  'entities': (_p4_v1_Entity__Output)[];
  'role': (string);
}
