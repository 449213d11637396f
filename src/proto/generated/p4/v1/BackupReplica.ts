// Original file: proto/p4/v1/p4runtime.proto


export interface BackupReplica {
  'port'?: (Buffer | Uint8Array | string);
  'instance'?: (number);
}

export interface BackupReplica__Output {
  'port': (Buffer);
  'instance': (number);
}
