/**
 * @fileoverview `@id(N)` as p4c reads it (control-plane/p4RuntimeSymbolTable
 * and FieldIdAllocator): N must be an integer literal that fits 32 bits
 * unsigned. An object's id gets its kind's prefix in the top byte when N has
 * none (so `@id(5)` on a table is 0x02000005, `@id(0)` is 0x02000000); a top
 * byte that is another kind's prefix is an error. A field's id (match field,
 * action parameter, header field) is N itself and may not be 0. An id given
 * twice in one kind, or in one list of fields, is an error.
 *
 * Problems are collected with the annotation's place and thrown together as
 * an IdAnnotationError, which the emit-p4info pass reports.
 */
import { annotationBodyText, findAnnotation, type Annotation } from '../ast/annotations.js';
import type { DiagnosticId } from '../diagnostics/catalogue.js';
import { lex } from '../lexer/lexer.js';
import { TokenKind } from '../lexer/token-kind.js';
import type { SourceSpan } from '../source/span.js';

export interface IdProblem {
  readonly id: DiagnosticId;
  readonly span: SourceSpan;
  readonly args: readonly (string | number)[];
}

/** Thrown by the P4Info builder when `@id`s are wrong; a RangeError, as other id failures are. */
export class IdAnnotationError extends RangeError {
  constructor(readonly problems: readonly IdProblem[]) {
    super(`${problems.length} bad @id annotation(s)`);
    this.name = 'IdAnnotationError';
  }
}

const MAX_ID = 0xffffffffn;

/** The value of an `@id` annotation, or the problem with it. */
export function readIdAnnotation(annotation: Annotation): { value: number } | { problem: IdProblem } {
  const text = annotationBodyText(annotation).trim();
  const tokens = lex(text, annotation.span.file).filter((t) => t.kind !== TokenKind.EndOfFile);
  const literal = tokens.length === 1 && tokens[0]!.kind === TokenKind.IntegerLiteral && !tokens[0]!.problem ? tokens[0]!.integer : undefined;
  if (!literal || literal.value > MAX_ID || (literal.width !== null && literal.signed && literal.value >= 1n << BigInt(literal.width - 1))) {
    return { problem: { id: 'IdNotUnsigned32', span: annotation.span, args: [text === '' ? 'nothing' : text] } };
  }
  return { value: Number(literal.value) };
}

/** Reads the `@id` of each object, if any; problems are added to `problems`. */
export function fixedIdOf(annotations: readonly Annotation[], problems: IdProblem[]): { value: number; annotation: Annotation } | undefined {
  const annotation = findAnnotation(annotations, 'id');
  if (!annotation) return undefined;
  const read = readIdAnnotation(annotation);
  if ('problem' in read) {
    problems.push(read.problem);
    return undefined;
  }
  return { value: read.value, annotation };
}

/** The id of an object given `@id(raw)`: the prefix added when the top byte is 0, or a problem when it is another kind's. */
export function prefixedId(
  raw: { value: number; annotation: Annotation },
  prefix: number,
  kind: string,
  name: string,
  problems: IdProblem[],
): number | undefined {
  const top = raw.value >>> 24;
  if (top === 0) return ((prefix << 24) | raw.value) >>> 0;
  if (top === prefix) return raw.value;
  const hex = (n: number, digits: number): string => n.toString(16).padStart(digits, '0');
  problems.push({ id: 'IdWrongPrefix', span: raw.annotation.span, args: [`0x${hex(raw.value, 8)}`, kind, name, hex(top, 2), hex(prefix, 2)] });
  return undefined;
}
