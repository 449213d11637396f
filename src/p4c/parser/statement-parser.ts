/**
 * @fileoverview Statements, blocks, and the declarations that may stand
 * among statements: constants, variables, instantiations, and the functions
 * of an instantiation's `= { ... }` initializer.
 */
import type { Annotation } from '../ast/annotations.js';
import type { ConstantDeclaration, FunctionDeclaration, Instantiation, VariableDeclaration } from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { BlockStatement, Statement, StatementOrDeclaration, SwitchCase } from '../ast/statements.js';
import type { TypeRef } from '../ast/types.js';
import { TokenKind } from '../lexer/token-kind.js';
import type { SourceSpan } from '../source/span.js';
import { KeysetParser } from './keyset-parser.js';

const isLvalue = (e: Expression): boolean =>
  e.kind === 'PathExpression' ||
  e.kind === 'ThisExpression' ||
  ((e.kind === 'MemberExpression' || e.kind === 'IndexExpression' || e.kind === 'SliceExpression') && isLvalue(e.target));

export abstract class StatementParser extends KeysetParser {
  /** blockStatement: optAnnotations '{' statOrDeclList '}' */
  protected parseBlock(annotations: Annotation[] = [], start: SourceSpan = this.peek().span): BlockStatement | null {
    if (!this.expect(TokenKind.LeftBrace)) return null;
    const body: StatementOrDeclaration[] = [];
    this.types.push();
    try {
      this.parseItems(TokenKind.RightBrace, () => this.parseStatementOrDeclaration(), body);
    } finally {
      this.types.pop();
    }
    if (!this.expect(TokenKind.RightBrace)) return null;
    return { kind: 'BlockStatement', annotations, body, span: this.spanFrom(start) };
  }

  /** statementOrDeclaration: variableDeclaration | constantDeclaration | statement | instantiation */
  protected parseStatementOrDeclaration(): StatementOrDeclaration | null {
    return this.nested(() => this.parseStatementOrDeclarationLevel());
  }

  /** One level of statementOrDeclaration (see parseStatementOrDeclaration). */
  private parseStatementOrDeclarationLevel(): StatementOrDeclaration | null {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    if (this.at(TokenKind.Const)) return this.parseConstantDeclaration(annotations, start);
    if (this.at(TokenKind.LeftBrace)) return this.parseBlock(annotations, start);
    const declaration = this.parseDeclarationStartingWithType(annotations, start);
    if (declaration !== undefined) return declaration;
    return this.parseStatementAfterAnnotations(annotations, start);
  }

  /**
   * variableDeclaration: annotations typeRef name ['=' expression] ';'
   * instantiation:       annotations typeRef '(' argumentList ')' name ['=' objInitializer] ';'
   *
   * Returns undefined (having consumed nothing) when the tokens do not start
   * a declaration, e.g. `T.apply();` or `x = 1;`.
   */
  protected parseDeclarationStartingWithType(
    annotations: Annotation[],
    start: SourceSpan,
  ): VariableDeclaration | Instantiation | null | undefined {
    const unknownTypeName = this.at(TokenKind.Identifier) && this.isNameToken(1);
    if (!this.startsType() && !unknownTypeName) return undefined;
    const mark = this.tokens.mark();
    const type = this.parseTypeRef();
    if (!type) return null;
    if (this.isNameToken()) return this.parseVariableDeclaration(annotations, type, start);
    if (this.at(TokenKind.LeftParen)) return this.parseInstantiation(annotations, type, start);
    // `T.apply(...)`, `E.member`: an expression that starts with a type name.
    this.tokens.reset(mark);
    return undefined;
  }

  /** statement: assignmentOrMethodCallStatement | conditionalStatement | emptyStatement | blockStatement
   *           | returnStatement | exitStatement | switchStatement */
  protected parseStatement(): Statement | null {
    const start = this.peek().span;
    const item = this.parseStatementOrDeclaration();
    if (!item) return null;
    if (item.kind === 'VariableDeclaration' || item.kind === 'ConstantDeclaration' || item.kind === 'Instantiation') {
      this.error('DeclarationNotAllowedHere', start, [item.name.text, 'a branch must be a statement; put the declaration in a { } block']);
      return null;
    }
    return item;
  }

  /** emptyStatement | exitStatement | returnStatement | conditionalStatement | switchStatement
   *  | assignmentOrMethodCallStatement   (after optional annotations, which only a block may carry) */
  private parseStatementAfterAnnotations(annotations: Annotation[], start: SourceSpan): Statement | null {
    const token = this.peek();
    if (annotations.length > 0) {
      this.errorExpected("'{' after annotations");
      return null;
    }
    switch (token.kind) {
      case TokenKind.Semicolon:
        this.next();
        return { kind: 'EmptyStatement', span: token.span };
      case TokenKind.Exit:
        this.next();
        return this.expect(TokenKind.Semicolon) ? { kind: 'ExitStatement', span: this.spanFrom(start) } : null;
      case TokenKind.Return: {
        this.next();
        const value = this.at(TokenKind.Semicolon) ? null : this.parseExpression();
        if ((value === null && !this.at(TokenKind.Semicolon)) || !this.expect(TokenKind.Semicolon)) return null;
        return { kind: 'ReturnStatement', value, span: this.spanFrom(start) };
      }
      case TokenKind.If:
        return this.parseIf();
      case TokenKind.Switch:
        return this.parseSwitch();
      default:
        if (!this.startsExpression()) {
          this.errorExpected('a statement', 'ExpectedStatement');
          return null;
        }
        return this.parseAssignmentOrCall(start);
    }
  }

  /** assignmentOrMethodCallStatement: lvalue '=' expression ';' | lvalue ['<' typeArgs '>'] '(' argumentList ')' ';' */
  private parseAssignmentOrCall(start: SourceSpan): Statement | null {
    const target = this.parseExpression();
    if (!target) return null;
    if (this.eat(TokenKind.Assign)) {
      if (!isLvalue(target)) this.error('NotAssignable', target.span);
      const value = this.parseExpression();
      if (!value || !this.expect(TokenKind.Semicolon)) return null;
      return { kind: 'AssignmentStatement', target, value, span: this.spanFrom(start) };
    }
    if (target.kind === 'CallExpression') {
      return this.expect(TokenKind.Semicolon) ? { kind: 'CallStatement', call: target, span: this.spanFrom(start) } : null;
    }
    if (this.at(TokenKind.Semicolon)) this.error('ExpectedStatementNotExpression', target.span);
    else this.errorExpected("'=', '(' or ';'");
    return null;
  }

  /** conditionalStatement: IF '(' expression ')' statement [ELSE statement] */
  private parseIf(): Statement | null {
    const start = this.next().span;
    if (!this.expect(TokenKind.LeftParen)) return null;
    const condition = this.parseExpression();
    if (!condition || !this.expect(TokenKind.RightParen)) return null;
    const then = this.parseStatement();
    if (!then) return null;
    let otherwise: Statement | null = null;
    if (this.eat(TokenKind.Else)) {
      otherwise = this.parseStatement();
      if (!otherwise) return null;
    }
    return { kind: 'IfStatement', condition, then, else: otherwise, span: this.spanFrom(start) };
  }

  /** switchStatement: SWITCH '(' expression ')' '{' (switchLabel ':' [blockStatement])* '}' */
  private parseSwitch(): Statement | null {
    const start = this.next().span;
    if (!this.expect(TokenKind.LeftParen)) return null;
    const subject = this.parseExpression();
    if (!subject || !this.expect(TokenKind.RightParen) || !this.expect(TokenKind.LeftBrace)) return null;
    const cases: SwitchCase[] = [];
    this.parseItems(TokenKind.RightBrace, () => this.parseSwitchCase(), cases);
    if (!this.expect(TokenKind.RightBrace)) return null;
    return { kind: 'SwitchStatement', subject, cases, span: this.spanFrom(start) };
  }

  /** switchCase: (DEFAULT | nonBraceExpression) ':' [blockStatement] */
  private parseSwitchCase(): SwitchCase | null {
    const token = this.peek();
    const label: Expression | null = this.eat(TokenKind.Default)
      ? { kind: 'DefaultExpression', span: token.span }
      : this.parseExpression();
    if (!label || !this.expect(TokenKind.Colon)) return null;
    let body: BlockStatement | null = null;
    if (this.at(TokenKind.LeftBrace)) {
      body = this.parseBlock();
      if (!body) return null;
    }
    return { kind: 'SwitchCase', label, body, span: this.spanFrom(token.span) };
  }

  /** constantDeclaration: optAnnotations CONST typeRef name '=' initializer ';' */
  protected parseConstantDeclaration(annotations: Annotation[], start: SourceSpan): ConstantDeclaration | null {
    this.next();
    const type = this.parseTypeRef();
    const name = type && this.parseName();
    if (!type || !name || !this.expect(TokenKind.Assign)) return null;
    const value = this.parseExpression();
    if (!value || !this.expect(TokenKind.Semicolon)) return null;
    this.types.declareValue(name.text);
    return { kind: 'ConstantDeclaration', annotations, type, name, value, span: this.spanFrom(start) };
  }

  /** The rest of a variableDeclaration after its type: name ['=' initializer] ';' */
  protected parseVariableDeclaration(annotations: Annotation[], type: TypeRef, start: SourceSpan): VariableDeclaration | null {
    const name = this.parseName();
    if (!name) return null;
    this.types.declareValue(name.text);
    let initializer: Expression | null = null;
    if (this.eat(TokenKind.Assign)) {
      initializer = this.parseExpression();
      if (!initializer) return null;
    }
    if (!this.expect(TokenKind.Semicolon)) return null;
    return { kind: 'VariableDeclaration', annotations, type, name, initializer, span: this.spanFrom(start) };
  }

  /** The rest of an instantiation after its type: '(' argumentList ')' name ['=' objInitializer] ';' */
  protected parseInstantiation(annotations: Annotation[], type: TypeRef, start: SourceSpan): Instantiation | null {
    const args = this.parseArguments();
    const name = args && this.parseName();
    if (!args || !name) return null;
    this.types.declareValue(name.text);
    let initializer: (FunctionDeclaration | Instantiation)[] | null = null;
    if (this.eat(TokenKind.Assign)) {
      if (!this.expect(TokenKind.LeftBrace)) return null;
      initializer = [];
      this.parseItems(TokenKind.RightBrace, () => this.parseObjectMember(), initializer);
      if (!this.expect(TokenKind.RightBrace)) return null;
    }
    if (!this.expect(TokenKind.Semicolon)) return null;
    return { kind: 'Instantiation', annotations, type, args, name, initializer, span: this.spanFrom(start) };
  }

  /** objDeclaration: functionDeclaration | instantiation */
  private parseObjectMember(): FunctionDeclaration | Instantiation | null {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    const type = this.parseTypeOrVoid();
    if (!type) return null;
    if (this.at(TokenKind.LeftParen)) return this.parseInstantiation(annotations, type, start);
    return this.parseFunctionDeclaration(annotations, type, start);
  }

  /** functionDeclaration: typeOrVoid name optTypeParameters '(' parameterList ')' blockStatement */
  protected parseFunctionDeclaration(annotations: Annotation[], returnType: TypeRef, start: SourceSpan): FunctionDeclaration | null {
    const name = this.parseName();
    const typeParams = name && this.parseTypeParameters();
    if (!name || !typeParams) return null;
    this.types.push(typeParams.map((p) => p.text));
    try {
      const params = this.parseParameterList();
      if (params) this.declareParameters(params);
      const body = params && this.parseBlock();
      if (!params || !body) return null;
      return { kind: 'FunctionDeclaration', annotations, returnType, name, typeParams, params, body, span: this.spanFrom(start) };
    } finally {
      this.types.pop();
    }
  }
}
