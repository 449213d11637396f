/**
 * @fileoverview The P4-16 front end's public API.
 *
 *   const { ast, diagnostics } = parseProgram('p4/ina.p4', { includeDirs: ['p4/include'], defines: ['N=8'] });
 *   if (diagnostics.length > 0) process.stderr.write(formatDiagnostics(diagnostics));
 */
export { parseProgram, parseSource, type ParseOptions, type ParseResult } from './parse-program.js';
export { formatDiagnostic, formatDiagnostics, caretLine } from './diagnostics/render.js';
export { DiagnosticBag, type DiagnosticBagOptions } from './diagnostics/bag.js';
export { DIAGNOSTIC_CATALOGUE, codeString, type DiagnosticDefinition, type DiagnosticId, type Severity } from './diagnostics/catalogue.js';
export type { Diagnostic, RelatedLocation } from './diagnostics/diagnostic.js';
export { printProgram, printNode, type PrintOptions } from './printer.js';
export { parseAnnotationBody, parseTokens } from './parser/parse.js';
export { preprocess, defaultLibraryDir, type PreprocessOptions } from './preprocess/index.js';
export { lex, TokenStream, TokenKind, tokenKindName, describeToken, type Token, type IntegerValue } from './lexer/index.js';
export { SourceRegistry, type LibraryInclude, type SourceFile } from './source/source-registry.js';
export { memoryFileSystem, nodeFileSystem, type SourceFileSystem } from './source/file-system.js';
export { joinSpans, syntheticSpan, type MacroOrigin, type SourcePosition, type SourceSpan } from './source/span.js';
export { CompileContext, SideTableKey, type CompileInput } from './passes/context.js';
export { PassManager, type Pass, type PassDump, type PassManagerResult, type RunOptions } from './passes/pass-manager.js';
export { frontEndPasses, parsePass, runFrontEnd, type FrontEndResult } from './passes/front-end.js';
export { compileProgram, type CompileResult } from './compile-program.js';
export { compilePipeline, type PipelineCompileOptions, type PipelineCompileResult } from './pipeline-compiler.js';
export { resolveNamesPass } from './passes/resolve-names.js';
export { typeCheckPass, typerFor } from './passes/type-check.js';
export { foldConstantsPass } from './passes/fold-constants.js';
export { checkControlPlanePass } from './passes/check-control-plane.js';
export { emitP4InfoPass, P4INFO } from './passes/emit-p4info.js';
export { lowerToIrPass, IR_DOCUMENT } from './passes/lower-to-ir.js';
export { REFERENCES, TYPES, CONSTANTS } from './semantics/side-tables.js';
export type { P4Type } from './semantics/p4-types.js';
export { serializeIr, parseIr } from './ir/serialize.js';
export type * from './ir/types.js';
export { IR_FORMAT, IR_VERSION } from './ir/types.js';
export * from './ast/index.js';
