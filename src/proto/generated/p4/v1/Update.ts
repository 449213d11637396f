// Original file: proto/p4/v1/p4runtime.proto

import type { Entity as _p4_v1_Entity, Entity__Output as _p4_v1_Entity__Output } from '../../p4/v1/Entity.js';

// Original file: proto/p4/v1/p4runtime.proto

export const _p4_v1_Update_Type = {
  UNSPECIFIED: 'UNSPECIFIED',
  INSERT: 'INSERT',
  MODIFY: 'MODIFY',
  DELETE: 'DELETE',
} as const;

export type _p4_v1_Update_Type =
  | 'UNSPECIFIED'
  | 0
  | 'INSERT'
  | 1
  | 'MODIFY'
  | 2
  | 'DELETE'
  | 3

export type _p4_v1_Update_Type__Output = typeof _p4_v1_Update_Type[keyof typeof _p4_v1_Update_Type]

export interface Update {
  'type'?: (_p4_v1_Update_Type);
  'entity'?: (_p4_v1_Entity | null);
}

export interface Update__Output {
  'type': (_p4_v1_Update_Type__Output);
  'entity': (_p4_v1_Entity__Output | null);
}
