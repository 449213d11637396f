/**
 * Errors of the Rina agents. Each has a stable code; the message says what
 * happened (which packet, which member) and what to check.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const RINA_ERROR_CODES = {
  /** A command-line option or ring description is invalid. */
  badConfig: 'RINA_BAD_CONFIG',
  /** The tensor holds NaN or ±Infinity, which integer aggregation cannot carry. Nothing was sent. */
  nonFiniteInput: 'RINA_NON_FINITE_INPUT',
  /** A segment would need more chunks than the 24-bit chunk index holds. Nothing was sent. */
  tensorTooLong: 'RINA_TENSOR_TOO_LONG',
  /** A packet went unanswered through every allowed retransmission. */
  timeout: 'RINA_TIMEOUT',
  /** A packet that a correct ring cannot produce (an exponent other than the agreed one, a length that differs). */
  badResult: 'RINA_BAD_RESULT',
  /** The caller aborted the call. */
  aborted: 'RINA_ABORTED',
  /** allreduce was called while another call on the same worker was running. */
  busy: 'RINA_BUSY',
  /** An earlier call failed (the members' epochs may be out of step) or the worker was closed. */
  unusable: 'RINA_UNUSABLE',
} as const;

export type RinaErrorCode = (typeof RINA_ERROR_CODES)[keyof typeof RINA_ERROR_CODES];

export class RinaError extends P4inaError<RinaErrorCode> {}
