// Original file: proto/p4/v1/p4runtime.proto

import type { Uint128 as _p4_v1_Uint128, Uint128__Output as _p4_v1_Uint128__Output } from '../../p4/v1/Uint128.js';
import type { Update as _p4_v1_Update, Update__Output as _p4_v1_Update__Output } from '../../p4/v1/Update.js';
import type { Long } from '@grpc/proto-loader';

// Original file: proto/p4/v1/p4runtime.proto

export const _p4_v1_WriteRequest_Atomicity = {
  CONTINUE_ON_ERROR: 'CONTINUE_ON_ERROR',
  ROLLBACK_ON_ERROR: 'ROLLBACK_ON_ERROR',
  DATAPLANE_ATOMIC: 'DATAPLANE_ATOMIC',
} as const;

export type _p4_v1_WriteRequest_Atomicity =
  | 'CONTINUE_ON_ERROR'
  | 0
  | 'ROLLBACK_ON_ERROR'
  | 1
  | 'DATAPLANE_ATOMIC'
  | 2

export type _p4_v1_WriteRequest_Atomicity__Output = typeof _p4_v1_WriteRequest_Atomicity[keyof typeof _p4_v1_WriteRequest_Atomicity]

export interface WriteRequest {
  'device_id'?: (number | string | Long);
  'role_id'?: (number | string | Long);
  'election_id'?: (_p4_v1_Uint128 | null);
  'updates'?: (_p4_v1_Update)[];
  'atomicity'?: (_p4_v1_WriteRequest_Atomicity);
  'role'?: (string);
}

export interface WriteRequest__Output {
  'device_id': (string);
  'role_id': (string);
  'election_id': (_p4_v1_Uint128__Output | null);
  'updates': (_p4_v1_Update__Output)[];
  'atomicity': (_p4_v1_WriteRequest_Atomicity__Output);
  'role': (string);
}
