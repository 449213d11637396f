// Original file: proto/p4/v1/p4data.proto

import type { P4HeaderUnion as _p4_v1_P4HeaderUnion, P4HeaderUnion__Output as _p4_v1_P4HeaderUnion__Output } from '../../p4/v1/P4HeaderUnion.js';

export interface P4HeaderUnionStack {
  'entries'?: (_p4_v1_P4HeaderUnion)[];
}

export interface P4HeaderUnionStack__Output {
  'entries': (_p4_v1_P4HeaderUnion__Output)[];
}
