/** The P4-16 abstract syntax tree: plain typed nodes with a `kind` and a `span`. */
export type * from './node.js';
export type * from './types.js';
export type * from './expressions.js';
export type * from './statements.js';
export type * from './tables.js';
export type * from './declarations.js';
export type * from './program.js';
export type { Annotation, AnnotationBody, AnnotationToken } from './annotations.js';
export { annotationBodyText, findAnnotation } from './annotations.js';
export { BINARY_PRECEDENCE, Precedence } from './operators.js';
export { childrenOf, walk, withoutSpans, type AstNode } from './walk.js';
