/**
 * Errors of the OmniReduce worker and host aggregator. Each has a stable
 * code; the message says what happened (slot, block, peer) and what to check.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const OMNIREDUCE_ERROR_CODES = {
  /** An option is invalid (block size, slot ranges, worker list, threshold). */
  badConfig: 'OMNIREDUCE_BAD_CONFIG',
  /** The tensor holds NaN or ±Infinity, which integer aggregation cannot carry. Nothing was sent. */
  nonFiniteInput: 'OMNIREDUCE_NON_FINITE_INPUT',
  /** The tensor's block offsets do not fit the 32-bit tsi field. Nothing was sent. */
  tensorTooLong: 'OMNIREDUCE_TENSOR_TOO_LONG',
  /** A message went unanswered through every allowed retransmission. */
  timeout: 'OMNIREDUCE_TIMEOUT',
  /** A reply that a correct aggregator cannot send (a next block past ours, an exponent below ours). */
  badResult: 'OMNIREDUCE_BAD_RESULT',
  /** allreduce was called while another call on the same worker was running. */
  busy: 'OMNIREDUCE_BUSY',
  /** An earlier call failed or the worker was closed. */
  unusable: 'OMNIREDUCE_UNUSABLE',
} as const;

export type OmniReduceErrorCode = (typeof OMNIREDUCE_ERROR_CODES)[keyof typeof OMNIREDUCE_ERROR_CODES];

export class OmniReduceError extends P4inaError<OmniReduceErrorCode> {}
