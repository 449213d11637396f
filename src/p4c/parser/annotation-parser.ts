/**
 * @fileoverview Annotations: `@name`, `@name(tokens)`, `@name[expressions]`
 * and `@name[key = value, ...]`.
 */
import type { Annotation, AnnotationToken } from '../ast/annotations.js';
import type { NamedExpression } from '../ast/expressions.js';
import type { Expression } from '../ast/expressions.js';
import { TokenKind } from '../lexer/token-kind.js';
import { ParserBase } from './parser-base.js';

export abstract class AnnotationParser extends ParserBase {
  /** optAnnotations: annotation* */
  protected parseAnnotations(): Annotation[] {
    const annotations: Annotation[] = [];
    while (this.at(TokenKind.At)) {
      const annotation = this.parseAnnotation();
      if (annotation) annotations.push(annotation);
    }
    return annotations;
  }

  /**
   * annotation
   *   : '@' name
   *   | '@' name '(' annotationBody ')'
   *   | '@' name '[' expressionList ']'
   *   | '@' name '[' kvList ']'
   */
  private parseAnnotation(): Annotation | null {
    const at = this.next();
    const name = this.parseName();
    if (!name) return null;
    if (this.eat(TokenKind.LeftParen)) {
      const tokens = this.parseAnnotationTokens();
      if (!tokens) return null;
      return { kind: 'Annotation', name, body: { kind: 'Unparsed', tokens }, span: this.spanFrom(at.span) };
    }
    if (this.eat(TokenKind.LeftBracket)) {
      const structured = this.isNameToken() && this.at(TokenKind.Assign, 1);
      const body = structured
        ? ({ kind: 'KeyValueList', pairs: this.parseKeyValueList() } as const)
        : ({ kind: 'ExpressionList', expressions: this.parseExpressionList(TokenKind.RightBracket) } as const);
      if (!this.expect(TokenKind.RightBracket)) return null;
      return { kind: 'Annotation', name, body, span: this.spanFrom(at.span) };
    }
    return { kind: 'Annotation', name, body: { kind: 'Empty' }, span: this.spanFrom(at.span) };
  }

  /** annotationBody: any tokens with balanced parentheses, up to the closing ')' (consumed). */
  private parseAnnotationTokens(): AnnotationToken[] | null {
    const tokens: AnnotationToken[] = [];
    let depth = 0;
    while (!this.tokens.atEnd()) {
      const token = this.peek();
      if (token.kind === TokenKind.RightParen && depth === 0) {
        this.next();
        return tokens;
      }
      if (token.kind === TokenKind.LeftParen) depth++;
      if (token.kind === TokenKind.RightParen) depth--;
      this.next();
      tokens.push({ kind: 'AnnotationToken', tokenKind: token.kind, text: token.text, spaceBefore: token.spaceBefore, span: token.span });
    }
    this.errorExpected("')'");
    return null;
  }

  /** kvList: kvPair (',' kvPair)*   kvPair: name '=' expression */
  protected parseKeyValueList(): NamedExpression[] {
    const pairs: NamedExpression[] = [];
    do {
      const name = this.parseName();
      if (!name || !this.expect(TokenKind.Assign)) break;
      const value = this.parseExpression();
      if (!value) break;
      pairs.push({ kind: 'NamedExpression', name, value, span: this.spanFrom(name.span) });
    } while (this.eat(TokenKind.Comma));
    return pairs;
  }

  /** expressionList: [expression (',' expression)*], ending before `close`. */
  protected parseExpressionList(close: TokenKind): Expression[] {
    const expressions: Expression[] = [];
    if (this.at(close)) return expressions;
    do {
      const expression = this.parseExpression();
      if (!expression) break;
      expressions.push(expression);
    } while (this.eat(TokenKind.Comma));
    return expressions;
  }
}
