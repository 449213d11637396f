// Original file: proto/p4/config/v1/p4info.proto


// Original file: proto/p4/config/v1/p4info.proto

export const _p4_config_v1_P4Ids_Prefix = {
  UNSPECIFIED: 'UNSPECIFIED',
  ACTION: 'ACTION',
  TABLE: 'TABLE',
  VALUE_SET: 'VALUE_SET',
  CONTROLLER_HEADER: 'CONTROLLER_HEADER',
  PSA_EXTERNS_START: 'PSA_EXTERNS_START',
  ACTION_PROFILE: 'ACTION_PROFILE',
  COUNTER: 'COUNTER',
  DIRECT_COUNTER: 'DIRECT_COUNTER',
  METER: 'METER',
  DIRECT_METER: 'DIRECT_METER',
  REGISTER: 'REGISTER',
  DIGEST: 'DIGEST',
  OTHER_EXTERNS_START: 'OTHER_EXTERNS_START',
  MAX: 'MAX',
} as const;

export type _p4_config_v1_P4Ids_Prefix =
  | 'UNSPECIFIED'
  | 0
  | 'ACTION'
  | 1
  | 'TABLE'
  | 2
  | 'VALUE_SET'
  | 3
  | 'CONTROLLER_HEADER'
  | 4
  | 'PSA_EXTERNS_START'
  | 16
  | 'ACTION_PROFILE'
  | 17
  | 'COUNTER'
  | 18
  | 'DIRECT_COUNTER'
  | 19
  | 'METER'
  | 20
  | 'DIRECT_METER'
  | 21
  | 'REGISTER'
  | 22
  | 'DIGEST'
  | 23
  | 'OTHER_EXTERNS_START'
  | 128
  | 'MAX'
  | 255

export type _p4_config_v1_P4Ids_Prefix__Output = typeof _p4_config_v1_P4Ids_Prefix[keyof typeof _p4_config_v1_P4Ids_Prefix]

export interface P4Ids {
}

export interface P4Ids__Output {
}
