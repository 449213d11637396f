/** Errors of the loopback fabric: a topology it cannot run, a switch that did not start, an interrupted start. */
import { P4inaError } from '../errors/p4ina-error.js';

export const FABRIC_ERROR_CODES = {
  /** A `--topo` shorthand that is malformed or out of range. */
  badTopo: 'FABRIC_BAD_TOPO',
  /** A host or switch name the fabric does not have. */
  unknownNode: 'FABRIC_UNKNOWN_NODE',
  /** A switch with nothing to run: INA-capable with no program given. */
  noProgram: 'FABRIC_NO_PROGRAM',
  /** A host whose frames have no next hop the fabric can name (its ToR has no MAC and no destination was given). */
  noGateway: 'FABRIC_NO_GATEWAY',
  /** A switch process did not start, or did not say where it listens. */
  switchFailed: 'FABRIC_SWITCH_FAILED',
  /** A switch process exited while the fabric was up. */
  switchExited: 'FABRIC_SWITCH_EXITED',
  /** The caller's abort signal stopped the start. */
  interrupted: 'FABRIC_INTERRUPTED',
} as const;

export type FabricErrorCode = (typeof FABRIC_ERROR_CODES)[keyof typeof FABRIC_ERROR_CODES];

export class FabricError extends P4inaError<FabricErrorCode> {}
