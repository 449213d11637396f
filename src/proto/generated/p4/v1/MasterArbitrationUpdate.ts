// Original file: proto/p4/v1/p4runtime.proto

import type { Role as _p4_v1_Role, Role__Output as _p4_v1_Role__Output } from '../../p4/v1/Role.js';
import type { Uint128 as _p4_v1_Uint128, Uint128__Output as _p4_v1_Uint128__Output } from '../../p4/v1/Uint128.js';
import type { Status as _google_rpc_Status, Status__Output as _google_rpc_Status__Output } from '../../google/rpc/Status.js';
import type { Long } from '@grpc/proto-loader';

export interface MasterArbitrationUpdate {
  'device_id'?: (number | string | Long);
  'role'?: (_p4_v1_Role | null);
  'election_id'?: (_p4_v1_Uint128 | null);
  'status'?: (_google_rpc_Status | null);
}

export interface MasterArbitrationUpdate__Output {
  'device_id': (string);
  'role': (_p4_v1_Role__Output | null);
  'election_id': (_p4_v1_Uint128__Output | null);
  'status': (_google_rpc_Status__Output | null);
}
