// Original file: proto/p4/v1/p4runtime.proto

import type { TableEntry as _p4_v1_TableEntry, TableEntry__Output as _p4_v1_TableEntry__Output } from '../../p4/v1/TableEntry.js';
import type { Long } from '@grpc/proto-loader';

export interface IdleTimeoutNotification {
  'table_entry'?: (_p4_v1_TableEntry)[];
  'timestamp'?: (number | string | Long);
}

export interface IdleTimeoutNotification__Output {
  'table_entry': (_p4_v1_TableEntry__Output)[];
  'timestamp': (string);
}
