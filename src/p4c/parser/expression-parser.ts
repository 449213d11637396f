/**
 * @fileoverview Expressions by precedence climbing, with P4-16's precedence
 * table (ast/operators.ts), casts, calls with type arguments, and keysets.
 */
import type { Argument, BinaryOperator, Expression, NamedExpression, UnaryOperator } from '../ast/expressions.js';
import { BINARY_PRECEDENCE, Precedence } from '../ast/operators.js';
import type { TypeRef } from '../ast/types.js';
import { TokenKind } from '../lexer/token-kind.js';
import { joinSpans } from '../source/span.js';
import { TypeParser } from './type-parser.js';

const SIMPLE_BINARY = new Map<TokenKind, BinaryOperator>([
  [TokenKind.Star, '*'],
  [TokenKind.Slash, '/'],
  [TokenKind.Percent, '%'],
  [TokenKind.Plus, '+'],
  [TokenKind.Minus, '-'],
  [TokenKind.PlusSaturating, '|+|'],
  [TokenKind.MinusSaturating, '|-|'],
  [TokenKind.PlusPlus, '++'],
  [TokenKind.ShiftLeft, '<<'],
  [TokenKind.Less, '<'],
  [TokenKind.LessEqual, '<='],
  [TokenKind.GreaterEqual, '>='],
  [TokenKind.EqualEqual, '=='],
  [TokenKind.NotEqual, '!='],
  [TokenKind.Ampersand, '&'],
  [TokenKind.Caret, '^'],
  [TokenKind.Pipe, '|'],
  [TokenKind.AmpersandAmpersand, '&&'],
  [TokenKind.PipePipe, '||'],
]);

const UNARY = new Map<TokenKind, UnaryOperator>([
  [TokenKind.Bang, '!'],
  [TokenKind.Tilde, '~'],
  [TokenKind.Minus, '-'],
  [TokenKind.Plus, '+'],
]);

export abstract class ExpressionParser extends TypeParser {
  /**
   * expression: expression binop expression | expression '?' expression ':' expression | unary
   *
   * `a ? b : c ? d : e` groups as `(a ? b : c) ? d : e`, as in p4c's grammar
   * (p4parser.ypp declares `%precedence QUESTION` before `%precedence COLON`,
   * so bison reduces a finished `?:` before shifting the next `?`). The type
   * checker turns the resulting non-bool condition into advice (P4C3016).
   */
  protected parseExpression(minPrecedence: number = Precedence.Conditional): Expression | null {
    let left = this.parseUnary();
    while (left) {
      if (this.at(TokenKind.Question)) {
        if (minPrecedence > Precedence.Conditional) break;
        this.next();
        // The branches recurse without passing through parseUnary: `a ? b ? c ? … : x : x : x` must count its levels.
        const whenTrue = this.nested(() => this.parseExpression());
        if (!whenTrue || !this.expect(TokenKind.Colon)) return null;
        const whenFalse = this.nested(() => this.parseExpression(Precedence.LogicalOr));
        if (!whenFalse) return null;
        left = { kind: 'ConditionalExpression', condition: left, whenTrue, whenFalse, span: joinSpans(left.span, whenFalse.span) };
        continue;
      }
      const operator = this.binaryOperatorAt();
      if (!operator || BINARY_PRECEDENCE[operator] < minPrecedence) break;
      this.next();
      if (operator === '>>') this.next();
      const right = this.parseExpression(BINARY_PRECEDENCE[operator] + 1);
      if (!right) return null;
      left = { kind: 'BinaryExpression', operator, left, right, span: joinSpans(left.span, right.span) };
    }
    return left;
  }

  /** The binary operator at the cursor; `>>` is two '>' with nothing between them. */
  private binaryOperatorAt(): BinaryOperator | undefined {
    const token = this.peek();
    if (token.kind === TokenKind.Greater) {
      const second = this.peek(1);
      return second.kind === TokenKind.Greater && !second.spaceBefore ? '>>' : '>';
    }
    return SIMPLE_BINARY.get(token.kind);
  }

  /** unary: ('!' | '~' | '-' | '+') unary | '(' typeRef ')' unary | postfix */
  protected parseUnary(): Expression | null {
    return this.nested(() => this.parseUnaryLevel());
  }

  /** One level of unary (see parseUnary). */
  private parseUnaryLevel(): Expression | null {
    const token = this.peek();
    const operator = UNARY.get(token.kind);
    if (operator) {
      this.next();
      const operand = this.parseUnary();
      return operand && { kind: 'UnaryExpression', operator, operand, span: joinSpans(token.span, operand.span) };
    }
    if (token.kind === TokenKind.LeftParen && this.startsType(1)) {
      const type = this.speculate(() => {
        this.next();
        const t = this.parseTypeRef();
        return t && this.expect(TokenKind.RightParen) ? t : null;
      });
      if (type) {
        const operand = this.parseUnary();
        return operand && { kind: 'CastExpression', type, operand, span: joinSpans(token.span, operand.span) };
      }
    }
    const primary = this.parsePrimary();
    return primary && this.parsePostfix(primary);
  }

  /**
   * postfix: primary ( '.' name | '[' expression ']' | '[' expression ':' expression ']'
   *                  | ['<' typeArgs '>'] '(' argumentList ')' )*
   */
  protected parsePostfix(start: Expression): Expression | null {
    let expression = start;
    while (true) {
      if (this.at(TokenKind.Dot)) {
        this.next();
        const member = this.parseName();
        if (!member) return null;
        expression = { kind: 'MemberExpression', target: expression, member, span: joinSpans(expression.span, member.span) };
      } else if (this.eat(TokenKind.LeftBracket)) {
        const index = this.parseExpression();
        if (!index) return null;
        if (this.eat(TokenKind.Colon)) {
          const low = this.parseExpression();
          if (!low || !this.expect(TokenKind.RightBracket)) return null;
          expression = { kind: 'SliceExpression', target: expression, high: index, low, span: this.spanFrom(expression.span) };
        } else {
          if (!this.expect(TokenKind.RightBracket)) return null;
          expression = { kind: 'IndexExpression', target: expression, index, span: this.spanFrom(expression.span) };
        }
      } else if (this.at(TokenKind.LeftParen) || this.atTypeArgumentsOfCall()) {
        const typeArgs: TypeRef[] = this.at(TokenKind.Less) ? (this.parseTypeArguments() ?? []) : [];
        const args = this.parseArguments();
        if (!args) return null;
        expression = { kind: 'CallExpression', callee: expression, typeArgs, args, span: this.spanFrom(expression.span) };
      } else {
        return expression;
      }
    }
  }

  /** True at `<` when what follows reads as type arguments and then `(`: `extract<H>(...)`. */
  private atTypeArgumentsOfCall(): boolean {
    if (!this.at(TokenKind.Less)) return false;
    if (!this.startsType(1) && !this.at(TokenKind.Void, 1) && !this.at(TokenKind.Underscore, 1)) return false;
    const mark = this.tokens.mark();
    const ok = this.speculate(() => (this.parseTypeArguments() && this.at(TokenKind.LeftParen) ? true : null));
    this.tokens.reset(mark);
    return ok === true;
  }

  /**
   * primary: INTEGER | STRING_LITERAL | TRUE | FALSE | THIS | ['.'] name
   *        | typeName '.' name | namedType '(' argumentList ')' | ERROR '.' name
   *        | '(' expression ')' | '{' expressionList '}' | '{' kvList '}'
   */
  private parsePrimary(): Expression | null {
    const token = this.peek();
    switch (token.kind) {
      case TokenKind.IntegerLiteral:
        this.next();
        return { kind: 'IntegerLiteral', ...token.integer!, span: token.span };
      case TokenKind.StringLiteral:
        this.next();
        return { kind: 'StringLiteral', value: token.stringValue ?? '', span: token.span };
      case TokenKind.True:
      case TokenKind.False:
        this.next();
        return { kind: 'BooleanLiteral', value: token.kind === TokenKind.True, span: token.span };
      case TokenKind.This:
        this.next();
        return { kind: 'ThisExpression', span: token.span };
      case TokenKind.Error:
        if (!this.at(TokenKind.Dot, 1)) break;
        this.next();
        return { kind: 'TypeNameExpression', type: { kind: 'ErrorType', span: token.span }, span: token.span };
      case TokenKind.LeftParen: {
        this.next();
        const inner = this.parseExpression();
        return inner && this.expect(TokenKind.RightParen) ? inner : null;
      }
      case TokenKind.LeftBrace:
        return this.parseBraceExpression();
      default:
        if (this.isTypeNameAt()) return this.parseTypeLedExpression();
        if (this.isNameToken() || (this.at(TokenKind.Dot) && this.isNameToken(1))) {
          const path = this.parsePathName();
          return path && { kind: 'PathExpression', path, span: path.span };
        }
    }
    this.errorExpected('an expression', 'ExpectedExpression');
    return null;
  }

  /** A type name in an expression: `Type(args)` (constructor call) or `Type.member`. */
  private parseTypeLedExpression(): Expression | null {
    const type = this.parseNamedType();
    if (!type) return null;
    if (this.at(TokenKind.LeftParen)) {
      const args = this.parseArguments();
      return args && { kind: 'ConstructorCallExpression', type, args, span: this.spanFrom(type.span) };
    }
    if (!this.at(TokenKind.Dot)) {
      this.error('TypeUsedAsValue', type.span, [type.kind === 'NamedType' ? type.path.name.text : type.base.path.name.text]);
      return null;
    }
    return { kind: 'TypeNameExpression', type, span: type.span };
  }

  /** '{' expressionList '}' | '{' kvList '}' */
  private parseBraceExpression(): Expression | null {
    const open = this.next();
    if (this.isNameToken() && this.at(TokenKind.Assign, 1)) {
      const fields: NamedExpression[] = this.parseKeyValueList();
      return this.expect(TokenKind.RightBrace) ? { kind: 'StructExpression', fields, span: this.spanFrom(open.span) } : null;
    }
    const elements = this.parseExpressionList(TokenKind.RightBrace);
    return this.expect(TokenKind.RightBrace) ? { kind: 'ListExpression', elements, span: this.spanFrom(open.span) } : null;
  }

  /** '(' [argument (',' argument)*] ')'   argument: expression | name '=' expression | '_' */
  protected parseArguments(): Argument[] | null {
    if (!this.expect(TokenKind.LeftParen)) return null;
    const args: Argument[] = [];
    if (this.eat(TokenKind.RightParen)) return args;
    do {
      const start = this.peek();
      if (this.at(TokenKind.Underscore) && (this.at(TokenKind.Comma, 1) || this.at(TokenKind.RightParen, 1))) {
        this.next();
        args.push({ kind: 'Argument', name: null, value: { kind: 'DontCareExpression', span: start.span }, span: start.span });
        continue;
      }
      const name = this.isNameToken() && this.at(TokenKind.Assign, 1) ? this.parseName() : null;
      if (name) this.next();
      const value = this.parseExpression();
      if (!value) return null;
      args.push({ kind: 'Argument', name, value, span: this.spanFrom(start.span) });
    } while (this.eat(TokenKind.Comma));
    return this.expect(TokenKind.RightParen) ? args : null;
  }

  /** True when the current token can begin an expression. */
  protected startsExpression(): boolean {
    switch (this.peek().kind) {
      case TokenKind.IntegerLiteral:
      case TokenKind.StringLiteral:
      case TokenKind.True:
      case TokenKind.False:
      case TokenKind.This:
      case TokenKind.LeftParen:
      case TokenKind.LeftBrace:
      case TokenKind.Dot:
      case TokenKind.Error:
        return true;
      default:
        return UNARY.has(this.peek().kind) || this.isNameToken();
    }
  }
}
