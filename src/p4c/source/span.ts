/**
 * @fileoverview Source positions and spans. Every token and every AST node
 * carries a span, so that any diagnostic, in any pass, can point at the text
 * it is about: the file, the 1-based line and column, and the offset.
 */

/** A point in a source file. Lines and columns count from 1; offset from 0. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/**
 * A range of text in one file, end exclusive. `expandedFrom` is set on text
 * that came out of a macro: the span then covers the macro's use, and
 * `expandedFrom` names the macro and where it was defined.
 */
export interface SourceSpan {
  readonly file: string;
  readonly start: SourcePosition;
  readonly end: SourcePosition;
  readonly expandedFrom?: MacroOrigin;
}

/** Where a macro-expanded token came from. */
export interface MacroOrigin {
  readonly macro: string;
  readonly definedAt: SourceSpan;
}

/** The span from the start of `first` to the end of `last` (same file assumed). */
export function joinSpans(first: SourceSpan, last: SourceSpan): SourceSpan {
  if (first.file !== last.file || last.end.offset < first.start.offset) return first;
  return { file: first.file, start: first.start, end: last.end };
}

/** An empty span just after `span`: where something missing should have been. */
export function spanAfter(span: SourceSpan): SourceSpan {
  return { file: span.file, start: span.end, end: span.end };
}

/** A span for things that have no source text (synthesised nodes, command-line input). */
export function syntheticSpan(file: string): SourceSpan {
  const origin = { line: 1, column: 1, offset: 0 };
  return { file, start: origin, end: origin };
}
