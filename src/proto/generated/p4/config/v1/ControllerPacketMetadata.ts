// Original file: proto/p4/config/v1/p4info.proto

import type { Preamble as _p4_config_v1_Preamble, Preamble__Output as _p4_config_v1_Preamble__Output } from '../../../p4/config/v1/Preamble.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';
import type { P4NamedType as _p4_config_v1_P4NamedType, P4NamedType__Output as _p4_config_v1_P4NamedType__Output } from '../../../p4/config/v1/P4NamedType.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';

export interface _p4_config_v1_ControllerPacketMetadata_Metadata {
  'id'?: (number);
  'name'?: (string);
  'annotations'?: (string)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'bitwidth'?: (number);
  'type_name'?: (_p4_config_v1_P4NamedType | null);
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
}

export interface _p4_config_v1_ControllerPacketMetadata_Metadata__Output {
  'id': (number);
  'name': (string);
  'annotations': (string)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'bitwidth': (number);
  'type_name': (_p4_config_v1_P4NamedType__Output | null);
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
}

export interface ControllerPacketMetadata {
  'preamble'?: (_p4_config_v1_Preamble | null);
  'metadata'?: (_p4_config_v1_ControllerPacketMetadata_Metadata)[];
}

export interface ControllerPacketMetadata__Output {
  'preamble': (_p4_config_v1_Preamble__Output | null);
  'metadata': (_p4_config_v1_ControllerPacketMetadata_Metadata__Output)[];
}
