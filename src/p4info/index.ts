/** The P4Info model: schema lookups, value encoding and bytestrings, and P4Info files (text, JSON, binary). */
export * from './bytestring.js';
export * from './directory.js';
export * from './entities.js';
export * from './lookup-error.js';
export * from './schema.js';
export * from './value.js';
export * from './value-error.js';
export * from './ids.js';
export * from './p4info-files.js';
export { formatJsonProto, jsonName, parseJsonProto } from './json-format.js';
export * from './text-format/index.js';
