/**
 * The bounds the ATP header puts on a job (docs/atp.md, "Roles and levels"),
 * and the checks every ATP option goes through. A value out of range is a
 * programming error here (RangeError); the command line checks user input
 * first and reports ATP_BAD_CONFIG.
 */
import { ATP_MAX_FAN_IN } from '../../wire/index.js';

/** Contributors per level: a 5-bit fan-in, and bitmap bits 0..30. */
export const ATP_MAX_CONTRIBUTORS = ATP_MAX_FAN_IN;
/** At most 31 racks (level-1 contributors) of at most 31 workers each. */
export const ATP_MAX_WORKERS = ATP_MAX_FAN_IN * ATP_MAX_FAN_IN;
/** Aggregator indices are 16 bits. */
export const ATP_MAX_POOL = 0x1_0000;
/**
 * Window positions: the PS tells sequences apart within 2W of each other, and
 * sequence numbers are 16 bits, so 2W must stay well below 32768; ATP's own
 * window stops at 100.
 */
export const ATP_MAX_WINDOW = 4096;
/** ATP's maximum window (common/CC_manager.h): also p4ina's default number of window positions. */
export const ATP_DEFAULT_WINDOW = 100;
export const ATP_DEFAULT_ELEMENTS = 64;

export function integerIn(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer in ${min}..${max}, not ${value}`);
  return value;
}

export function requireWorldSize(worldSize: number): number {
  return integerIn(worldSize, 1, ATP_MAX_WORKERS, 'worldSize');
}
