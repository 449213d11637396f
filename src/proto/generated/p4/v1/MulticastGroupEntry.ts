// Original file: proto/p4/v1/p4runtime.proto

import type { Replica as _p4_v1_Replica, Replica__Output as _p4_v1_Replica__Output } from '../../p4/v1/Replica.js';

export interface MulticastGroupEntry {
  'multicast_group_id'?: (number);
  'replicas'?: (_p4_v1_Replica)[];
  'metadata'?: (Buffer | Uint8Array | string);
}

export interface MulticastGroupEntry__Output {
  'multicast_group_id': (number);
  'replicas': (_p4_v1_Replica__Output)[];
  'metadata': (Buffer);
}
