// Original file: proto/p4/config/v1/p4types.proto

import type { P4DataTypeSpec as _p4_config_v1_P4DataTypeSpec, P4DataTypeSpec__Output as _p4_config_v1_P4DataTypeSpec__Output } from '../../../p4/config/v1/P4DataTypeSpec.js';
import type { P4NewTypeTranslation as _p4_config_v1_P4NewTypeTranslation, P4NewTypeTranslation__Output as _p4_config_v1_P4NewTypeTranslation__Output } from '../../../p4/config/v1/P4NewTypeTranslation.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';

export interface P4NewTypeSpec {
  'original_type'?: (_p4_config_v1_P4DataTypeSpec | null);
  'translated_type'?: (_p4_config_v1_P4NewTypeTranslation | null);
  'annotations'?: (string)[];
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'representation'?: "original_type"|"translated_type";
}

export interface P4NewTypeSpec__Output {
  'original_type'?: (_p4_config_v1_P4DataTypeSpec__Output | null);
  'translated_type'?: (_p4_config_v1_P4NewTypeTranslation__Output | null);
  'annotations': (string)[];
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'representation'?: "original_type"|"translated_type";
}
