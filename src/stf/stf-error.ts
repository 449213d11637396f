/**
 * Errors in an STF test file or in running it: a stable code, the file and
 * line it is about, and a message that says what to fix. The runner turns
 * them into report lines (`file:line: message`), never stack traces.
 */
import { P4inaError } from '../errors/p4ina-error.js';

export const STF_ERROR_CODES = {
  /** A line does not follow the STF syntax. */
  syntax: 'STF_SYNTAX',
  /** A table, action, field, parameter, register or counter the program does not have. */
  unknownName: 'STF_UNKNOWN_NAME',
  /** A name that fits more than one object. */
  ambiguousName: 'STF_AMBIGUOUS_NAME',
  /** A value that cannot be read or does not fit its field. */
  badValue: 'STF_BAD_VALUE',
  /** The program or the STF file cannot be read, or the program does not compile. */
  input: 'STF_INPUT',
} as const;

export type StfErrorCode = (typeof STF_ERROR_CODES)[keyof typeof STF_ERROR_CODES];

export class StfError extends P4inaError<StfErrorCode> {
  constructor(
    code: StfErrorCode,
    message: string,
    /** 1-based line in the STF file, 0 when the error is not about one line. */
    readonly line = 0,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
  }
}

/** A diagnostic about one STF line, as reports show it. */
export interface StfDiagnostic {
  readonly line: number;
  readonly code: StfErrorCode;
  readonly message: string;
}
