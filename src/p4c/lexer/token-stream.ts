/**
 * @fileoverview A cursor over a token array for the parser: peek ahead,
 * consume, and mark/reset for the few places where P4's grammar needs to
 * try one reading and fall back to another.
 */
import type { Token } from './token.js';
import { TokenKind } from './token-kind.js';

export class TokenStream {
  private index = 0;

  /** `tokens` must end with an EndOfFile token. */
  constructor(private readonly tokens: readonly Token[]) {
    if (tokens.length === 0 || tokens[tokens.length - 1]!.kind !== TokenKind.EndOfFile) {
      throw new RangeError('a token stream must end with an EndOfFile token');
    }
  }

  /** The token `offset` places ahead (0 = the current one); EndOfFile past the end. */
  peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  /** The token just consumed, if any. */
  previous(): Token | undefined {
    return this.index > 0 ? this.tokens[this.index - 1] : undefined;
  }

  /** Consumes and returns the current token; at EndOfFile it stays there. */
  next(): Token {
    const token = this.peek();
    if (token.kind !== TokenKind.EndOfFile) this.index++;
    return token;
  }

  atEnd(): boolean {
    return this.peek().kind === TokenKind.EndOfFile;
  }

  /** A position to come back to with reset(). */
  mark(): number {
    return this.index;
  }

  reset(mark: number): void {
    this.index = mark;
  }
}
