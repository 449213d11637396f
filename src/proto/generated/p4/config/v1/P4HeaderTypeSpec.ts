// Original file: proto/p4/config/v1/p4types.proto

import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';
import type { P4BitstringLikeTypeSpec as _p4_config_v1_P4BitstringLikeTypeSpec, P4BitstringLikeTypeSpec__Output as _p4_config_v1_P4BitstringLikeTypeSpec__Output } from '../../../p4/config/v1/P4BitstringLikeTypeSpec.js';

export interface _p4_config_v1_P4HeaderTypeSpec_Member {
  'name'?: (string);
  'type_spec'?: (_p4_config_v1_P4BitstringLikeTypeSpec | null);
}

export interface _p4_config_v1_P4HeaderTypeSpec_Member__Output {
  'name': (string);
  'type_spec': (_p4_config_v1_P4BitstringLikeTypeSpec__Output | null);
}

export interface P4HeaderTypeSpec {
  'members'?: (_p4_config_v1_P4HeaderTypeSpec_Member)[];
  'annotations'?: (string)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
}

export interface P4HeaderTypeSpec__Output {
  'members': (_p4_config_v1_P4HeaderTypeSpec_Member__Output)[];
  'annotations': (string)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
}
