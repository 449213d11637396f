// Original file: proto/p4/v1/p4runtime.proto

import type { MulticastGroupEntry as _p4_v1_MulticastGroupEntry, MulticastGroupEntry__Output as _p4_v1_MulticastGroupEntry__Output } from '../../p4/v1/MulticastGroupEntry.js';
import type { CloneSessionEntry as _p4_v1_CloneSessionEntry, CloneSessionEntry__Output as _p4_v1_CloneSessionEntry__Output } from '../../p4/v1/CloneSessionEntry.js';

export interface PacketReplicationEngineEntry {
  'multicast_group_entry'?: (_p4_v1_MulticastGroupEntry | null);
  'clone_session_entry'?: (_p4_v1_CloneSessionEntry | null);
  'type'?: "multicast_group_entry"|"clone_session_entry";
}

export interface PacketReplicationEngineEntry__Output {
  'multicast_group_entry'?: (_p4_v1_MulticastGroupEntry__Output | null);
  'clone_session_entry'?: (_p4_v1_CloneSessionEntry__Output | null);
  'type'?: "multicast_group_entry"|"clone_session_entry";
}
