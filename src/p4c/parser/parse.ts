/**
 * @fileoverview Entry points of the parser: a preprocessed token list to a
 * Program, and an annotation's token body to expressions (for the passes
 * that read `@name("...")`, `@id(5)` or `@field_list(1, 2)`).
 */
import type { Annotation } from '../ast/annotations.js';
import type { Expression } from '../ast/expressions.js';
import type { Program } from '../ast/program.js';
import type { DiagnosticBag } from '../diagnostics/bag.js';
import { lex } from '../lexer/lexer.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { TokenStream } from '../lexer/token-stream.js';
import { DeclarationParser } from './declaration-parser.js';

/** Parses a whole program; syntax errors go to `diagnostics` and the tree holds what could be read. */
export function parseTokens(tokens: readonly Token[], diagnostics: DiagnosticBag): Program {
  return new DeclarationParser(new TokenStream(tokens), diagnostics).parseProgram();
}

class AnnotationBodyParser extends DeclarationParser {
  /** expressionList END */
  parseListToEnd(): Expression[] | null {
    const list = this.parseExpressionList(TokenKind.EndOfFile);
    if (!this.at(TokenKind.EndOfFile)) {
      this.errorExpected("',' or the end of the annotation");
      return null;
    }
    return list;
  }
}

/**
 * The body of an unparsed annotation read as a comma-separated expression
 * list: `@field_list(1, 2)` gives two integer literals, `@name("x")` one
 * string. Errors are reported with the annotation's positions; null then.
 * An annotation without a body gives an empty list.
 */
export function parseAnnotationBody(annotation: Annotation, diagnostics: DiagnosticBag): Expression[] | null {
  switch (annotation.body.kind) {
    case 'Empty':
      return [];
    case 'ExpressionList':
      return [...annotation.body.expressions];
    case 'KeyValueList':
      return annotation.body.pairs.map((p) => p.value);
  }
  const tokens: Token[] = [];
  for (const t of annotation.body.tokens) {
    // Re-lex each token's text to recover literal values; positions stay the annotation's.
    const relexed = lex(t.text, t.span.file)[0]!;
    tokens.push({ ...relexed, span: t.span, spaceBefore: t.spaceBefore, lineStart: false });
  }
  const end = annotation.span;
  tokens.push({ kind: TokenKind.EndOfFile, text: '', span: { file: end.file, start: end.end, end: end.end }, spaceBefore: true, lineStart: true });
  const errorsBefore = diagnostics.errorCount;
  const result = new AnnotationBodyParser(new TokenStream(tokens), diagnostics).parseListToEnd();
  return result && diagnostics.errorCount === errorsBefore ? result : null;
}
