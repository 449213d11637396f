/**
 * @fileoverview The preprocessor: a subset of the C preprocessor that P4
 * programs use, working on tokens so that every token keeps its file, line
 * and column through includes and macro expansion.
 *
 * Supported: #include "..." and <...> (with a cycle check, #pragma once and
 * include guards), #define (object-like and function-like), #undef, #if,
 * #ifdef, #ifndef, #elif, #else, #endif with integer expressions and
 * defined(X), #error, #warning, and -D NAME[=VALUE] definitions.
 */
import type { DiagnosticBag } from '../diagnostics/bag.js';
import { lex } from '../lexer/lexer.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { nodeFileSystem, type SourceFileSystem } from '../source/file-system.js';
import type { SourceFile, SourceRegistry } from '../source/source-registry.js';
import { ConditionalStack } from './conditionals.js';
import { defineMacro, directiveText } from './define-directive.js';
import { evaluateIfExpression, replaceDefined } from './if-expression.js';
import { defaultLibraryDir, IncludeResolver } from './include-resolver.js';
import { appendAll, MacroExpander, MacroTable, macroDefinitionText } from './macros.js';

export interface PreprocessOptions {
  /** Directories searched by #include (-I), in order. */
  readonly includeDirs?: readonly string[];
  /** -D definitions: ["NAME", "NAME=VALUE"] or { NAME: "VALUE" }. */
  readonly defines?: readonly string[] | Readonly<Record<string, string>>;
  readonly fileSystem?: SourceFileSystem;
  /** Where <core.p4> and <v1model.p4> live; defaults to the package's p4/lib. */
  readonly libraryDir?: string;
}

export interface PreprocessContext {
  readonly sources: SourceRegistry;
  readonly diagnostics: DiagnosticBag;
}

/** Files included inside each other more deeply than this are reported. */
const MAX_INCLUDE_DEPTH = 64;
/**
 * Inclusions in all, each time a file is included counting: two files each
 * including the next twice, 30 deep, would be read 2^30 times.
 */
const MAX_INCLUSIONS = 4096;
const COMMAND_LINE = '<command-line>';

/**
 * Preprocesses `entryPath` (or `text`, named `entryPath`, when given) into one
 * token list ending with EndOfFile. Problems are reported to the context's bag.
 */
export function preprocess(
  entryPath: string,
  options: PreprocessOptions,
  context: PreprocessContext,
  text?: string,
): Token[] {
  return new Preprocessor(options, context).run(entryPath, text);
}

class Preprocessor {
  private readonly fs: SourceFileSystem;
  private readonly resolver: IncludeResolver;
  private readonly macros = new MacroTable();
  private readonly expander: MacroExpander;
  private readonly output: Token[] = [];
  private readonly includeStack: string[] = [];
  private readonly onceFiles = new Set<string>();
  private inclusions = 0;

  constructor(
    private readonly options: PreprocessOptions,
    private readonly context: PreprocessContext,
  ) {
    this.fs = options.fileSystem ?? nodeFileSystem;
    this.resolver = new IncludeResolver({
      includeDirs: options.includeDirs ?? [],
      libraryDir: options.libraryDir ?? defaultLibraryDir(),
      fileSystem: this.fs,
    });
    this.expander = new MacroExpander(this.macros, context.diagnostics);
  }

  run(entryPath: string, text?: string): Token[] {
    this.defineFromCommandLine();
    const entry = this.fs.normalize(entryPath);
    const source = text ?? this.fs.readFile(entry);
    if (source === undefined) {
      this.context.diagnostics.report('CannotReadFile', null, [entryPath]);
    } else {
      this.processFile(entry, source, null);
    }
    const end = this.output[this.output.length - 1]?.span ?? { file: entry, start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };
    this.output.push({ kind: TokenKind.EndOfFile, text: '', span: { file: end.file, start: end.end, end: end.end }, spaceBefore: true, lineStart: true });
    return this.output;
  }

  private defineFromCommandLine(): void {
    const defines = this.options.defines ?? [];
    const entries: [string, string | undefined][] = Array.isArray(defines)
      ? (defines as readonly string[]).map((d) => {
          const eq = d.indexOf('=');
          return eq < 0 ? [d, undefined] : [d.slice(0, eq), d.slice(eq + 1)];
        })
      : Object.entries(defines as Readonly<Record<string, string>>);
    // All definitions form one pseudo-file, a line each, so diagnostics can quote them.
    const lines: string[] = [];
    for (const [name, value] of entries) {
      if (/^[A-Za-z_]\w*$/.test(name)) lines.push(`${name} ${value ?? '1'}`);
      else this.context.diagnostics.report('InvalidCommandLineDefine', null, [value === undefined ? name : `${name}=${value}`]);
    }
    if (lines.length === 0) return;
    const text = lines.join('\n');
    this.context.sources.add(COMMAND_LINE, text);
    const tokens = lex(text, COMMAND_LINE);
    let start = 0;
    for (let i = 1; i <= tokens.length; i++) {
      if (i < tokens.length && !tokens[i]!.lineStart) continue;
      const line = tokens.slice(start, i).filter((t) => t.kind !== TokenKind.EndOfFile);
      if (line.length > 0) defineMacro(line, line[0]!, this.macros, this.context.diagnostics);
      start = i;
    }
  }

  private processFile(filePath: string, text: string, libraryName: string | null): void {
    const file = this.context.sources.add(filePath, text, libraryName);
    this.includeStack.push(filePath);
    const tokens = lex(text, filePath);
    const conditionals = new ConditionalStack();
    let pending: Token[] = [];
    const flush = (): void => {
      if (pending.length > 0) appendAll(this.output, this.expander.expand(pending));
      pending = [];
    };
    let i = 0;
    while (tokens[i]!.kind !== TokenKind.EndOfFile) {
      const token = tokens[i]!;
      if (token.kind === TokenKind.Hash && token.lineStart) {
        let end = i + 1;
        while (tokens[end]!.kind !== TokenKind.EndOfFile && !tokens[end]!.lineStart) end++;
        flush();
        this.directive(tokens.slice(i, end), conditionals, file);
        i = end;
        continue;
      }
      i++;
      if (!conditionals.isActive()) continue;
      // Invalid tokens stay in the stream, reported once here, so that the
      // parser sees something is there and does not report a second error.
      if (token.problem) this.context.diagnostics.report(token.problem.id, token.span, token.problem.args);
      if (token.kind === TokenKind.Hash) {
        this.context.diagnostics.report('InvalidCharacter', token.span, ['#']);
        pending.push({ ...token, kind: TokenKind.Invalid });
        continue;
      }
      pending.push(token);
    }
    flush();
    for (const group of conditionals.unclosed()) {
      this.context.diagnostics.report('UnterminatedConditional', group.span, [group.opener]);
    }
    this.includeStack.pop();
  }

  private directive(line: readonly Token[], conditionals: ConditionalStack, file: SourceFile): void {
    const bag = this.context.diagnostics;
    const filePath = file.path;
    const nameToken = line[1];
    if (!nameToken) return; // A lone '#' is the null directive.
    const name = nameToken.text;
    const args = line.slice(2);
    if (file.libraryName !== null && ['if', 'ifdef', 'ifndef', 'elif'].includes(name)) this.recordConfiguration(file, args);
    const span = nameToken.span;
    const top = conditionals.top();
    switch (name) {
      case 'if':
        conditionals.open(name, span, conditionals.isActive() && this.evaluate(args, span));
        return;
      case 'ifdef':
      case 'ifndef': {
        const macroName = args[0];
        if (conditionals.isActive() && (!macroName || !/^[A-Za-z_]\w*$/.test(macroName.text))) {
          bag.report('MalformedDefine', span, [name]);
        }
        const defined = macroName !== undefined && this.macros.has(macroName.text);
        conditionals.open(name, span, name === 'ifdef' ? defined : !defined);
        return;
      }
      case 'elif':
      case 'else':
        if (!top) {
          bag.report('UnmatchedConditional', span, [name]);
        } else if (top.sawElse) {
          bag.report('DirectiveAfterElse', span, [name]);
        } else if (!top.parentActive || top.taken) {
          top.active = false;
          top.sawElse = name === 'else';
        } else {
          top.active = name === 'else' || this.evaluate(args, span);
          top.taken = top.active;
          top.sawElse = name === 'else';
        }
        return;
      case 'endif':
        if (!conditionals.close()) bag.report('UnmatchedConditional', span, [name]);
        return;
    }
    if (!conditionals.isActive()) return;
    for (const token of args) if (token.problem) bag.report(token.problem.id, token.span, token.problem.args);
    switch (name) {
      case 'define':
        defineMacro(args, nameToken, this.macros, bag);
        return;
      case 'undef':
        if (!args[0] || !/^[A-Za-z_]\w*$/.test(args[0].text)) bag.report('MalformedDefine', span, [name]);
        else this.macros.undefine(args[0].text);
        return;
      case 'include':
        this.include(args, nameToken, filePath);
        return;
      case 'error':
        bag.report('ErrorDirective', span, [directiveText(args)]);
        return;
      case 'warning':
        bag.report('WarningDirective', span, [directiveText(args)]);
        return;
      case 'pragma':
        if (args[0]?.text === 'once') this.onceFiles.add(filePath);
        else bag.report('IgnoredDirective', span, [`pragma ${directiveText(args)}`]);
        return;
      case 'line':
        bag.report('IgnoredDirective', span, [name]);
        return;
      default:
        bag.report('UnknownDirective', span, [name]);
    }
  }

  /** Notes the program's macros that a library file's conditional consults (see SourceFile.configuration). */
  private recordConfiguration(file: SourceFile, args: readonly Token[]): void {
    for (const token of args) {
      const macro = token.kind === TokenKind.Identifier ? this.macros.get(token.text) : undefined;
      if (!macro || this.context.sources.get(macro.definedAt.file)?.libraryName) continue;
      file.configuration.set(macro.name, macroDefinitionText(macro).slice(macro.name.length).trimStart());
    }
  }

  private evaluate(args: readonly Token[], span: Token['span']): boolean {
    const withDefined = replaceDefined(args, (n) => this.macros.has(n));
    if (!withDefined) {
      this.context.diagnostics.report('InvalidIfExpression', span, ["malformed 'defined'"]);
      return false;
    }
    const result = evaluateIfExpression(this.expander.expand(withDefined));
    if (!result.ok) {
      this.context.diagnostics.report('InvalidIfExpression', span, [result.reason]);
      return false;
    }
    return result.value !== 0n;
  }

  private include(args: readonly Token[], directive: Token, filePath: string): void {
    const bag = this.context.diagnostics;
    const target = this.includeTarget(args, filePath);
    if (!target) {
      bag.report('MalformedInclude', directive.span);
      return;
    }
    if (target.extra) bag.report('ExtraTokensAfterDirective', directive.span, ['include']);
    const resolved = this.resolver.resolve(target.name, filePath, target.angled);
    if (!resolved) {
      const searched = this.resolver.searchPath(filePath, target.angled).join(', ');
      bag.report('IncludeNotFound', target.span, [target.name, searched]);
      return;
    }
    if (this.onceFiles.has(resolved.path)) return;
    const cycleStart = this.includeStack.indexOf(resolved.path);
    if (cycleStart >= 0) {
      bag.report('IncludeCycle', target.span, [[...this.includeStack.slice(cycleStart), resolved.path].join(' -> ')]);
      return;
    }
    if (this.includeStack.length >= MAX_INCLUDE_DEPTH) {
      bag.report('IncludeTooDeep', target.span, [MAX_INCLUDE_DEPTH]);
      return;
    }
    if (++this.inclusions > MAX_INCLUSIONS) {
      if (this.inclusions === MAX_INCLUSIONS + 1) bag.report('TooManyIncludes', target.span, [MAX_INCLUSIONS]);
      return;
    }
    const text = this.fs.readFile(resolved.path);
    if (text === undefined) {
      bag.report('CannotReadFile', target.span, [resolved.path]);
      return;
    }
    this.processFile(resolved.path, text, resolved.libraryName);
  }

  /** The file name of an #include line, read from the source text between the delimiters. */
  private includeTarget(
    args: readonly Token[],
    filePath: string,
  ): { name: string; angled: boolean; span: Token['span']; extra: boolean } | undefined {
    const first = args[0];
    if (first?.kind === TokenKind.StringLiteral && !first.problem) {
      return { name: first.stringValue ?? '', angled: false, span: first.span, extra: args.length > 1 };
    }
    if (first?.kind !== TokenKind.Less) return undefined;
    const close = args.findIndex((t) => t.kind === TokenKind.Greater);
    const text = this.context.sources.get(filePath)?.text;
    if (close < 0 || text === undefined) return undefined;
    const name = text.slice(first.span.end.offset, args[close]!.span.start.offset).trim();
    if (name === '') return undefined;
    const span = { file: filePath, start: first.span.start, end: args[close]!.span.end };
    return { name, angled: true, span, extra: args.length > close + 1 };
  }
}
