// Original file: proto/p4/config/v1/p4types.proto

import type { P4BitTypeSpec as _p4_config_v1_P4BitTypeSpec, P4BitTypeSpec__Output as _p4_config_v1_P4BitTypeSpec__Output } from '../../../p4/config/v1/P4BitTypeSpec.js';
import type { P4IntTypeSpec as _p4_config_v1_P4IntTypeSpec, P4IntTypeSpec__Output as _p4_config_v1_P4IntTypeSpec__Output } from '../../../p4/config/v1/P4IntTypeSpec.js';
import type { P4VarbitTypeSpec as _p4_config_v1_P4VarbitTypeSpec, P4VarbitTypeSpec__Output as _p4_config_v1_P4VarbitTypeSpec__Output } from '../../../p4/config/v1/P4VarbitTypeSpec.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';

export interface P4BitstringLikeTypeSpec {
  'bit'?: (_p4_config_v1_P4BitTypeSpec | null);
  'int'?: (_p4_config_v1_P4IntTypeSpec | null);
  'varbit'?: (_p4_config_v1_P4VarbitTypeSpec | null);
  'annotations'?: (string)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
  'type_spec'?: "bit"|"int"|"varbit";
}

export interface P4BitstringLikeTypeSpec__Output {
  'bit'?: (_p4_config_v1_P4BitTypeSpec__Output | null);
  'int'?: (_p4_config_v1_P4IntTypeSpec__Output | null);
  'varbit'?: (_p4_config_v1_P4VarbitTypeSpec__Output | null);
  'annotations': (string)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
  'type_spec'?: "bit"|"int"|"varbit";
}
