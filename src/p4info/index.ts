/** The P4Info model: schema lookups, value encoding and bytestrings. */
export * from './bytestring.js';
export * from './directory.js';
export * from './entities.js';
export * from './lookup-error.js';
export * from './schema.js';
export * from './value.js';
export * from './value-error.js';
export * from './ids.js';
