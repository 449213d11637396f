// Original file: proto/p4/config/v1/p4info.proto


export interface _p4_config_v1_TableActionCall_Argument {
  'param_id'?: (number);
  'value'?: (Buffer | Uint8Array | string);
}

export interface _p4_config_v1_TableActionCall_Argument__Output {
  'param_id': (number);
  'value': (Buffer);
}

export interface TableActionCall {
  'action_id'?: (number);
  'arguments'?: (_p4_config_v1_TableActionCall_Argument)[];
}

export interface TableActionCall__Output {
  'action_id': (number);
  'arguments': (_p4_config_v1_TableActionCall_Argument__Output)[];
}
