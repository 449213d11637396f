/** The preprocessor: includes, macros and conditional compilation over tokens. */
export { preprocess, type PreprocessContext, type PreprocessOptions } from './preprocessor.js';
export { defaultLibraryDir } from './include-resolver.js';
