// Original file: proto/p4/v1/p4runtime.proto

import type { Entity as _p4_v1_Entity, Entity__Output as _p4_v1_Entity__Output } from '../../p4/v1/Entity.js';

export interface ReadResponse {
  'entities'?: (_p4_v1_Entity)[];
}

export interface ReadResponse__Output {
  'entities': (_p4_v1_Entity__Output)[];
}
