// Original file: proto/p4/config/v1/p4types.proto

import type { P4BitTypeSpec as _p4_config_v1_P4BitTypeSpec, P4BitTypeSpec__Output as _p4_config_v1_P4BitTypeSpec__Output } from '../../../p4/config/v1/P4BitTypeSpec.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';

export interface _p4_config_v1_P4SerializableEnumTypeSpec_Member {
  'name'?: (string);
  'value'?: (Buffer | Uint8Array | string);
  'annotations'?: (string)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
}

export interface _p4_config_v1_P4SerializableEnumTypeSpec_Member__Output {
  'name': (string);
  'value': (Buffer);
  'annotations': (string)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
}

export interface P4SerializableEnumTypeSpec {
  'underlying_type'?: (_p4_config_v1_P4BitTypeSpec | null);
  'members'?: (_p4_config_v1_P4SerializableEnumTypeSpec_Member)[];
  'annotations'?: (string)[];
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
}

export interface P4SerializableEnumTypeSpec__Output {
  'underlying_type': (_p4_config_v1_P4BitTypeSpec__Output | null);
  'members': (_p4_config_v1_P4SerializableEnumTypeSpec_Member__Output)[];
  'annotations': (string)[];
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
}
