// Original file: proto/p4/config/v1/p4types.proto


export interface SourceLocation {
  'file'?: (string);
  'line'?: (number);
  'column'?: (number);
}

export interface SourceLocation__Output {
  'file': (string);
  'line': (number);
  'column': (number);
}
