/**
 * Errors of opening a transport. Sending and receiving never throw for
 * network conditions (they count drops instead); only setting a transport up
 * can fail, and then the message names the address and what to change.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const TRANSPORT_ERROR_CODES = {
  /** An address, port or MAC in the options is not valid, or not allowed (a non-loopback UDP wire). */
  badAddress: 'TRANSPORT_BAD_ADDRESS',
  /** The socket could not be bound (address in use, not a local address). */
  bindFailed: 'TRANSPORT_BIND_FAILED',
} as const;

export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[keyof typeof TRANSPORT_ERROR_CODES];

export class TransportError extends P4inaError<TransportErrorCode> {}
