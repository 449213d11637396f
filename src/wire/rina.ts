/**
 * p4ina's Rina header (version 1), designed here: Rina's paper describes the
 * protocol, not a packet format, and no code of it is public. One header
 * serves the three messages of a ring step; why each field is there:
 * docs/wire.md, "Rina".
 *
 *   byte 0  version:4 | msg_type:4     1      phase
 *   2..3    job_id                     4..5   sender_rank
 *   6       worker_id                  7      exponent (int8)
 *   8..9    step                       10..11 segment
 *   12..15  chunk                      16..17 pool_index (set:1 slot:15)
 *   18..19  elem_count                 20..   big-endian int32 values
 */
import { requireInt, requireRange, requireRoom, requireSpan, requireUint } from './field-check.js';
import { Int32BeView } from './int32-view.js';
import { packPoolIndex, setOfPoolIndex, type ShadowSet, slotOfPoolIndex } from './pool-index.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const RINA_VERSION = 1;
export const RINA_HEADER_LENGTH = 20;
/** Workers per rack the ToR can tell apart: the width of its contribution bitmap. */
export const RINA_MAX_RACK_WORKERS = 32;

export const RinaMessageType = {
  /** A rack member's piece of a segment, to its INA-capable ToR (scatter-reduce). */
  CONTRIBUTION: 1,
  /** A ring member's data for the next member: a partial sum, or in all-gather the reduced segment. */
  RING_DATA: 2,
  /** The receiver of RING_DATA confirms (step, segment, chunk); no values. */
  ACK: 3,
} as const;
export type RinaMessageType = (typeof RinaMessageType)[keyof typeof RinaMessageType];

export const RinaPhase = {
  SCATTER_REDUCE: 1,
  ALL_GATHER: 2,
} as const;
export type RinaPhase = (typeof RinaPhase)[keyof typeof RinaPhase];

export interface RinaHeaderFields {
  messageType: RinaMessageType;
  phase: RinaPhase;
  jobId: number;
  /** The sender's position in the ring: an abstracted worker (an INA rack) or an autonomous worker. */
  senderRank: number;
  /** The physical worker within its rack, 0..31 (its bit at the ToR); 0 for autonomous workers. */
  workerId: number;
  /** int8: the scale of the values, agreed before the step (see docs/wire.md). */
  exponent: number;
  /** Ring step within the phase, 0..ring length − 2. */
  step: number;
  /** Which of the ring's segments of the tensor this is. */
  segment: number;
  /** Packet-sized chunk within the segment. */
  chunk: number;
  /** Aggregation slot at the ToR, 0..32767. */
  slot: number;
  set: ShadowSet;
  /** Number of int32 values after the header (0 for an ACK). */
  elementCount: number;
}

export interface RinaFields extends RinaHeaderFields {
  /** `elementCount` values are written from `valuesOffset`, zeros past the end. */
  values: ArrayLike<number>;
  valuesOffset?: number;
}

export interface RinaPacket extends RinaHeaderFields {
  poolIndex: number;
  values: Int32BeView;
  byteLength: number;
}

export function rinaLength(elementCount: number): number {
  return RINA_HEADER_LENGTH + 4 * elementCount;
}

/** Writes the header (not the values); returns the offset where the values go. */
export function encodeRinaHeader(buf: Buffer, offset: number, fields: RinaHeaderFields): number {
  requireUint(fields.elementCount, 16, 'elementCount');
  requireRoom(buf, offset, rinaLength(fields.elementCount), `a Rina packet of ${fields.elementCount} values`);
  requireRange(fields.messageType, RinaMessageType.CONTRIBUTION, RinaMessageType.ACK, 'messageType');
  requireRange(fields.phase, RinaPhase.SCATTER_REDUCE, RinaPhase.ALL_GATHER, 'phase');
  requireUint(fields.jobId, 16, 'jobId');
  requireUint(fields.senderRank, 16, 'senderRank');
  requireRange(fields.workerId, 0, RINA_MAX_RACK_WORKERS - 1, 'workerId');
  requireInt(fields.exponent, 8, 'exponent');
  requireUint(fields.step, 16, 'step');
  requireUint(fields.segment, 16, 'segment');
  requireUint(fields.chunk, 32, 'chunk');
  buf[offset] = (RINA_VERSION << 4) | fields.messageType;
  buf[offset + 1] = fields.phase;
  buf.writeUInt16BE(fields.jobId, offset + 2);
  buf.writeUInt16BE(fields.senderRank, offset + 4);
  buf[offset + 6] = fields.workerId;
  buf.writeInt8(fields.exponent, offset + 7);
  buf.writeUInt16BE(fields.step, offset + 8);
  buf.writeUInt16BE(fields.segment, offset + 10);
  buf.writeUInt32BE(fields.chunk, offset + 12);
  buf.writeUInt16BE(packPoolIndex(fields.slot, fields.set), offset + 16);
  buf.writeUInt16BE(fields.elementCount, offset + 18);
  return offset + RINA_HEADER_LENGTH;
}

/** Writes header and values; returns the offset after them. */
export function encodeRina(buf: Buffer, offset: number, fields: RinaFields): number {
  const valuesAt = encodeRinaHeader(buf, offset, fields);
  new Int32BeView(buf, valuesAt, fields.elementCount).copyFrom(fields.values, fields.valuesOffset ?? 0);
  return valuesAt + 4 * fields.elementCount;
}

/** Reads a packet from `offset` to `end`, which must hold exactly the header and its values. */
export function decodeRina(buf: Buffer, offset = 0, end = buf.length): Decoded<RinaPacket> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  if (available < RINA_HEADER_LENGTH) {
    return wireError(WireErrorCode.RINA_TRUNCATED, offset, `a Rina header needs 20 bytes, there are ${available}`);
  }
  const version = buf[offset]! >>> 4;
  if (version !== RINA_VERSION) {
    return wireError(WireErrorCode.RINA_BAD_VERSION, offset, `Rina header version ${version}; this code speaks version ${RINA_VERSION}`);
  }
  const messageType = buf[offset]! & 0x0f;
  if (messageType < RinaMessageType.CONTRIBUTION || messageType > RinaMessageType.ACK) {
    return wireError(WireErrorCode.RINA_BAD_MESSAGE_TYPE, offset, `Rina message type ${messageType} is not 1 (contribution), 2 (ring data) or 3 (ack)`);
  }
  const phase = buf[offset + 1]!;
  if (phase !== RinaPhase.SCATTER_REDUCE && phase !== RinaPhase.ALL_GATHER) {
    return wireError(WireErrorCode.RINA_BAD_PHASE, offset + 1, `Rina phase ${phase} is not 1 (scatter-reduce) or 2 (all-gather)`);
  }
  const workerId = buf[offset + 6]!;
  if (workerId >= RINA_MAX_RACK_WORKERS) {
    return wireError(WireErrorCode.RINA_BAD_WORKER_ID, offset + 6, `worker id ${workerId} is beyond the ${RINA_MAX_RACK_WORKERS} workers a rack can have`);
  }
  const elementCount = buf.readUInt16BE(offset + 18);
  const byteLength = rinaLength(elementCount);
  if (available < byteLength) {
    return wireError(WireErrorCode.RINA_TRUNCATED, offset + 18, `${elementCount} values need ${byteLength} bytes, there are ${available}`);
  }
  if (available > byteLength) {
    return wireError(WireErrorCode.RINA_LENGTH_MISMATCH, offset + 18, `${elementCount} values need ${byteLength} bytes, but ${available} were received`);
  }
  const poolIndex = buf.readUInt16BE(offset + 16);
  return {
    ok: true,
    messageType: messageType as RinaMessageType,
    phase,
    jobId: buf.readUInt16BE(offset + 2),
    senderRank: buf.readUInt16BE(offset + 4),
    workerId,
    exponent: buf.readInt8(offset + 7),
    step: buf.readUInt16BE(offset + 8),
    segment: buf.readUInt16BE(offset + 10),
    chunk: buf.readUInt32BE(offset + 12),
    poolIndex,
    slot: slotOfPoolIndex(poolIndex),
    set: setOfPoolIndex(poolIndex),
    elementCount,
    values: new Int32BeView(buf, offset + RINA_HEADER_LENGTH, elementCount),
    byteLength,
  };
}

/**
 * The 32-bit `chunk` field carries the pass's epoch in its top byte and the
 * chunk within the segment below it (docs/wire.md §7): a ToR orders the
 * rounds of a slot copy by epoch first, so that a late packet of an earlier
 * pass is not taken for a new round.
 */
export const RINA_MAX_CHUNK_INDEX = 0xff_ffff;

/** The `chunk` field of chunk `index` (0..2^24 − 1) in the pass of `epoch` (mod 256). */
export function rinaChunkField(epoch: number, index: number): number {
  requireRange(index, 0, RINA_MAX_CHUNK_INDEX, 'chunk index');
  return ((epoch & 0xff) * 0x100_0000 + index) >>> 0;
}

/** The epoch in a `chunk` field. */
export function rinaChunkEpoch(chunk: number): number {
  return chunk >>> 24;
}

/** The chunk within the segment in a `chunk` field. */
export function rinaChunkIndex(chunk: number): number {
  return chunk & RINA_MAX_CHUNK_INDEX;
}

/** The exponent −128 marks the exponent pass: the values are exponents, and a ToR keeps their maximum. */
export const RINA_EXPONENT_PASS = -128;
