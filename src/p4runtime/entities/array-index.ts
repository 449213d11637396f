/**
 * Indexes into counter, meter and register arrays. Leaving the index out
 * means the whole array (reads); a write to a whole array is allowed by the
 * spec for counters, meters and registers and sets every cell.
 */
import type * as p4r from '../../proto/p4r.js';
import { EntityErrorCode, entityError } from './entity-error.js';

/** The Index message for `index` in an array of `size` cells (0 = size unknown), or null for "every cell". */
export function encodeIndex(index: number | undefined, size: number, owner: string): p4r.Index | null {
  if (index === undefined) return null;
  if (!Number.isSafeInteger(index) || index < 0) throw entityError(EntityErrorCode.BAD_INDEX, `${owner}: index ${index} must be an integer >= 0`);
  if (size > 0 && index >= size) throw entityError(EntityErrorCode.BAD_INDEX, `${owner}: index ${index} is past the end (size ${size}, last index ${size - 1})`);
  return { index: String(index) };
}

export function decodeIndex(msg: p4r.Index__Output | null): number | undefined {
  return msg ? Number(msg.index) : undefined;
}
