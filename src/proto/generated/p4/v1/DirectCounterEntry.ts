// Original file: proto/p4/v1/p4runtime.proto

import type { TableEntry as _p4_v1_TableEntry, TableEntry__Output as _p4_v1_TableEntry__Output } from '../../p4/v1/TableEntry.js';
import type { CounterData as _p4_v1_CounterData, CounterData__Output as _p4_v1_CounterData__Output } from '../../p4/v1/CounterData.js';

export interface DirectCounterEntry {
  'table_entry'?: (_p4_v1_TableEntry | null);
  'data'?: (_p4_v1_CounterData | null);
}

export interface DirectCounterEntry__Output {
  'table_entry': (_p4_v1_TableEntry__Output | null);
  'data': (_p4_v1_CounterData__Output | null);
}
