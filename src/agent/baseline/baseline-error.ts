/**
 * Errors of the TCP baselines (ring AllReduce and parameter server). Each has
 * a stable code from BASELINE_ERROR_CODES; the message names the rank or
 * address involved and what to check.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const BASELINE_ERROR_CODES = {
  /** An argument or option given by the user is invalid (a bad --peers list, a rank out of range). */
  badConfig: 'BASELINE_BAD_CONFIG',
  /** The listening socket could not be bound (address in use, not a local address). */
  listenFailed: 'BASELINE_LISTEN_FAILED',
  /** The connections were not all set up before the deadline. */
  connectTimeout: 'BASELINE_CONNECT_TIMEOUT',
  /** The peer belongs to another job, has another world size or rank, or another piece size. */
  handshakeMismatch: 'BASELINE_HANDSHAKE_MISMATCH',
  /** Bytes on the connection do not form a valid frame. */
  malformedFrame: 'BASELINE_MALFORMED_FRAME',
  /** A well-formed frame that the protocol does not allow at this point. */
  unexpectedFrame: 'BASELINE_UNEXPECTED_FRAME',
  /** The ranks called allreduce with tensors of different lengths. */
  lengthMismatch: 'BASELINE_LENGTH_MISMATCH',
  /** The peer closed or reset the connection in the middle of the job. */
  peerClosed: 'BASELINE_PEER_CLOSED',
  /** The peer reported an error of its own (its code is in `peerCode`). */
  peerFailed: 'BASELINE_PEER_FAILED',
  /** No progress for the configured time. */
  timeout: 'BASELINE_TIMEOUT',
  /** The caller aborted the call. */
  aborted: 'BASELINE_ABORTED',
  /** An earlier call failed or close() was called; make a new instance. */
  unusable: 'BASELINE_UNUSABLE',
} as const;

export type BaselineErrorCode = (typeof BASELINE_ERROR_CODES)[keyof typeof BASELINE_ERROR_CODES];

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(BASELINE_ERROR_CODES));

export function isBaselineErrorCode(code: string): code is BaselineErrorCode {
  return KNOWN_CODES.has(code);
}

export class BaselineError extends P4inaError<BaselineErrorCode> {}

/** Any thrown value as a BaselineError: ours pass through, others become `fallback` with the value as cause. */
export function asBaselineError(value: unknown, fallback: BaselineErrorCode, context: string): BaselineError {
  if (value instanceof BaselineError) return value;
  const detail = value instanceof Error ? value.message : String(value);
  return new BaselineError(fallback, `${context}: ${detail}`, { cause: value });
}
