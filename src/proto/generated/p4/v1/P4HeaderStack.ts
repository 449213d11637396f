// Original file: proto/p4/v1/p4data.proto

import type { P4Header as _p4_v1_P4Header, P4Header__Output as _p4_v1_P4Header__Output } from '../../p4/v1/P4Header.js';

export interface P4HeaderStack {
  'entries'?: (_p4_v1_P4Header)[];
}

export interface P4HeaderStack__Output {
  'entries': (_p4_v1_P4Header__Output)[];
}
