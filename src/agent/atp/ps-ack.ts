/**
 * What the parameter server writes into an ACK (docs/atp.md, "The parameter
 * server"): the header, and the values, the sum of a cover's pieces. The
 * integer pieces are added exactly (as float64 integers: every partial sum
 * of the job's integers fits 32 bits), the float pieces in float64; the ACK
 * carries the integer sum when no piece was float and it fits an int32,
 * otherwise the float32 of sum/f + floats.
 */
import { ATP_HEADER_LENGTH, type AtpHeaderFields } from '../../wire/index.js';
import { INT32_MAX } from './atp-scale.js';

/** One piece's values: int32 at the job's scale, or float32 (`overflow`). */
export interface PieceValues {
  readonly ints: Int32Array | undefined;
  readonly floats: Float32Array | undefined;
}

export interface PsAckFields {
  readonly jobId: number;
  readonly elementCount: number;
  /** Every level-1 contributor's bit: the result covers them all. */
  readonly bitmap1: number;
  /** The aggregator the sequence used, which the ACK frees, and the one its window position uses next. */
  readonly usedIndex: number;
  readonly nextIndex: number;
  readonly sequenceNumber: number;
  readonly overflow: boolean;
  readonly ecn: boolean;
}

/** The header of an ACK. */
export function psAckHeader(f: PsAckFields): AtpHeaderFields {
  return {
    bitmap0: f.nextIndex,
    bitmap1: f.bitmap1,
    fanInDegree0: 0,
    fanInDegree1: 0,
    overflow: f.overflow,
    resend: false,
    collision: f.nextIndex !== f.usedIndex,
    ecn: f.ecn,
    edgeSwitchIdentifier: 0,
    isAck: true,
    aggregatorIndex: f.usedIndex,
    jobId: f.jobId,
    sequenceNumber: f.sequenceNumber,
    elementCount: f.elementCount,
  };
}

/**
 * Sums `pieces` into `ints` and `floats` (scratch arrays of the job's value
 * count); true when the result goes as int32, false when as float32.
 */
export function sumPieces(pieces: readonly PieceValues[], ints: Float64Array, floats: Float64Array): boolean {
  const n = ints.length;
  ints.fill(0);
  floats.fill(0);
  let anyFloat = false;
  for (const piece of pieces) {
    if (piece.floats !== undefined) {
      anyFloat = true;
      for (let k = 0; k < n; k++) floats[k] += piece.floats[k]!;
    } else {
      for (let k = 0; k < n; k++) ints[k] += piece.ints![k]!;
    }
  }
  if (anyFloat) return false;
  for (let k = 0; k < n; k++) if (ints[k]! > INT32_MAX || ints[k]! < -INT32_MAX) return false;
  return true;
}

/** Writes the sum after the ACK's header: the integers as they are, or the float32 of ints/factor + floats. */
export function writeAckValues(ack: Buffer, ints: Float64Array, floats: Float64Array, asInts: boolean, factor: number): void {
  const n = ints.length;
  if (asInts) {
    for (let k = 0; k < n; k++) ack.writeInt32BE(ints[k]!, ATP_HEADER_LENGTH + 4 * k);
  } else {
    for (let k = 0; k < n; k++) ack.writeFloatBE(ints[k]! / factor + floats[k]!, ATP_HEADER_LENGTH + 4 * k);
  }
}
