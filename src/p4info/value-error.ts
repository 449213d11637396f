import { P4inaError } from '../errors/p4ina-error.js';

/** A value that cannot be turned into a P4Runtime bytestring of the width asked for. */
export class P4ValueError extends P4inaError {}

/** Stable codes of P4ValueError. */
export const ValueErrorCode = {
  /** The text is not a number, address or hex string we can read. */
  MALFORMED: 'VALUE_MALFORMED',
  /** The value needs more bits than the field has. */
  TOO_WIDE: 'VALUE_TOO_WIDE',
  /** Negative numbers have no bitstring form here. */
  NEGATIVE: 'VALUE_NEGATIVE',
  /** An empty bytestring, which P4Runtime does not allow. */
  EMPTY: 'VALUE_EMPTY',
} as const;
