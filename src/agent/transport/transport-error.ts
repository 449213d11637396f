/**
 * Errors of opening a transport (or its IPv4 CE observer). Sending and
 * receiving never throw for network conditions (they count drops instead);
 * only setting a transport up can fail, and then the message names the
 * address, or the permission or package, and what to change.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const TRANSPORT_ERROR_CODES = {
  /** An address, port or MAC in the options is not valid, or not allowed (a non-loopback UDP wire). */
  badAddress: 'TRANSPORT_BAD_ADDRESS',
  /** The socket could not be bound (address in use, not a local address). */
  bindFailed: 'TRANSPORT_BIND_FAILED',
  /** Reading IPv4 CE marks needs the raw-socket package, which is not installed or its addon not built. */
  rawSocketMissing: 'TRANSPORT_RAW_SOCKET_MISSING',
  /** Reading IPv4 CE marks needs a raw IP socket, which needs CAP_NET_RAW (root). */
  rawSocketNotPermitted: 'TRANSPORT_RAW_SOCKET_NOT_PERMITTED',
  /** The raw IP socket could not be opened for another reason (the message has the system's). */
  rawSocketFailed: 'TRANSPORT_RAW_SOCKET_FAILED',
  /** Batched UDP I/O was asked for (udpIo, --udp-io batched) and the udp_batch addon cannot be used here. */
  udpIoUnavailable: 'TRANSPORT_UDP_IO_UNAVAILABLE',
} as const;

export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[keyof typeof TRANSPORT_ERROR_CODES];

export class TransportError extends P4inaError<TransportErrorCode> {}
