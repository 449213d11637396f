/**
 * @fileoverview The P4-16 lexer: source text to tokens, comments and
 * whitespace dropped. It never fails: text it cannot read becomes an Invalid
 * token (or a literal with a problem attached), and the preprocessor reports
 * those only if they are in code that is compiled, the way a C preprocessor
 * ignores junk inside `#if 0`.
 */
import type { SourcePosition, SourceSpan } from '../source/span.js';
import { scanIntegerLiteral } from './integer-literal.js';
import type { Token, TokenProblem } from './token.js';
import { KEYWORDS, PUNCTUATION, TokenKind } from './token-kind.js';

const isIdentifierStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdentifierPart = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** Lexes a whole file. The result always ends with one EndOfFile token. */
export function lex(text: string, file: string): Token[] {
  return new Lexer(text, file).run();
}

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStartOffset = 0;
  private readonly tokens: Token[] = [];
  private sawSpace = true;
  private atLineStart = true;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  run(): Token[] {
    while (true) {
      this.skipSpaceAndComments();
      if (this.pos >= this.text.length) break;
      this.scanToken();
    }
    const here = this.position();
    this.tokens.push({
      kind: TokenKind.EndOfFile,
      text: '',
      span: { file: this.file, start: here, end: here },
      spaceBefore: true,
      lineStart: true,
    });
    return this.tokens;
  }

  private position(): SourcePosition {
    return { line: this.line, column: this.pos - this.lineStartOffset + 1, offset: this.pos };
  }

  /** Moves past one character, keeping line and column up to date. */
  private advance(): void {
    if (this.text.charCodeAt(this.pos) === 10) {
      this.line++;
      this.lineStartOffset = this.pos + 1;
    }
    this.pos++;
  }

  private advanceTo(offset: number): void {
    while (this.pos < offset) this.advance();
  }

  private skipSpaceAndComments(): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      const next = this.text[this.pos + 1];
      if (c === '\n') {
        this.atLineStart = true;
        this.sawSpace = true;
        this.advance();
      } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.sawSpace = true;
        this.advance();
      } else if (c === '\\' && (next === '\n' || (next === '\r' && this.text[this.pos + 2] === '\n'))) {
        // A line continuation joins two lines: the next token is not at a line start.
        this.sawSpace = true;
        this.advanceTo(this.pos + (next === '\n' ? 2 : 3));
      } else if (c === '/' && next === '/') {
        while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.advance();
        this.sawSpace = true;
      } else if (c === '/' && next === '*') {
        const close = this.text.indexOf('*/', this.pos + 2);
        if (close < 0) {
          const start = this.position();
          this.advanceTo(this.text.length);
          this.push(TokenKind.Invalid, start, { id: 'UnterminatedComment', args: [] });
          return;
        }
        this.advanceTo(close + 2);
        this.sawSpace = true;
      } else {
        return;
      }
    }
  }

  private scanToken(): void {
    const start = this.position();
    const c = this.text[this.pos]!;
    if (c >= '0' && c <= '9') {
      const scanned = scanIntegerLiteral(this.text, this.pos);
      this.advanceTo(scanned.end);
      const problem: TokenProblem | undefined = scanned.problem
        ? { id: 'InvalidIntegerLiteral', args: [this.text.slice(start.offset, this.pos), scanned.problem] }
        : undefined;
      this.push(TokenKind.IntegerLiteral, start, problem, { integer: scanned.value });
      return;
    }
    if (isIdentifierStart(c)) {
      let end = this.pos + 1;
      while (isIdentifierPart(this.text[end])) end++;
      const word = this.text.slice(this.pos, end);
      this.advanceTo(end);
      this.push(KEYWORDS.get(word) ?? TokenKind.Identifier, start);
      return;
    }
    if (c === '"') {
      this.scanString(start);
      return;
    }
    for (const [spelling, kind] of PUNCTUATION) {
      if (this.text.startsWith(spelling, this.pos)) {
        this.advanceTo(this.pos + spelling.length);
        this.push(kind, start);
        return;
      }
    }
    this.advance();
    this.push(TokenKind.Invalid, start, { id: 'InvalidCharacter', args: [c] });
  }

  /**
   * A string runs to the next unescaped quote on the same line (as the C
   * preprocessor that P4 compilers run first sees it); escapes are kept as
   * written.
   */
  private scanString(start: SourcePosition): void {
    let end = this.pos + 1;
    while (end < this.text.length && this.text[end] !== '"' && this.text[end] !== '\n') {
      end += this.text[end] === '\\' && this.text[end + 1] !== '\n' ? 2 : 1;
    }
    if (end >= this.text.length || this.text[end] === '\n') {
      end = Math.min(end, this.text.length);
      this.advanceTo(end);
      const value = this.text.slice(start.offset + 1, end);
      this.push(TokenKind.StringLiteral, start, { id: 'UnterminatedString', args: [] }, { stringValue: value });
      return;
    }
    this.advanceTo(end + 1);
    this.push(TokenKind.StringLiteral, start, undefined, { stringValue: this.text.slice(start.offset + 1, end) });
  }

  private push(
    kind: TokenKind,
    start: SourcePosition,
    problem?: TokenProblem,
    extra: Pick<Token, 'integer' | 'stringValue'> = {},
  ): void {
    const span: SourceSpan = { file: this.file, start, end: this.position() };
    this.tokens.push({
      kind,
      text: this.text.slice(start.offset, this.pos),
      span,
      spaceBefore: this.sawSpace,
      lineStart: this.atLineStart,
      ...extra,
      ...(problem ? { problem } : {}),
    });
    this.sawSpace = false;
    this.atLineStart = false;
  }
}
