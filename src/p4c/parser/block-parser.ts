/**
 * @fileoverview Parsers (locals, states, transitions, select) and controls
 * (locals and the apply block), with their type declarations.
 */
import type { Annotation } from '../ast/annotations.js';
import type {
  BlockTypeDeclaration,
  ControlDeclaration,
  ControlLocal,
  ParserDeclaration,
  ParserLocal,
  ParserState,
  SelectCase,
  SelectExpression,
  ValueSetDeclaration,
} from '../ast/declarations.js';
import type { PathExpression } from '../ast/expressions.js';
import type { Name } from '../ast/node.js';
import type { BlockStatement, StatementOrDeclaration } from '../ast/statements.js';
import { TokenKind } from '../lexer/token-kind.js';
import type { SourceSpan } from '../source/span.js';
import { TableParser } from './table-parser.js';

const NOT_IN_PARSERS: Readonly<Record<string, string>> = {
  SwitchStatement: 'switch',
  ReturnStatement: 'return',
  ExitStatement: 'exit',
};

export abstract class BlockParser extends TableParser {
  /**
   * parserDeclaration:     parserTypeDeclaration optConstructorParameters '{' parserLocalElement* parserState+ '}'
   * parserTypeDeclaration: optAnnotations PARSER name optTypeParameters '(' parameterList ')'
   * (and the same for controls, whose body is controlLocalDeclaration* APPLY blockStatement)
   */
  protected parseParserOrControl(
    annotations: Annotation[],
    start: SourceSpan,
  ): ParserDeclaration | ControlDeclaration | BlockTypeDeclaration | null {
    const isParser = this.next().kind === TokenKind.Parser;
    const name = this.parseName();
    if (!name) return null;
    this.types.declare(name.text);
    const typeParams = this.parseTypeParameters();
    if (!typeParams) return null;
    this.types.push(typeParams.map((p) => p.text));
    try {
      const params = this.parseParameterList();
      if (!params) return null;
      if (this.eat(TokenKind.Semicolon)) {
        const kind = isParser ? 'ParserTypeDeclaration' : 'ControlTypeDeclaration';
        return { kind, annotations, name, typeParams, params, span: this.spanFrom(start) };
      }
      const constructorParams = this.at(TokenKind.LeftParen) ? this.parseParameterList() : [];
      if (!constructorParams || !this.expect(TokenKind.LeftBrace)) return null;
      this.declareParameters(params);
      this.declareParameters(constructorParams);
      const header = { annotations, name, typeParams, params, constructorParams };
      return isParser ? this.parseParserBody(header, start) : this.parseControlBody(header, start);
    } finally {
      this.types.pop();
    }
  }

  /** parserBody: '{' parserLocalElement* parserState+ '}'   (after the '{') */
  private parseParserBody(
    header: Omit<ParserDeclaration, 'kind' | 'locals' | 'states' | 'span'>,
    start: SourceSpan,
  ): ParserDeclaration | null {
    const locals: ParserLocal[] = [];
    const states: ParserState[] = [];
    this.parseItems(
      TokenKind.RightBrace,
      () => {
        const itemStart = this.peek().span;
        const annotations = this.parseAnnotations();
        if (this.at(TokenKind.State)) {
          const state = this.parseState(annotations, itemStart);
          if (state) states.push(state);
          return state;
        }
        const local = this.parseParserLocal(annotations, itemStart);
        if (local && states.length > 0) {
          this.error('DeclarationNotAllowedHere', local.name.span, [local.name.text, 'a parser declares its locals before its first state']);
        }
        if (local) locals.push(local);
        return local;
      },
      [],
    );
    if (!this.expect(TokenKind.RightBrace)) return null;
    if (states.length === 0) this.error('ParserWithoutStates', header.name.span, [header.name.text]);
    return { kind: 'ParserDeclaration', ...header, locals, states, span: this.spanFrom(start) };
  }

  /** parserLocalElement: constantDeclaration | instantiation | variableDeclaration | valueSetDeclaration */
  private parseParserLocal(annotations: Annotation[], start: SourceSpan): ParserLocal | null {
    if (this.at(TokenKind.Const)) return this.parseConstantDeclaration(annotations, start);
    if (this.at(TokenKind.ValueSet)) return this.parseValueSet(annotations, start);
    const declaration = this.parseDeclarationStartingWithType(annotations, start);
    if (declaration) return declaration;
    if (declaration === undefined) this.errorExpected("'state' or a declaration", 'ExpectedParserState');
    return null;
  }

  /** valueSetDeclaration: optAnnotations VALUESET '<' typeRef '>' '(' expression ')' name ';' */
  private parseValueSet(annotations: Annotation[], start: SourceSpan): ValueSetDeclaration | null {
    this.next();
    if (!this.expect(TokenKind.Less)) return null;
    const elementType = this.parseTypeRef();
    if (!elementType || !this.expect(TokenKind.Greater) || !this.expect(TokenKind.LeftParen)) return null;
    const size = this.parseExpression();
    if (!size || !this.expect(TokenKind.RightParen)) return null;
    const name = this.parseName();
    if (!name || !this.expect(TokenKind.Semicolon)) return null;
    this.types.declareValue(name.text);
    return { kind: 'ValueSetDeclaration', annotations, elementType, size, name, span: this.spanFrom(start) };
  }

  /** parserState: optAnnotations STATE name '{' parserStatement* [transitionStatement] '}' */
  private parseState(annotations: Annotation[], start: SourceSpan): ParserState | null {
    this.next();
    const name = this.parseName();
    if (!name || !this.expect(TokenKind.LeftBrace)) return null;
    this.types.push();
    try {
      return this.parseStateBody(annotations, name, start);
    } finally {
      this.types.pop();
    }
  }

  /** parserStatement* [transitionStatement] '}'   (the rest of a state, in its own scope) */
  private parseStateBody(annotations: Annotation[], name: Name, start: SourceSpan): ParserState | null {
    const body: StatementOrDeclaration[] = [];
    this.parseItems(
      TokenKind.RightBrace,
      () => {
        const item = this.parseStatementOrDeclaration();
        const forbidden = item ? NOT_IN_PARSERS[item.kind] : undefined;
        if (item && forbidden) this.error('StatementNotAllowedInParser', item.span, [forbidden]);
        return item;
      },
      body,
      TokenKind.Transition,
    );
    let transition: PathExpression | SelectExpression | null = null;
    if (this.at(TokenKind.Transition)) {
      transition = this.parseTransition();
      if (!transition) return null;
    }
    if (!this.expect(TokenKind.RightBrace)) return null;
    return { kind: 'ParserState', annotations, name, body, transition, span: this.spanFrom(start) };
  }

  /** transitionStatement: TRANSITION (name ';' | SELECT '(' expressionList ')' '{' selectCase* '}') */
  private parseTransition(): PathExpression | SelectExpression | null {
    this.next();
    const start = this.peek().span;
    if (!this.eat(TokenKind.Select)) {
      const name = this.parseName();
      if (!name || !this.expect(TokenKind.Semicolon)) return null;
      return { kind: 'PathExpression', path: { kind: 'PathName', name, absolute: false, span: name.span }, span: name.span };
    }
    if (!this.expect(TokenKind.LeftParen)) return null;
    const selectors = this.parseExpressionList(TokenKind.RightParen);
    if (!this.expect(TokenKind.RightParen) || !this.expect(TokenKind.LeftBrace)) return null;
    const cases: SelectCase[] = [];
    this.parseItems(TokenKind.RightBrace, () => this.parseSelectCase(), cases);
    if (!this.expect(TokenKind.RightBrace)) return null;
    return { kind: 'SelectExpression', selectors, cases, span: this.spanFrom(start) };
  }

  /** selectCase: keysetExpression ':' name ';' */
  private parseSelectCase(): SelectCase | null {
    const start = this.peek().span;
    const keyset = this.parseKeysetList();
    if (!keyset || !this.expect(TokenKind.Colon)) return null;
    const name = this.parseName();
    if (!name || !this.expect(TokenKind.Semicolon)) return null;
    const state: PathExpression = {
      kind: 'PathExpression',
      path: { kind: 'PathName', name, absolute: false, span: name.span },
      span: name.span,
    };
    const keysetExpression = keyset.tuple
      ? { kind: 'ListExpression' as const, elements: keyset.elements, span: this.spanFrom(start) }
      : keyset.elements[0]!;
    return { kind: 'SelectCase', keyset: keysetExpression, state, span: this.spanFrom(start) };
  }

  /** controlBody: '{' controlLocalDeclaration* APPLY blockStatement '}'   (after the '{') */
  private parseControlBody(
    header: Omit<ControlDeclaration, 'kind' | 'locals' | 'apply' | 'span'>,
    start: SourceSpan,
  ): ControlDeclaration | null {
    const locals: ControlLocal[] = [];
    let apply: BlockStatement | null = null;
    this.parseItems(
      TokenKind.RightBrace,
      () => {
        if (apply) {
          this.errorExpected("'}' after the apply block");
          return null;
        }
        if (this.at(TokenKind.Apply)) {
          const applyStart = this.next().span;
          apply = this.parseBlock([], applyStart);
          return apply;
        }
        const local = this.parseControlLocal();
        if (local) locals.push(local);
        return local;
      },
      [],
    );
    if (!this.expect(TokenKind.RightBrace)) return null;
    if (!apply) {
      this.error('ControlWithoutApply', header.name.span, [header.name.text]);
      apply = { kind: 'BlockStatement', annotations: [], body: [], span: header.name.span };
    }
    return { kind: 'ControlDeclaration', ...header, locals, apply, span: this.spanFrom(start) };
  }

  /** controlLocalDeclaration: constantDeclaration | actionDeclaration | tableDeclaration | instantiation | variableDeclaration */
  private parseControlLocal(): ControlLocal | null {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    if (this.at(TokenKind.Const)) return this.parseConstantDeclaration(annotations, start);
    if (this.at(TokenKind.Action)) return this.parseAction(annotations, start);
    if (this.at(TokenKind.Table)) return this.parseTable(annotations, start);
    const declaration = this.parseDeclarationStartingWithType(annotations, start);
    if (declaration) return declaration;
    if (declaration === undefined) this.errorExpected('a declaration or apply', 'ExpectedDeclaration');
    return null;
  }

  /** packageTypeDeclaration: optAnnotations PACKAGE name optTypeParameters '(' parameterList ')' ';' */
  protected parsePackageType(annotations: Annotation[], start: SourceSpan): BlockTypeDeclaration | null {
    this.next();
    const name: Name | null = this.parseName();
    if (!name) return null;
    this.types.declare(name.text);
    const typeParams = this.parseTypeParameters();
    if (!typeParams) return null;
    this.types.push(typeParams.map((p) => p.text));
    try {
      const params = this.parseParameterList();
      if (!params || !this.expect(TokenKind.Semicolon)) return null;
      return { kind: 'PackageTypeDeclaration', annotations, name, typeParams, params, span: this.spanFrom(start) };
    } finally {
      this.types.pop();
    }
  }
}
