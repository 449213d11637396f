/**
 * @fileoverview Keysets: what select cases and table entries match on:
 * values, masks `v &&& m`, ranges `lo .. hi`, `default`, `_`, and tuples.
 */
import type { Expression } from '../ast/expressions.js';
import { TokenKind } from '../lexer/token-kind.js';
import { joinSpans } from '../source/span.js';
import { ExpressionParser } from './expression-parser.js';

const REDUCED_KEYSETS = new Set(['MaskExpression', 'RangeExpression', 'DefaultExpression', 'DontCareExpression']);

export abstract class KeysetParser extends ExpressionParser {
  /** simpleKeysetExpression: expression ['&&&' expression | '..' expression] | DEFAULT | '_' */
  protected parseKeyset(): Expression | null {
    const token = this.peek();
    if (this.eat(TokenKind.Default)) return { kind: 'DefaultExpression', span: token.span };
    if (this.eat(TokenKind.Underscore)) return { kind: 'DontCareExpression', span: token.span };
    const value = this.parseExpression();
    if (!value) return null;
    if (this.eat(TokenKind.Mask)) {
      const mask = this.parseExpression();
      return mask && { kind: 'MaskExpression', value, mask, span: joinSpans(value.span, mask.span) };
    }
    if (this.eat(TokenKind.DotDot)) {
      const high = this.parseExpression();
      return high && { kind: 'RangeExpression', low: value, high, span: joinSpans(value.span, high.span) };
    }
    return value;
  }

  /**
   * keysetExpression: tupleKeysetExpression | simpleKeysetExpression
   * tupleKeysetExpression: '(' simpleKeyset (',' simpleKeyset)+ ')' | '(' reducedSimpleKeyset ')'
   *
   * Returns the keyset's elements and whether it was a tuple. A parenthesised
   * plain expression `(a + b)` is not a tuple, as in p4c.
   */
  protected parseKeysetList(): { elements: Expression[]; tuple: boolean } | null {
    if (this.at(TokenKind.LeftParen)) {
      const tuple = this.speculate(() => {
        this.next();
        const elements: Expression[] = [];
        do {
          const element = this.parseKeyset();
          if (!element) return null;
          elements.push(element);
        } while (this.eat(TokenKind.Comma));
        if (!this.expect(TokenKind.RightParen) || !this.at(TokenKind.Colon)) return null;
        const reduced = elements.length === 1 && REDUCED_KEYSETS.has(elements[0]!.kind);
        return elements.length > 1 || reduced ? elements : null;
      });
      if (tuple) return { elements: tuple, tuple: true };
    }
    if (!this.startsKeyset()) {
      this.errorExpected('a keyset', 'ExpectedKeyset');
      return null;
    }
    const keyset = this.parseKeyset();
    return keyset && { elements: [keyset], tuple: false };
  }

  private startsKeyset(): boolean {
    const kind = this.peek().kind;
    return !(kind === TokenKind.Colon || kind === TokenKind.Semicolon || kind === TokenKind.RightBrace || kind === TokenKind.EndOfFile);
  }
}
