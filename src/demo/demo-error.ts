/** Errors of `p4ina demo`: bad options, a child that failed, a step that timed out. */
import { P4inaError } from '../errors/p4ina-error.js';

export const DEMO_ERROR_CODES = {
  /** A command-line option is malformed or out of range. */
  badOption: 'DEMO_BAD_OPTION',
  /** The P4 program did not compile. */
  compile: 'DEMO_COMPILE_FAILED',
  /** The switch process did not start or did not say where it listens. */
  switchStart: 'DEMO_SWITCH_FAILED',
  /** The switch process exited while the demo still needed it. */
  switchExited: 'DEMO_SWITCH_EXITED',
  /** A worker process failed or printed no report. */
  worker: 'DEMO_WORKER_FAILED',
  /** A step took longer than its bound. */
  timeout: 'DEMO_TIMEOUT',
  /** Ctrl-C or SIGTERM. */
  interrupted: 'DEMO_INTERRUPTED',
} as const;

export type DemoErrorCode = (typeof DEMO_ERROR_CODES)[keyof typeof DEMO_ERROR_CODES];

export class DemoError extends P4inaError {
  constructor(code: DemoErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}
