/**
 * SwitchML's 16-bit pool index, which OmniReduce and p4ina's Rina header
 * reuse: the most significant bit names the copy ("set") of the slot, the
 * other 15 bits the slot. A worker alternates the set each time it reuses a
 * slot, so that the switch can keep the previous result (to answer late
 * retransmissions) while the other copy fills.
 */
import { requireRange, requireUint } from './field-check.js';

/** Slots addressable by the 15-bit slot field. */
export const MAX_POOL_SLOTS = 0x8000;

export type ShadowSet = 0 | 1;

/** slot (0..32767) and set (0 or 1) → the 16-bit field. */
export function packPoolIndex(slot: number, set: ShadowSet): number {
  requireUint(slot, 15, 'slot');
  requireRange(set, 0, 1, 'set');
  return (set << 15) | slot;
}

export function slotOfPoolIndex(poolIndex: number): number {
  return poolIndex & 0x7fff;
}

export function setOfPoolIndex(poolIndex: number): ShadowSet {
  return (poolIndex >>> 15) as ShadowSet;
}
