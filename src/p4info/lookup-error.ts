import { P4inaError } from '../errors/p4ina-error.js';

/** A name, alias or id that the P4Info does not have, or a P4Info that contradicts itself. */
export class P4InfoError extends P4inaError {}

/** Stable codes of P4InfoError. */
export const P4InfoErrorCode = {
  /** No entity of that kind with that name, alias or id. */
  UNKNOWN: 'P4INFO_UNKNOWN',
  /** A name matches more than one entity (an ambiguous suffix). */
  AMBIGUOUS: 'P4INFO_AMBIGUOUS',
  /** Two entities share an id, or an entity refers to one that does not exist. */
  INCONSISTENT: 'P4INFO_INCONSISTENT',
  /** The file or bytes could not be read as P4Info. */
  MALFORMED: 'P4INFO_MALFORMED',
} as const;
