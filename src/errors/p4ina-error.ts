/**
 * The one error shape for user and protocol errors across p4ina: a stable,
 * machine-readable `code` (kept in each module's catalogue) and a message that
 * tells the user what to fix. Programming mistakes throw plain Errors instead.
 */
const BRAND = Symbol.for('p4ina.error');

export class P4inaError extends Error {
  /** A stable identifier such as `P4INFO_UNKNOWN_TABLE`; never reworded. */
  readonly code: string;
  readonly [BRAND] = true;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any P4inaError, also one made by another copy of this module. */
  static is(value: unknown): value is P4inaError {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}
