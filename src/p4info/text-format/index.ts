/** Protobuf text format (`.txtpb`), read and written through protobufjs reflection. */
export { parseTextProto } from './parser.js';
export { formatTextProto, type TextFormatOptions } from './printer.js';
export { TextFormatError, TextFormatErrorCode, type SourcePosition } from './errors.js';
