// Original file: proto/p4/v1/p4runtime.proto

import type { FieldMatch as _p4_v1_FieldMatch, FieldMatch__Output as _p4_v1_FieldMatch__Output } from '../../p4/v1/FieldMatch.js';
import type { TableAction as _p4_v1_TableAction, TableAction__Output as _p4_v1_TableAction__Output } from '../../p4/v1/TableAction.js';
import type { MeterConfig as _p4_v1_MeterConfig, MeterConfig__Output as _p4_v1_MeterConfig__Output } from '../../p4/v1/MeterConfig.js';
import type { CounterData as _p4_v1_CounterData, CounterData__Output as _p4_v1_CounterData__Output } from '../../p4/v1/CounterData.js';
import type { MeterCounterData as _p4_v1_MeterCounterData, MeterCounterData__Output as _p4_v1_MeterCounterData__Output } from '../../p4/v1/MeterCounterData.js';
import type { Long } from '@grpc/proto-loader';

export interface _p4_v1_TableEntry_IdleTimeout {
  'elapsed_ns'?: (number | string | Long);
}

export interface _p4_v1_TableEntry_IdleTimeout__Output {
  'elapsed_ns': (string);
}

export interface TableEntry {
  'table_id'?: (number);
  'match'?: (_p4_v1_FieldMatch)[];
  'action'?: (_p4_v1_TableAction | null);
  'priority'?: (number);
  'controller_metadata'?: (number | string | Long);
  'meter_config'?: (_p4_v1_MeterConfig | null);
  'counter_data'?: (_p4_v1_CounterData | null);
  'is_default_action'?: (boolean);
  'idle_timeout_ns'?: (number | string | Long);
  'time_since_last_hit'?: (_p4_v1_TableEntry_IdleTimeout | null);
  'metadata'?: (Buffer | Uint8Array | string);
  'meter_counter_data'?: (_p4_v1_MeterCounterData | null);
  'is_const'?: (boolean);
}

export interface TableEntry__Output {
  'table_id': (number);
  'match': (_p4_v1_FieldMatch__Output)[];
  'action': (_p4_v1_TableAction__Output | null);
  'priority': (number);
  'controller_metadata': (string);
  'meter_config': (_p4_v1_MeterConfig__Output | null);
  'counter_data': (_p4_v1_CounterData__Output | null);
  'is_default_action': (boolean);
  'idle_timeout_ns': (string);
  'time_since_last_hit': (_p4_v1_TableEntry_IdleTimeout__Output | null);
  'metadata': (Buffer);
  'meter_counter_data': (_p4_v1_MeterCounterData__Output | null);
  'is_const': (boolean);
}
