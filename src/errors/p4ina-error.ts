/**
 * The one error shape for user and protocol errors across p4ina: a stable,
 * machine-readable `code` (kept in each module's catalogue) and a message that
 * tells the user what to fix. Programming mistakes throw plain Errors instead.
 * A module narrows `Code` to its own catalogue: `class XError extends
 * P4inaError<XErrorCode> {}` needs no constructor of its own.
 */
const BRAND = Symbol.for('p4ina.error');

export class P4inaError<Code extends string = string> extends Error {
  /** A stable identifier such as `P4INFO_UNKNOWN_TABLE`; never reworded. */
  readonly code: Code;
  readonly [BRAND] = true;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any P4inaError, also one made by another copy of this module. */
  static is(value: unknown): value is P4inaError {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}
