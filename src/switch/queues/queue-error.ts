/**
 * Errors about egress queue settings: a bad `--port-rate`/`--queue-depth`
 * argument or a bad value given to the device's queue API. Each carries a
 * stable code from QUEUE_ERROR_CODES and a message that says what to change.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const QUEUE_ERROR_CODES = {
  /** A rate is not NUMBER[k|M|G](pps|bps), a bare number of packets/s, or `unlimited`. */
  rateSyntax: 'QUEUE_RATE_SYNTAX',
  /** A rate is 0, negative or absurdly large. */
  rateRange: 'QUEUE_RATE_RANGE',
  /** A queue depth is not an integer in 1..MAX_QUEUE_DEPTH. */
  depthRange: 'QUEUE_DEPTH_RANGE',
  /** The @PORT of a setting is not a port number 0..510. */
  portRange: 'QUEUE_PORT_RANGE',
} as const;

export type QueueErrorCode = (typeof QUEUE_ERROR_CODES)[keyof typeof QUEUE_ERROR_CODES];

export class QueueError extends P4inaError<QueueErrorCode> {}
