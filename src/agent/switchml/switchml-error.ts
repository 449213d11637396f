/**
 * Errors of the SwitchML agent. Each has a stable code; the message says what
 * happened (slot, sequence number, counts) and what to check.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const SWITCHML_ERROR_CODES = {
  /** A command-line or job-spec option is invalid. */
  badConfig: 'SWITCHML_BAD_CONFIG',
  /** The tensor holds NaN or ±Infinity, which integer aggregation cannot carry. Nothing was sent. */
  nonFiniteInput: 'SWITCHML_NON_FINITE_INPUT',
  /** The tensor is longer than one operation's 32-bit sequence numbers can cover. Nothing was sent. */
  tensorTooLong: 'SWITCHML_TENSOR_TOO_LONG',
  /** A packet went unanswered through every allowed retransmission. */
  timeout: 'SWITCHML_TIMEOUT',
  /** A result shows that the workers called allreduce with tensors of different lengths. */
  tensorMismatch: 'SWITCHML_TENSOR_MISMATCH',
  /** A result that a correct switch cannot produce (an exponent below this worker's own). */
  badResult: 'SWITCHML_BAD_RESULT',
  /** The caller aborted the call. */
  aborted: 'SWITCHML_ABORTED',
  /** allreduce was called while another call on the same worker was running. */
  busy: 'SWITCHML_BUSY',
  /** An earlier call failed (the workers' slot sets may be out of step) or the worker was closed. */
  unusable: 'SWITCHML_UNUSABLE',
} as const;

export type SwitchMlErrorCode = (typeof SWITCHML_ERROR_CODES)[keyof typeof SWITCHML_ERROR_CODES];

export class SwitchMlError extends P4inaError<SwitchMlErrorCode> {}
