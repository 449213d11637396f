/**
 * @fileoverview Top-level declarations and the program: types (header,
 * header_union, struct, enum, typedef, type), error and match_kind,
 * externs, functions, actions, parsers, controls, packages, constants and
 * instantiations.
 */
import type { Annotation } from '../ast/annotations.js';
import type {
  Declaration,
  EnumDeclaration,
  EnumMember,
  ExternDeclaration,
  ExternFunctionDeclaration,
  MethodPrototype,
  StructField,
  StructLikeDeclaration,
  TypedefDeclaration,
} from '../ast/declarations.js';
import type { Expression } from '../ast/expressions.js';
import type { Name } from '../ast/node.js';
import type { Program } from '../ast/program.js';
import type { TypeRef } from '../ast/types.js';
import { TokenKind } from '../lexer/token-kind.js';
import { joinSpans, type SourceSpan } from '../source/span.js';
import { BlockParser } from './block-parser.js';

const STRUCT_LIKE = new Map<TokenKind, StructLikeDeclaration['kind']>([
  [TokenKind.Header, 'HeaderDeclaration'],
  [TokenKind.HeaderUnion, 'HeaderUnionDeclaration'],
  [TokenKind.Struct, 'StructDeclaration'],
]);

export class DeclarationParser extends BlockParser {
  /** program: (declaration | ';')* END */
  parseProgram(): Program {
    const start = this.peek().span;
    const declarations: Declaration[] = [];
    while (!this.tokens.atEnd()) {
      const before = this.tokens.mark();
      if (this.eat(TokenKind.Semicolon)) continue;
      const declaration = this.parseDeclaration();
      if (declaration) declarations.push(declaration);
      if (declaration === null || this.tokens.mark() === before) {
        this.synchronize();
        if (this.tokens.mark() === before) this.next();
      }
    }
    const end = this.peek().span;
    return { kind: 'Program', declarations, span: joinSpans(start, end) };
  }

  /**
   * declaration: constantDeclaration | externDeclaration | actionDeclaration | parserDeclaration | typeDeclaration
   *            | controlDeclaration | instantiation | errorDeclaration | matchKindDeclaration | functionDeclaration
   *
   * Null after an error; undefined for a declaration that adds nothing (`extern Name;`).
   */
  private parseDeclaration(): Declaration | null | undefined {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    const token = this.peek();
    const structKind = STRUCT_LIKE.get(token.kind);
    if (structKind) return this.parseStructLike(structKind, annotations, start);
    switch (token.kind) {
      case TokenKind.Const:
        return this.parseConstantDeclaration(annotations, start);
      case TokenKind.Extern:
        return this.parseExtern(annotations, start);
      case TokenKind.Action:
        return this.parseAction(annotations, start);
      case TokenKind.Parser:
      case TokenKind.Control:
        return this.parseParserOrControl(annotations, start);
      case TokenKind.Package:
        return this.parsePackageType(annotations, start);
      case TokenKind.Enum:
        return this.parseEnum(annotations, start);
      case TokenKind.Typedef:
      case TokenKind.Type:
        return this.parseTypedef(annotations, start);
      case TokenKind.Error:
      case TokenKind.MatchKind:
        if (this.at(TokenKind.LeftBrace, 1)) return this.parseIdentifierListDeclaration(start);
        break;
    }
    return this.parseTypeLedDeclaration(annotations, start);
  }

  /**
   * functionDeclaration: typeOrVoid name optTypeParameters '(' parameterList ')' blockStatement
   * instantiation:       annotations typeRef '(' argumentList ')' name ';'
   */
  private parseTypeLedDeclaration(annotations: Annotation[], start: SourceSpan): Declaration | null {
    const startsFunctionOfUnknownType = this.at(TokenKind.Identifier) && this.isNameToken(1) && (this.at(TokenKind.LeftParen, 2) || this.at(TokenKind.Less, 2));
    if (!this.startsType() && !this.at(TokenKind.Void) && !startsFunctionOfUnknownType && !(this.at(TokenKind.Identifier) && this.at(TokenKind.LeftParen, 1))) {
      this.errorExpected('a declaration', 'ExpectedDeclaration');
      return null;
    }
    const type = this.parseTypeOrVoid();
    if (!type) return null;
    if (this.at(TokenKind.LeftParen)) return this.parseInstantiation(annotations, type, start);
    if (this.isNameToken() && (this.at(TokenKind.LeftParen, 1) || this.at(TokenKind.Less, 1))) {
      return this.parseFunctionDeclaration(annotations, type, start);
    }
    if (this.isNameToken()) {
      this.error('DeclarationNotAllowedHere', this.peek().span, [this.peek().text, "variables live in parsers, controls and functions; use 'const' for a constant"]);
      return null;
    }
    this.errorExpected("'(' or a name");
    return null;
  }

  /** header/header_union/struct: optAnnotations KEYWORD name optTypeParameters '{' (optAnnotations typeRef name ';')* '}' */
  private parseStructLike(
    kind: StructLikeDeclaration['kind'],
    annotations: Annotation[],
    start: SourceSpan,
  ): StructLikeDeclaration | null {
    this.next();
    const name = this.parseName();
    if (!name) return null;
    this.types.declare(name.text);
    const typeParams = this.parseTypeParameters();
    if (!typeParams || !this.expect(TokenKind.LeftBrace)) return null;
    this.types.push(typeParams.map((p) => p.text));
    try {
      const fields: StructField[] = [];
      this.parseItems(TokenKind.RightBrace, () => this.parseStructField(), fields);
      if (!this.expect(TokenKind.RightBrace)) return null;
      return { kind, annotations, name, typeParams, fields, span: this.spanFrom(start) };
    } finally {
      this.types.pop();
    }
  }

  /** structField: optAnnotations typeRef name ';' */
  private parseStructField(): StructField | null {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    const type = this.parseTypeRef();
    const name = type && this.parseName();
    if (!type || !name || !this.expect(TokenKind.Semicolon)) return null;
    return { kind: 'StructField', annotations, type, name, span: this.spanFrom(start) };
  }

  /**
   * enumDeclaration: optAnnotations ENUM name '{' identifierList '}'
   *                | optAnnotations ENUM typeRef name '{' specifiedIdentifierList '}'
   */
  private parseEnum(annotations: Annotation[], start: SourceSpan): EnumDeclaration | null {
    this.next();
    let underlyingType: TypeRef | null = null;
    if (!(this.isNameToken() && this.at(TokenKind.LeftBrace, 1))) {
      underlyingType = this.parseTypeRef();
      if (!underlyingType) return null;
    }
    const name = this.parseName();
    if (!name || !this.expect(TokenKind.LeftBrace)) return null;
    this.types.declare(name.text);
    const members: EnumMember[] = [];
    do {
      if (this.at(TokenKind.RightBrace) && members.length > 0) break; // a trailing comma
      const memberName = this.parseName();
      if (!memberName) return null;
      let value: Expression | null = null;
      if (underlyingType) {
        if (!this.expect(TokenKind.Assign)) return null;
        value = this.parseExpression();
        if (!value) return null;
      }
      members.push({ kind: 'EnumMember', name: memberName, value, span: this.spanFrom(memberName.span) });
    } while (this.eat(TokenKind.Comma));
    if (!this.expect(TokenKind.RightBrace)) return null;
    return { kind: 'EnumDeclaration', annotations, name, underlyingType, members, span: this.spanFrom(start) };
  }

  /** errorDeclaration: ERROR '{' identifierList '}'   matchKindDeclaration: MATCH_KIND '{' identifierList '}' */
  private parseIdentifierListDeclaration(start: SourceSpan): Declaration | null {
    const isError = this.next().kind === TokenKind.Error;
    this.next();
    const members: Name[] = [];
    do {
      if (this.at(TokenKind.RightBrace) && members.length > 0) break;
      const name = this.parseName();
      if (!name) return null;
      members.push(name);
    } while (this.eat(TokenKind.Comma));
    if (!this.expect(TokenKind.RightBrace)) return null;
    return { kind: isError ? 'ErrorDeclaration' : 'MatchKindDeclaration', members, span: this.spanFrom(start) };
  }

  /** typedefDeclaration: optAnnotations (TYPEDEF | TYPE) (typeRef | derivedTypeDeclaration) name ';' */
  private parseTypedef(annotations: Annotation[], start: SourceSpan): TypedefDeclaration | null {
    const isNewType = this.next().kind === TokenKind.Type;
    let type: TypedefDeclaration['type'] | null;
    const structKind = STRUCT_LIKE.get(this.peek().kind);
    if (structKind) type = this.parseStructLike(structKind, [], this.peek().span);
    else if (this.at(TokenKind.Enum)) type = this.parseEnum([], this.peek().span);
    else type = this.parseTypeRef();
    const name = type && this.parseName();
    if (!type || !name || !this.expect(TokenKind.Semicolon)) return null;
    this.types.declare(name.text);
    return { kind: 'TypedefDeclaration', annotations, isNewType, type, name, span: this.spanFrom(start) };
  }

  /**
   * externDeclaration
   *   : optAnnotations EXTERN nonTypeName optTypeParameters '{' methodPrototype* '}'
   *   | optAnnotations EXTERN functionPrototype ';'
   *   | optAnnotations EXTERN name ';'            (a forward declaration: p4c ignores it too)
   */
  private parseExtern(annotations: Annotation[], start: SourceSpan): ExternDeclaration | ExternFunctionDeclaration | null | undefined {
    this.next();
    if (this.isNameToken() && this.at(TokenKind.Semicolon, 1)) {
      this.types.declare(this.next().text);
      this.next();
      return undefined;
    }
    if (this.isNameToken() && (this.at(TokenKind.LeftBrace, 1) || this.externObjectWithTypeParameters())) {
      return this.parseExternObject(annotations, start);
    }
    const returnType = this.parseTypeOrVoid();
    const name = returnType && this.parseName();
    const typeParams = name && this.parseTypeParameters();
    if (!returnType || !name || !typeParams) return null;
    this.types.push(typeParams.map((p) => p.text));
    try {
      const params = this.parseParameterList();
      if (!params || !this.expect(TokenKind.Semicolon)) return null;
      return { kind: 'ExternFunctionDeclaration', annotations, returnType, name, typeParams, params, span: this.spanFrom(start) };
    } finally {
      this.types.pop();
    }
  }

  /** True for `name < T, ... > {`: a generic extern object rather than a function returning `name<...>`. */
  private externObjectWithTypeParameters(): boolean {
    if (!this.at(TokenKind.Less, 1)) return false;
    let offset = 2;
    while (this.isNameToken(offset) && this.at(TokenKind.Comma, offset + 1)) offset += 2;
    return this.isNameToken(offset) && this.at(TokenKind.Greater, offset + 1) && this.at(TokenKind.LeftBrace, offset + 2);
  }

  /** externObject: EXTERN nonTypeName optTypeParameters '{' methodPrototype* '}'   (after EXTERN) */
  private parseExternObject(annotations: Annotation[], start: SourceSpan): ExternDeclaration | null {
    const name = this.parseName()!;
    this.types.declare(name.text);
    const typeParams = this.parseTypeParameters();
    if (!typeParams || !this.expect(TokenKind.LeftBrace)) return null;
    this.types.push(typeParams.map((p) => p.text));
    try {
      const methods: MethodPrototype[] = [];
      this.parseItems(TokenKind.RightBrace, () => this.parseMethodPrototype(name), methods);
      if (!this.expect(TokenKind.RightBrace)) return null;
      return { kind: 'ExternDeclaration', annotations, name, typeParams, methods, span: this.spanFrom(start) };
    } finally {
      this.types.pop();
    }
  }

  /**
   * methodPrototype
   *   : optAnnotations [ABSTRACT] typeOrVoid name optTypeParameters '(' parameterList ')' ';'
   *   | optAnnotations TYPE_IDENTIFIER '(' parameterList ')' ';'      (the constructor)
   */
  private parseMethodPrototype(externName: Name): MethodPrototype | null {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    if (this.at(TokenKind.Identifier) && this.peek().text === externName.text && this.at(TokenKind.LeftParen, 1)) {
      const name = this.parseName()!;
      const params = this.parseParameterList();
      if (!params || !this.expect(TokenKind.Semicolon)) return null;
      return { kind: 'MethodPrototype', annotations, isAbstract: false, isConstructor: true, returnType: null, name, typeParams: [], params, span: this.spanFrom(start) };
    }
    const isAbstract = this.eat(TokenKind.Abstract) !== null;
    const returnType = this.parseTypeOrVoid();
    const name = returnType && this.parseName();
    const typeParams = name && this.parseTypeParameters();
    if (!returnType || !name || !typeParams) return null;
    this.types.push(typeParams.map((p) => p.text));
    try {
      const params = this.parseParameterList();
      if (!params || !this.expect(TokenKind.Semicolon)) return null;
      return { kind: 'MethodPrototype', annotations, isAbstract, isConstructor: false, returnType, name, typeParams, params, span: this.spanFrom(start) };
    } finally {
      this.types.pop();
    }
  }
}
