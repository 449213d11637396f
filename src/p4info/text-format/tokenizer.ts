/**
 * Splits protobuf text format into tokens with their line and column, the way
 * protobuf's io::Tokenizer does: identifiers, integers (decimal, 0x-hex,
 * 0-octal), floats (with an optional f suffix), quoted strings (already
 * unescaped to bytes) and single-character symbols. `#` starts a comment.
 */
import { cUnescape } from './c-escape.js';
import { TextFormatError, TextFormatErrorCode, type SourcePosition } from './errors.js';

export type TokenKind = 'identifier' | 'integer' | 'float' | 'string' | 'symbol' | 'end';

export interface Token extends SourcePosition {
  readonly kind: TokenKind;
  /** The token as written (for strings: with quotes and escapes). */
  readonly text: string;
  /** A string token's value. */
  readonly bytes?: Buffer;
}

const SYMBOLS = new Set(['{', '}', '<', '>', '[', ']', ':', ';', ',', '/', '.', '-']);
const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;
const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\v', '\f']);

/** A short, printable rendering of a character for messages. */
function showChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code >= 0x20 && code < 0x7f ? `'${ch}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

export class Tokenizer {
  private pos = 0;
  private line = 1;
  private column = 1;
  private lookahead: Token | undefined;

  constructor(
    private readonly text: string,
    readonly source: string,
  ) {}

  /** The next token, without consuming it. */
  peek(): Token {
    this.lookahead ??= this.scan();
    return this.lookahead;
  }

  /** The next token, consumed. */
  next(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    return token;
  }

  /** A TextFormatError at `at`. */
  error(code: TextFormatErrorCode, at: SourcePosition, detail: string): TextFormatError {
    return new TextFormatError(code, this.source, at.line, at.column, detail);
  }

  private advance(count = 1): void {
    for (let i = 0; i < count && this.pos < this.text.length; i++) {
      const ch = this.text[this.pos++];
      if (ch === '\n') {
        this.line++;
        this.column = 1;
      } else {
        this.column++;
      }
    }
  }

  private skipBlanks(): void {
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos]!;
      if (WHITESPACE.has(ch)) {
        this.advance();
      } else if (ch === '#') {
        while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.advance();
      } else {
        return;
      }
    }
  }

  private scan(): Token {
    this.skipBlanks();
    const at = { line: this.line, column: this.column };
    const start = this.pos;
    if (start >= this.text.length) return { kind: 'end', text: '', ...at };
    const ch = this.text[start]!;
    if (IDENT_START.test(ch)) {
      while (this.pos < this.text.length && IDENT_PART.test(this.text[this.pos]!)) this.advance();
      return { kind: 'identifier', text: this.text.slice(start, this.pos), ...at };
    }
    if (DIGIT.test(ch) || (ch === '.' && DIGIT.test(this.text[start + 1] ?? ''))) return this.scanNumber(at);
    if (ch === '"' || ch === "'") return this.scanString(ch, at);
    if (SYMBOLS.has(ch)) {
      this.advance();
      return { kind: 'symbol', text: ch, ...at };
    }
    throw this.error(TextFormatErrorCode.SYNTAX, at, `unexpected character ${showChar(String.fromCodePoint(this.text.codePointAt(start)!))}`);
  }

  private scanNumber(at: SourcePosition): Token {
    const start = this.pos;
    const rest = this.text.slice(start);
    let kind: TokenKind = 'integer';
    const hex = /^0[xX][0-9a-fA-F]*/.exec(rest);
    if (hex) {
      if (hex[0].length === 2) throw this.error(TextFormatErrorCode.SYNTAX, at, '"0x" must be followed by hex digits');
      this.advance(hex[0].length);
    } else {
      const number = /^[0-9]*(\.[0-9]*)?([eE][+-]?[0-9]+)?/.exec(rest)![0];
      if (/^[0-9]*[eE]/.test(rest) && !/[eE][+-]?[0-9]/.test(number)) {
        throw this.error(TextFormatErrorCode.SYNTAX, at, `"${rest.slice(0, number.length + 2)}" has an exponent without digits`);
      }
      if (number.includes('.') || /[eE]/.test(number)) kind = 'float';
      else if (number.length > 1 && number.startsWith('0') && /[89]/.test(number)) {
        throw this.error(TextFormatErrorCode.SYNTAX, at, `"${number}" starts with 0, so it is octal, but has the digit 8 or 9`);
      }
      this.advance(number.length);
      const suffix = this.text[this.pos];
      if (suffix === 'f' || suffix === 'F') {
        kind = 'float';
        this.advance();
      }
    }
    const after = this.text[this.pos];
    if (after !== undefined && (IDENT_PART.test(after) || after === '.')) {
      throw this.error(TextFormatErrorCode.SYNTAX, at, `"${this.text.slice(start, this.pos + 1)}": a number must be followed by a space or a symbol`);
    }
    return { kind, text: this.text.slice(start, this.pos), ...at };
  }

  private scanString(quote: string, at: SourcePosition): Token {
    const start = this.pos;
    let end = start + 1;
    for (;;) {
      const ch = this.text[end];
      if (ch === undefined || ch === '\n') {
        throw this.error(TextFormatErrorCode.SYNTAX, at, 'unterminated string: the closing quote is missing before the end of the line');
      }
      if (ch === '\\') end += 2;
      else if (ch === quote) break;
      else end++;
    }
    const body = this.text.slice(start + 1, end);
    const result = cUnescape(body);
    if (!result.ok) {
      throw this.error(TextFormatErrorCode.SYNTAX, { line: at.line, column: at.column + 1 + result.offset }, result.message);
    }
    this.advance(end + 1 - start);
    return { kind: 'string', text: this.text.slice(start, end + 1), bytes: result.bytes, ...at };
  }
}
