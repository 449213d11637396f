/**
 * @fileoverview Types, type parameters and parameter lists.
 */
import type { Annotation } from '../ast/annotations.js';
import type { Direction, Parameter } from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { Name } from '../ast/node.js';
import type { NamedType, SpecializedType, TypeRef } from '../ast/types.js';
import { TokenKind } from '../lexer/token-kind.js';
import { AnnotationParser } from './annotation-parser.js';

export abstract class TypeParser extends AnnotationParser {
  /** True when the tokens at the cursor begin a type (keywords, or a name known to be a type). */
  protected startsType(offset = 0): boolean {
    switch (this.peek(offset).kind) {
      case TokenKind.Bit:
      case TokenKind.Int:
      case TokenKind.Varbit:
      case TokenKind.Bool:
      case TokenKind.String:
      case TokenKind.MatchKind:
      case TokenKind.Tuple:
        return true;
      case TokenKind.Error:
        return !this.at(TokenKind.Dot, offset + 1);
      default:
        return this.isTypeNameAt(offset);
    }
  }

  /**
   * typeRef: baseType | typeName | specializedType | headerStackType | tupleType
   *
   * A plain name is accepted as a type here even when it is not known to be
   * one: in a position where only a type can stand, an unknown name is a
   * resolve-names error ("unknown type"), not a syntax error.
   */
  protected parseTypeRef(): TypeRef | null {
    return this.nested(() => this.parseTypeRefLevel());
  }

  /** One level of typeRef (see parseTypeRef). */
  private parseTypeRefLevel(): TypeRef | null {
    const start = this.peek();
    switch (start.kind) {
      case TokenKind.Bool:
        this.next();
        return { kind: 'BoolType', span: start.span };
      case TokenKind.String:
        this.next();
        return { kind: 'StringType', span: start.span };
      case TokenKind.MatchKind:
        this.next();
        return { kind: 'MatchKindType', span: start.span };
      case TokenKind.Error:
        this.next();
        return { kind: 'ErrorType', span: start.span };
      case TokenKind.Bit:
      case TokenKind.Int:
      case TokenKind.Varbit:
        return this.parseBitsType();
      case TokenKind.Tuple: {
        this.next();
        const elements = this.parseTypeArguments();
        return elements ? { kind: 'TupleType', elements, span: this.spanFrom(start.span) } : null;
      }
      default: {
        if (!this.isNameToken() && !(this.at(TokenKind.Dot) && this.isNameToken(1))) {
          this.errorExpected('a type', 'ExpectedType');
          return null;
        }
        const named = this.parseNamedType();
        if (!named) return null;
        if (!this.at(TokenKind.LeftBracket)) return named;
        this.next();
        const size = this.parseExpression();
        if (!size || !this.expect(TokenKind.RightBracket)) return null;
        return { kind: 'StackType', element: named, size, span: this.spanFrom(start.span) };
      }
    }
  }

  /** typeOrVoid: typeRef | VOID   (an unknown name is accepted: generic return types come before their parameters) */
  protected parseTypeOrVoid(): TypeRef | null {
    const token = this.eat(TokenKind.Void);
    return token ? { kind: 'VoidType', span: token.span } : this.parseTypeRef();
  }

  /** typeName ['<' typeArgumentList '>'] */
  protected parseNamedType(): NamedType | SpecializedType | null {
    const path = this.parsePathName();
    if (!path) return null;
    const base: NamedType = { kind: 'NamedType', path, span: path.span };
    if (!this.at(TokenKind.Less)) return base;
    const args = this.parseTypeArguments();
    return args ? { kind: 'SpecializedType', base, args, span: this.spanFrom(path.span) } : null;
  }

  /**
   * baseType: BIT | INT | BIT '<' INTEGER '>' | INT '<' INTEGER '>' | VARBIT '<' INTEGER '>'
   *         | BIT '<' '(' expression ')' '>' | INT ... | VARBIT ...
   */
  private parseBitsType(): TypeRef | null {
    const keyword = this.next();
    if (!this.at(TokenKind.Less)) {
      if (keyword.kind === TokenKind.Int) return { kind: 'InfIntType', span: keyword.span };
      if (keyword.kind === TokenKind.Bit) return { kind: 'BitsType', signed: false, width: null, span: keyword.span };
      this.expect(TokenKind.Less);
      return null;
    }
    this.next();
    let width: Expression | null;
    if (this.eat(TokenKind.LeftParen)) {
      width = this.parseExpression();
      if (!width || !this.expect(TokenKind.RightParen)) return null;
    } else {
      const literal = this.expect(TokenKind.IntegerLiteral);
      if (!literal) return null;
      width = { kind: 'IntegerLiteral', ...literal.integer!, span: literal.span };
    }
    if (!this.expect(TokenKind.Greater)) return null;
    const span = this.spanFrom(keyword.span);
    if (keyword.kind === TokenKind.Varbit) return { kind: 'VarbitType', maxWidth: width, span };
    return { kind: 'BitsType', signed: keyword.kind === TokenKind.Int, width, span };
  }

  /** '<' [typeArg (',' typeArg)*] '>'   typeArg: typeRef | VOID | '_' */
  protected parseTypeArguments(): TypeRef[] | null {
    if (!this.expect(TokenKind.Less)) return null;
    const args: TypeRef[] = [];
    if (this.eat(TokenKind.Greater)) return args;
    do {
      let arg: TypeRef | null;
      const token = this.peek();
      if (this.eat(TokenKind.Underscore)) arg = { kind: 'DontCareType', span: token.span };
      else arg = this.parseTypeOrVoid();
      if (!arg) return null;
      args.push(arg);
    } while (this.eat(TokenKind.Comma));
    return this.expect(TokenKind.Greater) ? args : null;
  }

  /** optTypeParameters: ['<' name (',' name)* '>'] */
  protected parseTypeParameters(): Name[] | null {
    if (!this.eat(TokenKind.Less)) return [];
    const names: Name[] = [];
    do {
      const name = this.parseName();
      if (!name) return null;
      names.push(name);
    } while (this.eat(TokenKind.Comma));
    return this.expect(TokenKind.Greater) ? names : null;
  }

  /** Makes parameters visible as values (shadowing type names) in the current scope. */
  protected declareParameters(params: readonly Parameter[]): void {
    for (const p of params) this.types.declareValue(p.name.text);
  }

  /** '(' parameterList ')'   parameterList: [parameter (',' parameter)*] */
  protected parseParameterList(): Parameter[] | null {
    if (!this.expect(TokenKind.LeftParen)) return null;
    const params: Parameter[] = [];
    if (this.eat(TokenKind.RightParen)) return params;
    do {
      const param = this.parseParameter();
      if (!param) return null;
      params.push(param);
    } while (this.eat(TokenKind.Comma));
    return this.expect(TokenKind.RightParen) ? params : null;
  }

  /** parameter: optAnnotations direction typeRef name ['=' expression] */
  private parseParameter(): Parameter | null {
    const start = this.peek().span;
    const annotations: Annotation[] = this.parseAnnotations();
    let direction: Direction | null = null;
    if (this.eat(TokenKind.In)) direction = 'in';
    else if (this.eat(TokenKind.Out)) direction = 'out';
    else if (this.eat(TokenKind.InOut)) direction = 'inout';
    const type = this.parseTypeRef();
    const name = type && this.parseName();
    if (!type || !name) return null;
    let defaultValue: Expression | null = null;
    if (this.eat(TokenKind.Assign)) {
      defaultValue = this.parseExpression();
      if (!defaultValue) return null;
    }
    return { kind: 'Parameter', annotations, direction, type, name, defaultValue, span: this.spanFrom(start) };
  }
}
