/** The P4-16 lexer and the token types the preprocessor and parser share. */
export * from './token-kind.js';
export * from './token.js';
export * from './lexer.js';
export * from './token-stream.js';
export { formatIntegerLiteral, scanIntegerLiteral } from './integer-literal.js';
