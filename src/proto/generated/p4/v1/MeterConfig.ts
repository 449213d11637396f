// Original file: proto/p4/v1/p4runtime.proto

import type { Long } from '@grpc/proto-loader';

export interface MeterConfig {
  'cir'?: (number | string | Long);
  'cburst'?: (number | string | Long);
  'pir'?: (number | string | Long);
  'pburst'?: (number | string | Long);
  'eburst'?: (number | string | Long);
}

export interface MeterConfig__Output {
  'cir': (string);
  'cburst': (string);
  'pir': (string);
  'pburst': (string);
  'eburst': (string);
}
