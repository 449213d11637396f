/**
 * Errors of the ATP agents (worker and parameter server). Each has a stable
 * code; the message says what happened and what to check.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const ATP_ERROR_CODES = {
  /** A command-line or job option is invalid. */
  badConfig: 'ATP_BAD_CONFIG',
  /** The tensor holds NaN or ±Infinity, which neither the switch nor the float fallback can sum meaningfully. Nothing was sent. */
  nonFiniteInput: 'ATP_NON_FINITE_INPUT',
  /** A packet went unanswered through every allowed retransmission. */
  timeout: 'ATP_TIMEOUT',
  /** The caller aborted the call. */
  aborted: 'ATP_ABORTED',
  /** allreduce was called while another call on the same worker was running. */
  busy: 'ATP_BUSY',
  /** An earlier call failed (the workers' sequence numbers may be out of step) or the worker was closed. */
  unusable: 'ATP_UNUSABLE',
} as const;

export type AtpErrorCode = (typeof ATP_ERROR_CODES)[keyof typeof ATP_ERROR_CODES];

export class AtpError extends P4inaError<AtpErrorCode> {}
