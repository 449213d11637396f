// Original file: proto/p4/v1/p4runtime.proto

import type { BackupReplica as _p4_v1_BackupReplica, BackupReplica__Output as _p4_v1_BackupReplica__Output } from '../../p4/v1/BackupReplica.js';

export interface Replica {
  'egress_port'?: (number);
  'instance'?: (number);
  'port'?: (Buffer | Uint8Array | string);
  'backup_replicas'?: (_p4_v1_BackupReplica)[];
  'port_kind'?: "egress_port"|"port";
}

export interface Replica__Output {
  'egress_port'?: (number);
  'instance': (number);
  'port'?: (Buffer);
  'backup_replicas': (_p4_v1_BackupReplica__Output)[];
  'port_kind'?: "egress_port"|"port";
}
