// Original file: proto/p4/v1/p4runtime.proto

import type { Uint128 as _p4_v1_Uint128, Uint128__Output as _p4_v1_Uint128__Output } from '../../p4/v1/Uint128.js';
import type { ForwardingPipelineConfig as _p4_v1_ForwardingPipelineConfig, ForwardingPipelineConfig__Output as _p4_v1_ForwardingPipelineConfig__Output } from '../../p4/v1/ForwardingPipelineConfig.js';
import type { Long } from '@grpc/proto-loader';

// Original file: proto/p4/v1/p4runtime.proto

export const _p4_v1_SetForwardingPipelineConfigRequest_Action = {
  UNSPECIFIED: 'UNSPECIFIED',
  VERIFY: 'VERIFY',
  VERIFY_AND_SAVE: 'VERIFY_AND_SAVE',
  VERIFY_AND_COMMIT: 'VERIFY_AND_COMMIT',
  COMMIT: 'COMMIT',
  RECONCILE_AND_COMMIT: 'RECONCILE_AND_COMMIT',
} as const;

export type _p4_v1_SetForwardingPipelineConfigRequest_Action =
  | 'UNSPECIFIED'
  | 0
  | 'VERIFY'
  | 1
  | 'VERIFY_AND_SAVE'
  | 2
  | 'VERIFY_AND_COMMIT'
  | 3
  | 'COMMIT'
  | 4
  | 'RECONCILE_AND_COMMIT'
  | 5

export type _p4_v1_SetForwardingPipelineConfigRequest_Action__Output = typeof _p4_v1_SetForwardingPipelineConfigRequest_Action[keyof typeof _p4_v1_SetForwardingPipelineConfigRequest_Action]

export interface SetForwardingPipelineConfigRequest {
  'device_id'?: (number | string | Long);
  'role_id'?: (number | string | Long);
  'election_id'?: (_p4_v1_Uint128 | null);
  'action'?: (_p4_v1_SetForwardingPipelineConfigRequest_Action);
  'config'?: (_p4_v1_ForwardingPipelineConfig | null);
  'role'?: (string);
}

export interface SetForwardingPipelineConfigRequest__Output {
  'device_id': (string);
  'role_id': (string);
  'election_id': (_p4_v1_Uint128__Output | null);
  'action': (_p4_v1_SetForwardingPipelineConfigRequest_Action__Output);
  'config': (_p4_v1_ForwardingPipelineConfig__Output | null);
  'role': (string);
}
