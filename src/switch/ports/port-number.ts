/**
 * v1model port numbers: 9 bits, of which 511 is the drop port (what
 * mark_to_drop writes to egress_spec), so attachable ports are 0..510.
 */
import { PORT_ERROR_CODES, PortError } from './port-error.js';

export const DROP_PORT = 511;
export const MAX_PORT_NUMBER = 510;

/** Throws a PortError unless `n` is an attachable port number. `what` names the argument in the message. */
export function checkPortNumber(n: number, what: string): void {
  if (n === DROP_PORT) {
    throw new PortError(PORT_ERROR_CODES.dropPort, `${what}: port 511 is v1model's drop port and cannot be attached; choose 0..510`);
  }
  if (!Number.isInteger(n) || n < 0 || n > MAX_PORT_NUMBER) {
    throw new PortError(PORT_ERROR_CODES.numberRange, `${what}: port number ${n} is out of range; choose an integer in 0..510`);
  }
}
