// Original file: proto/p4/config/v1/p4info.proto

import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';

// Original file: proto/p4/config/v1/p4info.proto

export const _p4_config_v1_ActionRef_Scope = {
  TABLE_AND_DEFAULT: 'TABLE_AND_DEFAULT',
  TABLE_ONLY: 'TABLE_ONLY',
  DEFAULT_ONLY: 'DEFAULT_ONLY',
} as const;

export type _p4_config_v1_ActionRef_Scope =
  | 'TABLE_AND_DEFAULT'
  | 0
  | 'TABLE_ONLY'
  | 1
  | 'DEFAULT_ONLY'
  | 2

export type _p4_config_v1_ActionRef_Scope__Output = typeof _p4_config_v1_ActionRef_Scope[keyof typeof _p4_config_v1_ActionRef_Scope]

export interface ActionRef {
  'id'?: (number);
  'annotations'?: (string)[];
  'scope'?: (_p4_config_v1_ActionRef_Scope);
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
}

export interface ActionRef__Output {
  'id': (number);
  'annotations': (string)[];
  'scope': (_p4_config_v1_ActionRef_Scope__Output);
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
}
