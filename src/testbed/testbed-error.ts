/** Errors of the testbed's Node side (the controller step, the runner, the report), with stable codes. */
import { P4inaError } from '../errors/p4ina-error.js';

export const TESTBED_ERROR_CODES = {
  /** The Python runner's results document is not what `p4ina testbed format` expects. */
  badReport: 'TESTBED_BAD_REPORT',
  /** Debian's Python with Mininet, or the runner script, is not there. */
  noRunner: 'TESTBED_NO_RUNNER',
} as const;

export type TestbedErrorCode = (typeof TESTBED_ERROR_CODES)[keyof typeof TESTBED_ERROR_CODES];

export class TestbedError extends P4inaError<TestbedErrorCode> {}
