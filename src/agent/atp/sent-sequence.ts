/**
 * The sequence a congestion mark names, when the mark comes apart from the
 * ACK it was on: CE in the ACK's IPv4 header, read on another socket before
 * or after the ACK, or the ecn bit of an ACK the PS sent again. The packet
 * carries 16 bits of the sequence; the worker counts sequences without
 * wrapping, so the mark is placed among the sequences already sent.
 */
import type { CongestionWindow } from './congestion-window.js';

/** Half the 16-bit space: a mark cannot name a sequence sent that long ago (the worker keeps at most W ≤ 4096 outstanding). */
const NEWEST_HALF = 0x8000;

/**
 * The sequence (not wrapped) whose low 16 bits are `wireSequence`, among
 * `firstSent .. highestSent`, no more than 32,767 behind `highestSent`;
 * undefined when there is none (nothing sent yet, or a number the worker
 * has not sent).
 */
export function sentSequence(wireSequence: number, highestSent: number, firstSent: number): number | undefined {
  const back = (highestSent - wireSequence) & 0xffff;
  const sequence = highestSent - back;
  return back < NEWEST_HALF && sequence >= firstSent ? sequence : undefined;
}

/** Takes a mark on the sent sequence `wireSequence` names; false, and nothing done, when it names none. */
export function markSentSequence(window: CongestionWindow, wireSequence: number, highestSent: number, firstSent: number): boolean {
  const sequence = sentSequence(wireSequence, highestSent, firstSent);
  if (sequence === undefined) return false;
  window.onMark(sequence, highestSent);
  return true;
}
