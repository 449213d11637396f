/**
 * The one error type of the protobuf text-format reader: where in the source
 * it went wrong (`source:line:col`, 1-based) and what, under a stable code.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

/** Stable codes of TextFormatError. */
export const TextFormatErrorCode = {
  /** The text is not text format at all: a stray character, an unclosed string or brace, a missing `:`. */
  SYNTAX: 'TEXTPROTO_SYNTAX',
  /** A field name the message type does not have (text format is strict; see parseTextProto). */
  UNKNOWN_FIELD: 'TEXTPROTO_UNKNOWN_FIELD',
  /** An enum value name the enum does not have. */
  UNKNOWN_ENUM: 'TEXTPROTO_UNKNOWN_ENUM',
  /** A value of the wrong kind for its field: a string for a number, a scalar for a message, … */
  WRONG_TYPE: 'TEXTPROTO_WRONG_TYPE',
  /** A number that does not fit the field's type (or a negative one for an unsigned field). */
  OUT_OF_RANGE: 'TEXTPROTO_OUT_OF_RANGE',
  /** A non-repeated field given twice, or two members of one oneof. */
  DUPLICATE_FIELD: 'TEXTPROTO_DUPLICATE_FIELD',
  /** A `string` field whose bytes are not UTF-8. */
  INVALID_UTF8: 'TEXTPROTO_INVALID_UTF8',
  /** A google.protobuf.Any whose type URL names a message p4ina does not know. */
  UNKNOWN_TYPE: 'TEXTPROTO_UNKNOWN_TYPE',
  /** Messages nested deeper than the reader allows (protobuf's own limit is 100). */
  TOO_DEEP: 'TEXTPROTO_TOO_DEEP',
} as const;

export type TextFormatErrorCode = (typeof TextFormatErrorCode)[keyof typeof TextFormatErrorCode];

/** A place in the source text: 1-based line and column (columns count UTF-16 units, as editors do). */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export class TextFormatError extends P4inaError {
  constructor(
    code: TextFormatErrorCode,
    /** The file name (or `<text>`) the position refers to. */
    readonly source: string,
    readonly line: number,
    readonly column: number,
    /** What is wrong, without the position prefix. */
    readonly detail: string,
  ) {
    super(code, `${source}:${line}:${column}: ${detail}`);
  }
}
