// Original file: proto/p4/v1/p4runtime.proto

import type { P4Info as _p4_config_v1_P4Info, P4Info__Output as _p4_config_v1_P4Info__Output } from '../../p4/config/v1/P4Info.js';
import type { Long } from '@grpc/proto-loader';

export interface _p4_v1_ForwardingPipelineConfig_Cookie {
  'cookie'?: (number | string | Long);
}

export interface _p4_v1_ForwardingPipelineConfig_Cookie__Output {
  'cookie': (string);
}

export interface ForwardingPipelineConfig {
  'p4info'?: (_p4_config_v1_P4Info | null);
  'p4_device_config'?: (Buffer | Uint8Array | string);
  'cookie'?: (_p4_v1_ForwardingPipelineConfig_Cookie | null);
}

export interface ForwardingPipelineConfig__Output {
  'p4info': (_p4_config_v1_P4Info__Output | null);
  'p4_device_config': (Buffer);
  'cookie': (_p4_v1_ForwardingPipelineConfig_Cookie__Output | null);
}
