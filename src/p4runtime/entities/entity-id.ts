/** The 32-bit ids a controller picks itself: multicast groups, clone sessions, profile members and groups. */
import { EntityErrorCode, entityError } from './entity-error.js';

/** Checks an id: a 32-bit unsigned integer, and > 0 in writes (0 is the read wildcard). */
export function checkEntityId(id: number, what: string, write: boolean): number {
  if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) throw entityError(EntityErrorCode.BAD_ID, `${what} ${id} is not a 32-bit unsigned integer`);
  if (write && id === 0) throw entityError(EntityErrorCode.BAD_ID, `${what} 0 is the read wildcard; writes need an id > 0`);
  return id;
}
