/** The recursive-descent P4-16 parser. */
export { parseAnnotationBody, parseTokens } from './parse.js';
