/**
 * @fileoverview Source to AST in one call: preprocess, lex and parse a P4
 * file (or text), and check how deeply it nests, collecting every diagnostic. Never throws for bad input;
 * an internal bug becomes an "internal error" diagnostic.
 */
import type { Program } from './ast/program.js';
import { DiagnosticBag } from './diagnostics/bag.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import { checkNesting } from './parser/nesting-limit.js';
import { parseTokens } from './parser/parse.js';
import { preprocess, type PreprocessOptions } from './preprocess/preprocessor.js';
import { SourceRegistry } from './source/source-registry.js';
import { syntheticSpan } from './source/span.js';

export interface ParseOptions extends PreprocessOptions {
  /** Errors reported before the rest are dropped (default 200). */
  readonly maxErrors?: number;
}

export interface ParseResult {
  readonly ast: Program;
  readonly diagnostics: readonly Diagnostic[];
  /** Every file read, for quoting source lines and telling library declarations apart. */
  readonly sources: SourceRegistry;
  /** True when some diagnostic is an error. */
  readonly hasErrors: boolean;
}

/** Parses the P4 program in the file at `path`. */
export function parseProgram(path: string, options: ParseOptions = {}): ParseResult {
  return run(path, undefined, options);
}

/** Parses `text` as if it were the file `fileName` (includes are resolved relative to it). */
export function parseSource(text: string, fileName: string, options: ParseOptions = {}): ParseResult {
  return run(fileName, text, options);
}

function run(path: string, text: string | undefined, options: ParseOptions): ParseResult {
  const sources = new SourceRegistry();
  const diagnostics = new DiagnosticBag(sources, { maxErrors: options.maxErrors ?? 200 });
  const ast = parseInto({ sources, diagnostics }, path, text, options);
  return { ast, diagnostics: diagnostics.all(), sources, hasErrors: diagnostics.hasErrors() };
}

/** The parse stage for a caller that owns the registry and bag (the pass manager). */
export function parseInto(
  context: { readonly sources: SourceRegistry; readonly diagnostics: DiagnosticBag },
  path: string,
  text: string | undefined,
  options: PreprocessOptions,
): Program {
  const mark = context.diagnostics.mark();
  try {
    const tokens = preprocess(path, options, context, text);
    const program = parseTokens(tokens, context.diagnostics);
    // The parser stops at its own limit and says so; the check would say it again, and no pass runs on a program with errors.
    if (!context.diagnostics.all().slice(mark).some((d) => d.id === 'NestingTooDeep')) checkNesting(program, context.diagnostics);
    context.diagnostics.sortSince(mark, context.sources.all().map((f) => f.path));
    return program;
  } catch (error) {
    context.diagnostics.report('InternalError', null, ['parse', error instanceof Error ? error.message : String(error)]);
    return { kind: 'Program', declarations: [], span: syntheticSpan(path) };
  }
}
