/** Errors of `p4ina rollout`: bad options, a network that cannot be set up, an interrupted sweep. */
import { P4inaError } from '../errors/p4ina-error.js';

export const ROLLOUT_ERROR_CODES = {
  /** A command-line option is malformed or out of range. */
  badOption: 'ROLLOUT_BAD_OPTION',
  /** The network of the sweep (switches, wires, Mininet) could not be set up. */
  network: 'ROLLOUT_NETWORK_FAILED',
  /** `--net mininet` without root or without Mininet. */
  needsRoot: 'ROLLOUT_NEEDS_ROOT',
  /** Ctrl-C or SIGTERM. */
  interrupted: 'ROLLOUT_INTERRUPTED',
} as const;

export type RolloutErrorCode = (typeof ROLLOUT_ERROR_CODES)[keyof typeof ROLLOUT_ERROR_CODES];

export class RolloutError extends P4inaError {
  constructor(code: RolloutErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}
