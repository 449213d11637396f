// Original file: proto/p4/config/v1/p4info.proto

import type { Documentation as _p4_config_v1_Documentation, Documentation__Output as _p4_config_v1_Documentation__Output } from '../../../p4/config/v1/Documentation.js';
import type { P4NamedType as _p4_config_v1_P4NamedType, P4NamedType__Output as _p4_config_v1_P4NamedType__Output } from '../../../p4/config/v1/P4NamedType.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';

// Original file: proto/p4/config/v1/p4info.proto

export const _p4_config_v1_MatchField_MatchType = {
  UNSPECIFIED: 'UNSPECIFIED',
  EXACT: 'EXACT',
  LPM: 'LPM',
  TERNARY: 'TERNARY',
  RANGE: 'RANGE',
  OPTIONAL: 'OPTIONAL',
} as const;

export type _p4_config_v1_MatchField_MatchType =
  | 'UNSPECIFIED'
  | 0
  | 'EXACT'
  | 2
  | 'LPM'
  | 3
  | 'TERNARY'
  | 4
  | 'RANGE'
  | 5
  | 'OPTIONAL'
  | 6

export type _p4_config_v1_MatchField_MatchType__Output = typeof _p4_config_v1_MatchField_MatchType[keyof typeof _p4_config_v1_MatchField_MatchType]

export interface MatchField {
  'id'?: (number);
  'name'?: (string);
  'annotations'?: (string)[];
  'bitwidth'?: (number);
  'match_type'?: (_p4_config_v1_MatchField_MatchType);
  'doc'?: (_p4_config_v1_Documentation | null);
  'other_match_type'?: (string);
  'type_name'?: (_p4_config_v1_P4NamedType | null);
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'match'?: "match_type"|"other_match_type";
}

export interface MatchField__Output {
  'id': (number);
  'name': (string);
  'annotations': (string)[];
  'bitwidth': (number);
  'match_type'?: (_p4_config_v1_MatchField_MatchType__Output);
  'doc': (_p4_config_v1_Documentation__Output | null);
  'other_match_type'?: (string);
  'type_name': (_p4_config_v1_P4NamedType__Output | null);
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'match'?: "match_type"|"other_match_type";
}
