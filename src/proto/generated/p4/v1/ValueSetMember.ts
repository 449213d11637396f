// Original file: proto/p4/v1/p4runtime.proto

import type { FieldMatch as _p4_v1_FieldMatch, FieldMatch__Output as _p4_v1_FieldMatch__Output } from '../../p4/v1/FieldMatch.js';

export interface ValueSetMember {
  'match'?: (_p4_v1_FieldMatch)[];
}

export interface ValueSetMember__Output {
  'match': (_p4_v1_FieldMatch__Output)[];
}
