// Original file: proto/p4/v1/p4runtime.proto

import type { Index as _p4_v1_Index, Index__Output as _p4_v1_Index__Output } from '../../p4/v1/Index.js';
import type { CounterData as _p4_v1_CounterData, CounterData__Output as _p4_v1_CounterData__Output } from '../../p4/v1/CounterData.js';

export interface CounterEntry {
  'counter_id'?: (number);
  'index'?: (_p4_v1_Index | null);
  'data'?: (_p4_v1_CounterData | null);
}

export interface CounterEntry__Output {
  'counter_id': (number);
  'index': (_p4_v1_Index__Output | null);
  'data': (_p4_v1_CounterData__Output | null);
}
