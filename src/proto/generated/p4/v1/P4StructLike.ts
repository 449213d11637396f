// Original file: proto/p4/v1/p4data.proto

import type { P4Data as _p4_v1_P4Data, P4Data__Output as _p4_v1_P4Data__Output } from '../../p4/v1/P4Data.js';

export interface P4StructLike {
  'members'?: (_p4_v1_P4Data)[];
}

export interface P4StructLike__Output {
  'members': (_p4_v1_P4Data__Output)[];
}
