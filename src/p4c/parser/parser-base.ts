/**
 * @fileoverview The parser's foundation: the token cursor, error reporting
 * that does not cascade, recovery, speculation, and names.
 *
 * Error handling: a parse method that cannot go on reports one diagnostic
 * and returns null; the list that called it skips to a synchronisation point
 * (after the next `;` or before the next `}` at the same nesting) and goes on
 * with the next item, so one run reports every independent syntax error.
 * Only one error is reported per token position, which keeps a single
 * mistake from producing a cascade.
 */
import type { DiagnosticBag } from '../diagnostics/bag.js';
import type { DiagnosticId } from '../diagnostics/catalogue.js';
import type { Token } from '../lexer/token.js';
import { describeToken } from '../lexer/token.js';
import { TokenKind, isContextualKeyword, tokenKindName } from '../lexer/token-kind.js';
import type { TokenStream } from '../lexer/token-stream.js';
import type { Expression } from '../ast/expressions.js';
import type { Name, PathName } from '../ast/node.js';
import { joinSpans, spanAfter, type SourceSpan } from '../source/span.js';
import { MAX_NESTING } from './nesting-limit.js';
import { TypeScope } from './type-scope.js';


export abstract class ParserBase {
  protected readonly types = new TypeScope();
  private nesting = 0;
  private nestingReported = false;
  private lastErrorAt = -1;
  private speculating = 0;
  private speculationFailed = false;

  constructor(
    protected readonly tokens: TokenStream,
    protected readonly diagnostics: DiagnosticBag,
  ) {}

  /** Implemented by the expression layer; declared here so earlier layers can call it. */
  protected abstract parseExpression(minPrecedence?: number): Expression | null;

  // ---- cursor -------------------------------------------------------------

  protected peek(offset = 0): Token {
    return this.tokens.peek(offset);
  }

  protected at(kind: TokenKind, offset = 0): boolean {
    return this.tokens.peek(offset).kind === kind;
  }

  protected next(): Token {
    return this.tokens.next();
  }

  /** Consumes the current token if it is `kind`. */
  protected eat(kind: TokenKind): Token | null {
    return this.at(kind) ? this.next() : null;
  }

  /** Consumes a `kind` token, or reports "expected X" and returns null. */
  protected expect(kind: TokenKind): Token | null {
    if (this.at(kind)) return this.next();
    this.errorExpected(tokenKindName(kind));
    return null;
  }

  /** The span from `start` to the end of the last consumed token. */
  protected spanFrom(start: SourceSpan): SourceSpan {
    const last = this.tokens.previous();
    return last ? joinSpans(start, last.span) : start;
  }

  // ---- diagnostics ----------------------------------------------------------

  protected error(id: DiagnosticId, span: SourceSpan, args: readonly (string | number)[] = []): void {
    if (this.speculating > 0) {
      this.speculationFailed = true;
      return;
    }
    const position = this.tokens.mark();
    // One error per position; and text the lexer could not read was reported already.
    if (position === this.lastErrorAt || this.peek().kind === TokenKind.Invalid) return;
    this.lastErrorAt = position;
    this.diagnostics.report(id, span, args);
  }

  /**
   * "expected X, found Y". For a missing token (ExpectedToken) when Y starts
   * a later line than the previous token ended, the caret goes just after
   * the previous token: a missing `;` is reported where it is missing, not
   * at the start of the next line. Other errors point at Y itself.
   */
  protected errorExpected(what: string, id: DiagnosticId = 'ExpectedToken'): void {
    const found = this.peek();
    const previous = this.tokens.previous();
    const missing = id === 'ExpectedToken' && previous !== undefined && previous.span.end.line < found.span.start.line;
    const span = missing && !found.span.expandedFrom ? spanAfter(previous.span) : found.span;
    this.error(id, span, id === 'ExpectedToken' ? [what, describeToken(found)] : [describeToken(found)]);
  }

  /**
   * Runs one level of a recursive rule, or reports NestingTooDeep and
   * returns null when input nests deeper than MAX_NESTING.
   */
  protected nested<T>(parse: () => T | null): T | null {
    if (this.nesting >= MAX_NESTING) {
      // Once: the levels the parser unwinds through after the first report would each report again.
      if (!this.nestingReported) this.error('NestingTooDeep', this.peek().span, [MAX_NESTING]);
      this.nestingReported = this.speculating === 0;
      return null;
    }
    this.nesting++;
    try {
      return parse();
    } finally {
      this.nesting--;
    }
  }

  // ---- recovery ---------------------------------------------------------------

  /**
   * Skips to the next synchronisation point: just past a `;` or just before a
   * `}` at the current nesting, or end of file. Always consumes at least one
   * token when not already at a `}` or end of file, so callers make progress.
   */
  protected synchronize(): void {
    let depth = 0;
    while (!this.tokens.atEnd()) {
      const kind = this.peek().kind;
      if (depth === 0 && kind === TokenKind.RightBrace) return;
      this.next();
      if (kind === TokenKind.LeftBrace || kind === TokenKind.LeftParen || kind === TokenKind.LeftBracket) depth++;
      else if (kind === TokenKind.RightParen || kind === TokenKind.RightBracket) depth = Math.max(0, depth - 1);
      else if (kind === TokenKind.RightBrace) {
        depth--;
        // A closed block at depth 0 (e.g. a whole broken action) ends the item.
        if (depth === 0) return;
      } else if (kind === TokenKind.Semicolon && depth === 0) return;
    }
  }

  /**
   * Parses items until `close` or `stopAt` (not consumed) or end of file,
   * recovering from each failed item. Every iteration consumes input, so the loop ends.
   */
  protected parseItems<T>(close: TokenKind, parseItem: () => T | null, into: T[], stopAt?: TokenKind): void {
    while (!this.at(close) && !this.tokens.atEnd() && (stopAt === undefined || !this.at(stopAt))) {
      const before = this.tokens.mark();
      const item = parseItem();
      if (item !== null) {
        into.push(item);
        if (this.tokens.mark() !== before) continue;
      }
      if (this.at(close) || (stopAt !== undefined && this.at(stopAt))) return;
      this.synchronize();
      if (this.tokens.mark() === before) this.next();
    }
  }

  // ---- speculation ------------------------------------------------------------

  /**
   * Runs `attempt` without reporting anything; keeps its result and the
   * tokens it consumed only if it succeeded without errors, else rewinds.
   */
  protected speculate<T>(attempt: () => T | null): T | null {
    const mark = this.tokens.mark();
    const scopeDepth = this.types.depth();
    const outerFailed = this.speculationFailed;
    this.speculating++;
    this.speculationFailed = false;
    let result: T | null;
    try {
      result = attempt();
    } finally {
      this.speculating--;
    }
    const failed = this.speculationFailed;
    this.speculationFailed = outerFailed;
    if (result === null || failed) {
      this.tokens.reset(mark);
      this.types.restore(scopeDepth);
      return null;
    }
    return result;
  }

  // ---- names ---------------------------------------------------------------

  /** True for tokens that can be a name: identifiers and apply/key/actions/state/entries/type. */
  protected isNameToken(offset = 0): boolean {
    const kind = this.peek(offset).kind;
    return kind === TokenKind.Identifier || isContextualKeyword(kind);
  }

  /** name: IDENTIFIER | TYPE_IDENTIFIER | APPLY | KEY | ACTIONS | STATE | ENTRIES | TYPE */
  protected parseName(): Name | null {
    if (!this.isNameToken()) {
      this.errorExpected('a name', 'ExpectedName');
      return null;
    }
    const token = this.next();
    return { kind: 'Name', text: token.text, span: token.span };
  }

  /** prefixedNonTypeName: ['.'] name */
  protected parsePathName(): PathName | null {
    const dot = this.at(TokenKind.Dot) && this.isNameToken(1) ? this.next() : null;
    const name = this.parseName();
    if (!name) return null;
    return { kind: 'PathName', name, absolute: dot !== null, span: dot ? joinSpans(dot.span, name.span) : name.span };
  }

  /** True when the name at `offset` (after an optional '.') is a known type. */
  protected isTypeNameAt(offset = 0): boolean {
    const token = this.peek(offset);
    if (token.kind === TokenKind.Dot) return this.peek(offset + 1).kind === TokenKind.Identifier && this.types.isType(this.peek(offset + 1).text);
    return token.kind === TokenKind.Identifier && this.types.isType(token.text);
  }
}
