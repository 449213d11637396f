/**
 * Errors about switch ports: a bad `-i PORT@SPEC` argument, a socket that
 * cannot be bound, a backend we do not have yet. Each carries a stable code
 * from PORT_ERROR_CODES and a message that says what to change.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const PORT_ERROR_CODES = {
  /** The argument is not PORT@SPEC with a known SPEC form. */
  syntax: 'PORT_SPEC_SYNTAX',
  /** The port number is not an integer in 0..510. */
  numberRange: 'PORT_NUMBER_RANGE',
  /** Port 511 is v1model's drop port and cannot be attached. */
  dropPort: 'PORT_DROP_PORT',
  /** The same port number is given twice. */
  duplicate: 'PORT_DUPLICATE',
  /** An address is not an IPv4/IPv6 literal, or the two ends mix families. */
  badAddress: 'PORT_BAD_ADDRESS',
  /** A UDP port number is out of range. */
  badUdpPort: 'PORT_BAD_UDP_PORT',
  /** A UDP wire address is not loopback and non-loopback was not allowed. */
  notLoopback: 'PORT_NOT_LOOPBACK',
  /** PORT@mem:NAME was given but no in-memory hub was supplied to open it. */
  noMemoryHub: 'PORT_NO_MEMORY_HUB',
  /** This side of an in-memory wire is already attached. */
  memoryWireInUse: 'PORT_MEMORY_WIRE_IN_USE',
  /** The socket could not be bound (address in use, not a local address…). */
  bindFailed: 'PORT_BIND_FAILED',
} as const;

export type PortErrorCode = (typeof PORT_ERROR_CODES)[keyof typeof PORT_ERROR_CODES];

export class PortError extends P4inaError<PortErrorCode> {}
