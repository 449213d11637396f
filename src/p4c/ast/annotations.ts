/**
 * @fileoverview Annotations such as `@name("ingress.t")`, `@id(1)`,
 * `@priority(10)`, `@field_list(1, 2)` or `@defaultonly`.
 *
 * As in P4-16, a parenthesised body is kept as tokens (it need not be valid
 * P4: `@pragma`-style annotations carry anything), with each token's text
 * and spacing so that later passes can both read it (parseAnnotationBody
 * turns it into expressions) and reproduce it exactly (P4Info quotes
 * annotations as written, e.g. `@noWarn("unused")`). The bracketed forms
 * `@a[1, 2]` and `@a[k = 1]` are parsed as expressions straight away.
 */
import type { TokenKind } from '../lexer/token-kind.js';
import type { Expression, NamedExpression } from './expressions.js';
import type { Name, NodeBase } from './node.js';

export interface AnnotationToken extends NodeBase {
  readonly kind: 'AnnotationToken';
  readonly tokenKind: TokenKind;
  readonly text: string;
  /** Whether the source had space before this token (for exact reproduction). */
  readonly spaceBefore: boolean;
}

export type AnnotationBody =
  /** `@name` with no body. */
  | { readonly kind: 'Empty' }
  /** `@name(tokens...)`. */
  | { readonly kind: 'Unparsed'; readonly tokens: readonly AnnotationToken[] }
  /** `@name[e1, e2]`. */
  | { readonly kind: 'ExpressionList'; readonly expressions: readonly Expression[] }
  /** `@name[k1 = e1, k2 = e2]`. */
  | { readonly kind: 'KeyValueList'; readonly pairs: readonly NamedExpression[] };

export interface Annotation extends NodeBase {
  readonly kind: 'Annotation';
  readonly name: Name;
  readonly body: AnnotationBody;
}

/** The text of an unparsed body as written, single-spaced: `"unused"`, `1, 2`. */
export function annotationBodyText(annotation: Annotation): string {
  if (annotation.body.kind !== 'Unparsed') return '';
  return annotation.body.tokens.map((t, i) => (i > 0 && t.spaceBefore ? ' ' : '') + t.text).join('');
}

/** The first annotation called `name`, if any. */
export function findAnnotation(annotations: readonly Annotation[], name: string): Annotation | undefined {
  return annotations.find((a) => a.name.text === name);
}
