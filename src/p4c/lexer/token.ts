/**
 * @fileoverview Tokens: a kind, the source text, a span and what the
 * preprocessor and parser need to know about the spacing around them.
 */
import type { DiagnosticId } from '../diagnostics/catalogue.js';
import type { SourceSpan } from '../source/span.js';
import { TokenKind, tokenKindName } from './token-kind.js';

/** The value of an integer literal such as `8w0xff`, `16s5` or `42`. */
export interface IntegerValue {
  readonly value: bigint;
  /** The width before `w`/`s`, or null for an infinite-precision literal. */
  readonly width: number | null;
  /** True for `s` (int<W>), false for `w` (bit<W>) and unsized literals. */
  readonly signed: boolean;
  /** The base the digits were written in, kept so printing reads like the source. */
  readonly base: 2 | 8 | 10 | 16;
}

/** A lexical problem found in a token, reported only if the token survives preprocessing. */
export interface TokenProblem {
  readonly id: DiagnosticId;
  readonly args: readonly string[];
}

export interface Token {
  readonly kind: TokenKind;
  /** The text as written (for a string literal, with its quotes). */
  readonly text: string;
  readonly span: SourceSpan;
  /** True when whitespace or a comment separates this token from the one before. */
  readonly spaceBefore: boolean;
  /** True when this is the first token on its line (continued lines do not count). */
  readonly lineStart: boolean;
  readonly integer?: IntegerValue;
  /** The characters between the quotes of a string literal, escapes left as written. */
  readonly stringValue?: string;
  readonly problem?: TokenProblem;
}

/** How a token is named in messages: `';'`, `'table'`, `name 'foo'`, `end of file`. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case TokenKind.Identifier:
      return `name '${token.text}'`;
    case TokenKind.IntegerLiteral:
      return `integer ${token.text}`;
    case TokenKind.StringLiteral:
      return `string ${token.text.length > 30 ? token.text.slice(0, 27) + '..."' : token.text}`;
    case TokenKind.Invalid:
      return `'${token.text}'`;
    default:
      return tokenKindName(token.kind);
  }
}
