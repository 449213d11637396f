// Original file: proto/p4/config/v1/p4info.proto

import type { Documentation as _p4_config_v1_Documentation, Documentation__Output as _p4_config_v1_Documentation__Output } from '../../../p4/config/v1/Documentation.js';
import type { StructuredAnnotation as _p4_config_v1_StructuredAnnotation, StructuredAnnotation__Output as _p4_config_v1_StructuredAnnotation__Output } from '../../../p4/config/v1/StructuredAnnotation.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';
import type { PlatformProperties as _p4_config_v1_PlatformProperties, PlatformProperties__Output as _p4_config_v1_PlatformProperties__Output } from '../../../p4/config/v1/PlatformProperties.js';

export interface PkgInfo {
  'name'?: (string);
  'version'?: (string);
  'doc'?: (_p4_config_v1_Documentation | null);
  'annotations'?: (string)[];
  'arch'?: (string);
  'organization'?: (string);
  'contact'?: (string);
  'url'?: (string);
  'structured_annotations'?: (_p4_config_v1_StructuredAnnotation)[];
  'annotation_locations'?: (_p4_config_v1_SourceLocation)[];
  'platform_properties'?: (_p4_config_v1_PlatformProperties | null);
}

export interface PkgInfo__Output {
  'name': (string);
  'version': (string);
  'doc': (_p4_config_v1_Documentation__Output | null);
  'annotations': (string)[];
  'arch': (string);
  'organization': (string);
  'contact': (string);
  'url': (string);
  'structured_annotations': (_p4_config_v1_StructuredAnnotation__Output)[];
  'annotation_locations': (_p4_config_v1_SourceLocation__Output)[];
  'platform_properties': (_p4_config_v1_PlatformProperties__Output | null);
}
