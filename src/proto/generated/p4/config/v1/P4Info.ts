// Original file: proto/p4/config/v1/p4info.proto

import type { PkgInfo as _p4_config_v1_PkgInfo, PkgInfo__Output as _p4_config_v1_PkgInfo__Output } from '../../../p4/config/v1/PkgInfo.js';
import type { Table as _p4_config_v1_Table, Table__Output as _p4_config_v1_Table__Output } from '../../../p4/config/v1/Table.js';
import type { Action as _p4_config_v1_Action, Action__Output as _p4_config_v1_Action__Output } from '../../../p4/config/v1/Action.js';
import type { ActionProfile as _p4_config_v1_ActionProfile, ActionProfile__Output as _p4_config_v1_ActionProfile__Output } from '../../../p4/config/v1/ActionProfile.js';
import type { Counter as _p4_config_v1_Counter, Counter__Output as _p4_config_v1_Counter__Output } from '../../../p4/config/v1/Counter.js';
import type { DirectCounter as _p4_config_v1_DirectCounter, DirectCounter__Output as _p4_config_v1_DirectCounter__Output } from '../../../p4/config/v1/DirectCounter.js';
import type { Meter as _p4_config_v1_Meter, Meter__Output as _p4_config_v1_Meter__Output } from '../../../p4/config/v1/Meter.js';
import type { DirectMeter as _p4_config_v1_DirectMeter, DirectMeter__Output as _p4_config_v1_DirectMeter__Output } from '../../../p4/config/v1/DirectMeter.js';
import type { ControllerPacketMetadata as _p4_config_v1_ControllerPacketMetadata, ControllerPacketMetadata__Output as _p4_config_v1_ControllerPacketMetadata__Output } from '../../../p4/config/v1/ControllerPacketMetadata.js';
import type { ValueSet as _p4_config_v1_ValueSet, ValueSet__Output as _p4_config_v1_ValueSet__Output } from '../../../p4/config/v1/ValueSet.js';
import type { Register as _p4_config_v1_Register, Register__Output as _p4_config_v1_Register__Output } from '../../../p4/config/v1/Register.js';
import type { Digest as _p4_config_v1_Digest, Digest__Output as _p4_config_v1_Digest__Output } from '../../../p4/config/v1/Digest.js';
import type { Extern as _p4_config_v1_Extern, Extern__Output as _p4_config_v1_Extern__Output } from '../../../p4/config/v1/Extern.js';
import type { P4TypeInfo as _p4_config_v1_P4TypeInfo, P4TypeInfo__Output as _p4_config_v1_P4TypeInfo__Output } from '../../../p4/config/v1/P4TypeInfo.js';

export interface P4Info {
  'pkg_info'?: (_p4_config_v1_PkgInfo | null);
  'tables'?: (_p4_config_v1_Table)[];
  'actions'?: (_p4_config_v1_Action)[];
  'action_profiles'?: (_p4_config_v1_ActionProfile)[];
  'counters'?: (_p4_config_v1_Counter)[];
  'direct_counters'?: (_p4_config_v1_DirectCounter)[];
  'meters'?: (_p4_config_v1_Meter)[];
  'direct_meters'?: (_p4_config_v1_DirectMeter)[];
  'controller_packet_metadata'?: (_p4_config_v1_ControllerPacketMetadata)[];
  'value_sets'?: (_p4_config_v1_ValueSet)[];
  'registers'?: (_p4_config_v1_Register)[];
  'digests'?: (_p4_config_v1_Digest)[];
  'externs'?: (_p4_config_v1_Extern)[];
  'type_info'?: (_p4_config_v1_P4TypeInfo | null);
}

export interface P4Info__Output {
  'pkg_info': (_p4_config_v1_PkgInfo__Output | null);
  'tables': (_p4_config_v1_Table__Output)[];
  'actions': (_p4_config_v1_Action__Output)[];
  'action_profiles': (_p4_config_v1_ActionProfile__Output)[];
  'counters': (_p4_config_v1_Counter__Output)[];
  'direct_counters': (_p4_config_v1_DirectCounter__Output)[];
  'meters': (_p4_config_v1_Meter__Output)[];
  'direct_meters': (_p4_config_v1_DirectMeter__Output)[];
  'controller_packet_metadata': (_p4_config_v1_ControllerPacketMetadata__Output)[];
  'value_sets': (_p4_config_v1_ValueSet__Output)[];
  'registers': (_p4_config_v1_Register__Output)[];
  'digests': (_p4_config_v1_Digest__Output)[];
  'externs': (_p4_config_v1_Extern__Output)[];
  'type_info': (_p4_config_v1_P4TypeInfo__Output | null);
}
