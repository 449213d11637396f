// Original file: proto/p4/config/v1/p4types.proto

import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';
import type { P4NamedType as _p4_config_v1_P4NamedType, P4NamedType__Output as _p4_config_v1_P4NamedType__Output } from '../../../p4/config/v1/P4NamedType.js';

export interface _p4_config_v1_P4HeaderUnionTypeSpec_Member {
  'name'?: (string);
  'header'?: (_p4_config_v1_P4NamedType | null);
}

export interface _p4_config_v1_P4HeaderUnionTypeSpec_Member__Output {
  'name': (string);
  'header': (_p4_config_v1_P4NamedType__Output | null);
}

export interface P4HeaderUnionTypeSpec {
  'members'?: (_p4_config_v1_P4HeaderUnionTypeSpec_Member)[];
  'annotations'?: (string)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
}

export interface P4HeaderUnionTypeSpec__Output {
  'members': (_p4_config_v1_P4HeaderUnionTypeSpec_Member__Output)[];
  'annotations': (string)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
}
