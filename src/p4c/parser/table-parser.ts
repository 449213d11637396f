/**
 * @fileoverview Actions and tables: properties, keys, action lists and
 * entries (with `priority = N:` prefixes and per-entry `const`).
 */
import type { Annotation } from '../ast/annotations.js';
import type { ActionDeclaration, TableDeclaration } from '../ast/declarations.js';
import type { Argument, Expression } from '../ast/expressions.js';
import type { ActionReference, KeyElement, TableEntry, TableProperty } from '../ast/tables.js';
import { TokenKind } from '../lexer/token-kind.js';
import type { SourceSpan } from '../source/span.js';
import { StatementParser } from './statement-parser.js';

export abstract class TableParser extends StatementParser {
  /** actionDeclaration: optAnnotations ACTION name '(' parameterList ')' blockStatement */
  protected parseAction(annotations: Annotation[], start: SourceSpan): ActionDeclaration | null {
    this.next();
    const name = this.parseName();
    if (!name) return null;
    this.types.declareValue(name.text);
    this.types.push();
    try {
      const params = this.parseParameterList();
      if (params) this.declareParameters(params);
      const body = params && this.parseBlock();
      if (!params || !body) return null;
      return { kind: 'ActionDeclaration', annotations, name, params, body, span: this.spanFrom(start) };
    } finally {
      this.types.pop();
    }
  }

  /** tableDeclaration: optAnnotations TABLE name '{' tableProperty+ '}' */
  protected parseTable(annotations: Annotation[], start: SourceSpan): TableDeclaration | null {
    this.next();
    const name = this.parseName();
    if (!name || !this.expect(TokenKind.LeftBrace)) return null;
    this.types.declareValue(name.text);
    const properties: TableProperty[] = [];
    this.parseItems(TokenKind.RightBrace, () => this.parseTableProperty(), properties);
    if (!this.expect(TokenKind.RightBrace)) return null;
    if (properties.length === 0) this.error('TableWithoutProperties', name.span, [name.text]);
    return { kind: 'TableDeclaration', annotations, name, properties, span: this.spanFrom(start) };
  }

  /**
   * tableProperty
   *   : KEY '=' '{' keyElement* '}'
   *   | ACTIONS '=' '{' (optAnnotations actionRef ';')* '}'
   *   | optAnnotations optCONST ENTRIES '=' '{' entry* '}'
   *   | optAnnotations optCONST nonTableKwName '=' initializer ';'
   */
  private parseTableProperty(): TableProperty | null {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    const isConst = this.eat(TokenKind.Const) !== null;
    const keyword = this.peek();
    if ((keyword.kind === TokenKind.Key || keyword.kind === TokenKind.Actions) && !isConst && annotations.length === 0) {
      this.next();
      if (!this.expect(TokenKind.Assign) || !this.expect(TokenKind.LeftBrace)) return null;
      if (keyword.kind === TokenKind.Key) {
        const elements: KeyElement[] = [];
        this.parseItems(TokenKind.RightBrace, () => this.parseKeyElement(), elements);
        return this.expect(TokenKind.RightBrace) ? { kind: 'KeyProperty', elements, span: this.spanFrom(start) } : null;
      }
      const actions: ActionReference[] = [];
      this.parseItems(TokenKind.RightBrace, () => this.parseActionListElement(), actions);
      return this.expect(TokenKind.RightBrace) ? { kind: 'ActionsProperty', actions, span: this.spanFrom(start) } : null;
    }
    if (keyword.kind === TokenKind.Entries) {
      this.next();
      if (!this.expect(TokenKind.Assign) || !this.expect(TokenKind.LeftBrace)) return null;
      const entries: TableEntry[] = [];
      this.parseItems(TokenKind.RightBrace, () => this.parseEntry(), entries);
      if (!this.expect(TokenKind.RightBrace)) return null;
      return { kind: 'EntriesProperty', annotations, isConst, entries, span: this.spanFrom(start) };
    }
    const isPropertyName =
      keyword.kind === TokenKind.Identifier || keyword.kind === TokenKind.Apply || keyword.kind === TokenKind.State || keyword.kind === TokenKind.Type;
    if (!isPropertyName) {
      this.errorExpected('a table property', 'ExpectedTableProperty');
      return null;
    }
    const name = this.parseName();
    if (!name || !this.expect(TokenKind.Assign)) return null;
    const value = this.parseExpression();
    if (!value || !this.expect(TokenKind.Semicolon)) return null;
    return { kind: 'ValueProperty', annotations, isConst, name, value, span: this.spanFrom(start) };
  }

  /** keyElement: expression ':' name optAnnotations ';' */
  private parseKeyElement(): KeyElement | null {
    const expression = this.parseExpression();
    if (!expression || !this.expect(TokenKind.Colon)) return null;
    const matchKind = this.parseName();
    if (!matchKind) return null;
    const annotations = this.parseAnnotations();
    if (!this.expect(TokenKind.Semicolon)) return null;
    return { kind: 'KeyElement', expression, matchKind, annotations, span: this.spanFrom(expression.span) };
  }

  /** actionList element: optAnnotations actionRef ';' */
  private parseActionListElement(): ActionReference | null {
    const start = this.peek().span;
    const annotations = this.parseAnnotations();
    const action = this.parseActionReference(annotations, start);
    return action && this.expect(TokenKind.Semicolon) ? action : null;
  }

  /** actionRef: prefixedNonTypeName ['(' argumentList ')'] */
  protected parseActionReference(annotations: Annotation[], start: SourceSpan): ActionReference | null {
    const path = this.parsePathName();
    if (!path) return null;
    let args: Argument[] | null = null;
    if (this.at(TokenKind.LeftParen)) {
      args = this.parseArguments();
      if (!args) return null;
    }
    const action = { kind: 'PathExpression', path, span: path.span } as const;
    return { kind: 'ActionReference', annotations, action, args, span: this.spanFrom(start) };
  }

  /**
   * entry: optCONST [PRIORITY '=' (INTEGER | '(' expression ')') ':'] keysetExpression ':' actionRef optAnnotations ';'
   *
   * `priority` is not reserved (standard_metadata has a field of that name),
   * so it counts as the prefix only when `=` follows it.
   */
  private parseEntry(): TableEntry | null {
    const start = this.peek().span;
    const isConst = this.eat(TokenKind.Const) !== null;
    let priority: Expression | null = null;
    if (this.at(TokenKind.Identifier) && this.peek().text === 'priority' && this.at(TokenKind.Assign, 1)) {
      this.next();
      this.next();
      priority = this.parseExpression();
      if (!priority || !this.expect(TokenKind.Colon)) return null;
    }
    const keyset = this.parseKeysetList();
    if (!keyset || !this.expect(TokenKind.Colon)) return null;
    const actionStart = this.peek().span;
    const action = this.parseActionReference([], actionStart);
    if (!action) return null;
    const annotations = this.parseAnnotations();
    if (!this.expect(TokenKind.Semicolon)) return null;
    return { kind: 'TableEntry', isConst, priority, keyset: keyset.elements, action, annotations, span: this.spanFrom(start) };
  }
}
