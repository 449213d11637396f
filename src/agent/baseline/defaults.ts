/**
 * Limits and defaults shared by the ring and the parameter server, and the
 * checks of options both take. Options that break these are programming
 * errors (RangeError); the command line checks user input first and reports
 * it as BASELINE_BAD_CONFIG.
 */
import { MAX_JOB_ID_BYTES } from './frame.js';

/** Values per DATA frame by default: 1 MiB of float32. */
export const DEFAULT_PIECE_ELEMENTS = 256 * 1024;
/** The most values a frame may carry (16 MiB), which bounds what a receiver buffers for one frame. */
export const MAX_PIECE_ELEMENTS = 4 * 1024 * 1024;
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_IO_TIMEOUT_MS = 30_000;
export const DEFAULT_JOB_ID = 'default';
/** The longest tensor the frame format can describe (element counts and offsets are u32). */
export const MAX_TENSOR_ELEMENTS = 0xffff_ffff;

export interface CommonOptions {
  readonly jobId?: string;
  readonly pieceElements?: number;
  readonly connectTimeoutMs?: number;
  readonly ioTimeoutMs?: number;
}

/** Throws RangeError for a job id, piece size or timeout out of range. */
export function checkCommonOptions(options: CommonOptions): void {
  const pieces = options.pieceElements ?? DEFAULT_PIECE_ELEMENTS;
  if (!Number.isInteger(pieces) || pieces < 1 || pieces > MAX_PIECE_ELEMENTS) throw new RangeError(`pieceElements must be in 1..${MAX_PIECE_ELEMENTS}, got ${pieces}`);
  const jobBytes = Buffer.byteLength(options.jobId ?? DEFAULT_JOB_ID, 'utf8');
  if (jobBytes < 1 || jobBytes > MAX_JOB_ID_BYTES) throw new RangeError(`jobId must be 1..${MAX_JOB_ID_BYTES} bytes of UTF-8, got ${jobBytes}`);
  for (const name of ['connectTimeoutMs', 'ioTimeoutMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(value > 0 && value <= 2_147_483_647)) throw new RangeError(`${name} must be a positive number of milliseconds, got ${value}`);
  }
}

/** Throws TypeError/RangeError unless `data` is a Float32Array the frames can carry. */
export function checkTensor(data: Float32Array): void {
  if (!(data instanceof Float32Array)) throw new TypeError('allreduce takes a Float32Array');
  if (data.length > MAX_TENSOR_ELEMENTS) throw new RangeError(`allreduce takes at most ${MAX_TENSOR_ELEMENTS} elements, got ${data.length}`);
}
