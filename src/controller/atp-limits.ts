/**
 * The numbers an ATP job spec is checked against (docs/atp.md and
 * docs/p4-programs.md §4). They mirror the agents' and atp.p4's own: the
 * controller does not import the agents, so a test compares them with
 * src/agent/atp/atp-limits.ts and atp-scale.ts.
 */
import { ATP_MAX_FAN_IN, ATP_PORTS } from '../wire/index.js';

/** Contributors per level: a 5-bit fan-in, bitmap bits 0..30. */
export const ATP_MAX_CONTRIBUTORS = ATP_MAX_FAN_IN;
/** Aggregator indices are 16 bits. */
export const ATP_MAX_POOL = 0x1_0000;
/** atp.p4's pool as shipped (ATP_AGGREGATORS): a job hashes over all of it unless told otherwise. */
export const ATP_DEFAULT_POOL = 4096;
/** ATP's own largest window (CC_manager), p4ina's default number of window positions. */
export const ATP_DEFAULT_WINDOW = 100;
/** The PS tells sequences apart within 2W of each other, and sequence numbers are 16 bits. */
export const ATP_MAX_WINDOW = 4096;
/** ATP's threshold for raw floats; the agents' default value range. */
export const ATP_DEFAULT_VALUE_RANGE = 213;
/** atp.p4's default reclaim time (ATP_DEFAULT_RECLAIM_US), in ms. */
export const ATP_DEFAULT_RECLAIM_MS = 1000;
/**
 * The longest reclaim time a job may ask for: generations come from a
 * millisecond clock modulo 2^16 (install/atp-generation.ts), so two setups of
 * a job can share a generation only 65.5 s or more apart, by which time what
 * the earlier one left is a leftover by age.
 */
export const ATP_MAX_RECLAIM_MS = 60_000;
/** `ecn_threshold` is bit<19>; the largest value is what the controller writes for "no marking". */
export const ATP_ECN_THRESHOLD_OFF = 0x7_ffff;

/** Workers and the PS must use the ATP port block when switches are on the path (switches recognise ATP by it). */
export function isAtpPort(port: number): boolean {
  return port >= ATP_PORTS.first && port <= ATP_PORTS.last;
}
