/**
 * @fileoverview Diagnostics as text, the way compilers print them:
 *
 *   prog.p4:12:5: error P4C1201: expected ';', found '}'
 *       x = 1
 *            ^
 *
 * followed by each related location as a note in the same shape.
 */
import type { SourceSpan } from '../source/span.js';
import { codeString } from './catalogue.js';
import type { Diagnostic } from './diagnostic.js';

/** All diagnostics, one block each, separated by newlines; ends with a newline when non-empty. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => formatDiagnostic(d)).join('');
}

export function formatDiagnostic(diagnostic: Diagnostic): string {
  const head = `${diagnostic.severity} ${codeString(diagnostic.code)}: ${diagnostic.message}`;
  let text = block(diagnostic.span, head, diagnostic.sourceLine);
  for (const related of diagnostic.related) text += block(related.span, `note: ${related.message}`, related.sourceLine);
  return text;
}

function block(span: SourceSpan | null, head: string, sourceLine: string | undefined): string {
  if (!span) return `${head}\n`;
  let text = `${span.file}:${span.start.line}:${span.start.column}: ${head}\n`;
  if (sourceLine !== undefined) text += `${sourceLine}\n${caretLine(span, sourceLine)}\n`;
  return text;
}

/**
 * The line under the source line: `^` under the first character of the span
 * and `~` under the rest of it on that line. Tabs before the span are kept so
 * the caret lines up however the terminal renders them.
 */
export function caretLine(span: SourceSpan, sourceLine: string): string {
  const startIndex = Math.max(0, span.start.column - 1);
  let prefix = '';
  for (let i = 0; i < startIndex; i++) prefix += sourceLine[i] === '\t' ? '\t' : ' ';
  const endIndex =
    span.end.line === span.start.line ? span.end.column - 1 : Math.max(sourceLine.length, startIndex + 1);
  const length = Math.max(1, endIndex - startIndex);
  return `${prefix}^${'~'.repeat(length - 1)}`;
}
