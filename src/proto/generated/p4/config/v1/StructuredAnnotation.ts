// Original file: proto/p4/config/v1/p4types.proto

import type { ExpressionList as _p4_config_v1_ExpressionList, ExpressionList__Output as _p4_config_v1_ExpressionList__Output } from '../../../p4/config/v1/ExpressionList.js';
import type { KeyValuePairList as _p4_config_v1_KeyValuePairList, KeyValuePairList__Output as _p4_config_v1_KeyValuePairList__Output } from '../../../p4/config/v1/KeyValuePairList.js';
import type { SourceLocation as _p4_config_v1_SourceLocation, SourceLocation__Output as _p4_config_v1_SourceLocation__Output } from '../../../p4/config/v1/SourceLocation.js';

export interface StructuredAnnotation {
  'name'?: (string);
  'expression_list'?: (_p4_config_v1_ExpressionList | null);
  'kv_pair_list'?: (_p4_config_v1_KeyValuePairList | null);
  'source_location'?: (_p4_config_v1_SourceLocation | null);
  'body'?: "expression_list"|"kv_pair_list";
}

export interface StructuredAnnotation__Output {
  'name': (string);
  'expression_list'?: (_p4_config_v1_ExpressionList__Output | null);
  'kv_pair_list'?: (_p4_config_v1_KeyValuePairList__Output | null);
  'source_location': (_p4_config_v1_SourceLocation__Output | null);
  'body'?: "expression_list"|"kv_pair_list";
}
