/**
 * p4ina's SwitchML header (version 1): SwitchML's fields plus a job id and a
 * worker id, so that one switch serves several jobs, and an element count, so
 * that a receiver knows how many values follow. Layout and the exponent
 * scheme: docs/wire.md, "SwitchML".
 *
 *   byte 0  version:4 | msg_type:4     byte 1   worker_id
 *   2..3    job_id                     4..7     tsi
 *   8..9    pool_index (set:1 slot:15) 10..11   elem_count
 *   12      exponent (int8)            13       epoch
 *   14..    elem_count big-endian int32 values
 */
import { requireInt, requireRange, requireRoom, requireSpan, requireUint } from './field-check.js';
import { Int32BeView } from './int32-view.js';
import { packPoolIndex, setOfPoolIndex, type ShadowSet, slotOfPoolIndex } from './pool-index.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const SWITCHML_VERSION = 1;
export const SWITCHML_HEADER_LENGTH = 14;
/** Workers per job: the width of the switch's seen bitmap. */
export const SWITCHML_MAX_WORKERS = 32;
/** Values per packet when the P4 program is compiled without overriding it. */
export const SWITCHML_DEFAULT_ELEMENTS = 64;
/** The exponent sent when there is no next chunk: below every real one, so the max ignores it. */
export const EXPONENT_NONE = -128;

export const SwitchMlMessageType = {
  /** Worker → switch: this worker's values for a slot. */
  UPDATE: 1,
  /** Switch → all of the job's workers (multicast): the completed sum. */
  RESULT: 2,
  /** Switch → one worker (unicast): the stored sum, answering an update for a slot already complete. */
  RETRANSMITTED_RESULT: 3,
  /**
   * Worker → switch: an UPDATE retransmitted several times without an answer.
   * The switch handles it as an UPDATE, except that it may take over a slot
   * copy that is filling another round (docs/p4-programs.md §3, "Recovery").
   */
  RECOVERY_UPDATE: 4,
} as const;
export type SwitchMlMessageType = (typeof SwitchMlMessageType)[keyof typeof SwitchMlMessageType];

/** Every field but the values. */
export interface SwitchMlHeaderFields {
  messageType: SwitchMlMessageType;
  jobId: number;
  /** 0..31: this worker's bit in the slot's seen bitmap. */
  workerId: number;
  /** The packet's sequence number in the operation, echoed in the result. */
  tsi: number;
  /** Slot within the job's pool, 0..32767. */
  slot: number;
  set: ShadowSet;
  /** Number of int32 values after the header. */
  elementCount: number;
  /** int8: the exponent of the chunk that follows this one in the same slot (see docs/wire.md). */
  exponent: number;
  /** 0..255, chosen by the workers per operation; the switch echoes it. */
  epoch: number;
}

export interface SwitchMlFields extends SwitchMlHeaderFields {
  /** The values; `elementCount` of them are written from `valuesOffset`, zeros past the end. */
  values: ArrayLike<number>;
  valuesOffset?: number;
}

export interface SwitchMlPacket extends SwitchMlHeaderFields {
  /** The raw 16-bit pool index (set in the MSB). */
  poolIndex: number;
  /** The values, read in place. */
  values: Int32BeView;
  /** Header plus values. */
  byteLength: number;
}

/** Bytes a packet with `elementCount` values takes. */
export function switchMlLength(elementCount: number): number {
  return SWITCHML_HEADER_LENGTH + 4 * elementCount;
}

/** Writes the header (not the values); returns the offset where the values go. */
export function encodeSwitchMlHeader(buf: Buffer, offset: number, fields: SwitchMlHeaderFields): number {
  requireUint(fields.elementCount, 16, 'elementCount');
  requireRoom(buf, offset, switchMlLength(fields.elementCount), `a SwitchML packet of ${fields.elementCount} values`);
  requireRange(fields.messageType, SwitchMlMessageType.UPDATE, SwitchMlMessageType.RECOVERY_UPDATE, 'messageType');
  requireRange(fields.workerId, 0, SWITCHML_MAX_WORKERS - 1, 'workerId');
  requireUint(fields.jobId, 16, 'jobId');
  requireUint(fields.tsi, 32, 'tsi');
  requireInt(fields.exponent, 8, 'exponent');
  requireUint(fields.epoch, 8, 'epoch');
  buf[offset] = (SWITCHML_VERSION << 4) | fields.messageType;
  buf[offset + 1] = fields.workerId;
  buf.writeUInt16BE(fields.jobId, offset + 2);
  buf.writeUInt32BE(fields.tsi, offset + 4);
  buf.writeUInt16BE(packPoolIndex(fields.slot, fields.set), offset + 8);
  buf.writeUInt16BE(fields.elementCount, offset + 10);
  buf.writeInt8(fields.exponent, offset + 12);
  buf[offset + 13] = fields.epoch;
  return offset + SWITCHML_HEADER_LENGTH;
}

/** Writes header and values; returns the offset after them. */
export function encodeSwitchMl(buf: Buffer, offset: number, fields: SwitchMlFields): number {
  const valuesAt = encodeSwitchMlHeader(buf, offset, fields);
  new Int32BeView(buf, valuesAt, fields.elementCount).copyFrom(fields.values, fields.valuesOffset ?? 0);
  return valuesAt + 4 * fields.elementCount;
}

/**
 * Reads a packet from `offset` to `end` (default: the end of the buffer; for
 * a frame, the end of the UDP payload). The bytes must be exactly the header
 * and the values it announces.
 */
export function decodeSwitchMl(buf: Buffer, offset = 0, end = buf.length): Decoded<SwitchMlPacket> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  if (available < SWITCHML_HEADER_LENGTH) {
    return wireError(WireErrorCode.SWITCHML_TRUNCATED, offset, `a SwitchML header needs 14 bytes, there are ${available}`);
  }
  const version = buf[offset]! >>> 4;
  if (version !== SWITCHML_VERSION) {
    return wireError(WireErrorCode.SWITCHML_BAD_VERSION, offset, `SwitchML header version ${version}; this code speaks version ${SWITCHML_VERSION}`);
  }
  const messageType = buf[offset]! & 0x0f;
  if (messageType < SwitchMlMessageType.UPDATE || messageType > SwitchMlMessageType.RECOVERY_UPDATE) {
    return wireError(WireErrorCode.SWITCHML_BAD_MESSAGE_TYPE, offset, `SwitchML message type ${messageType} is not 1 (update), 2 (result), 3 (retransmitted result) or 4 (recovery update)`);
  }
  const workerId = buf[offset + 1]!;
  if (workerId >= SWITCHML_MAX_WORKERS) {
    return wireError(WireErrorCode.SWITCHML_BAD_WORKER_ID, offset + 1, `worker id ${workerId} is beyond the ${SWITCHML_MAX_WORKERS} workers a job can have`);
  }
  const elementCount = buf.readUInt16BE(offset + 10);
  const byteLength = switchMlLength(elementCount);
  if (available < byteLength) {
    return wireError(WireErrorCode.SWITCHML_TRUNCATED, offset + 10, `${elementCount} values need ${byteLength} bytes, there are ${available}`);
  }
  if (available > byteLength) {
    return wireError(WireErrorCode.SWITCHML_LENGTH_MISMATCH, offset + 10, `${elementCount} values need ${byteLength} bytes, but ${available} were received`);
  }
  const poolIndex = buf.readUInt16BE(offset + 8);
  return {
    ok: true,
    messageType: messageType as SwitchMlMessageType,
    jobId: buf.readUInt16BE(offset + 2),
    workerId,
    tsi: buf.readUInt32BE(offset + 4),
    poolIndex,
    slot: slotOfPoolIndex(poolIndex),
    set: setOfPoolIndex(poolIndex),
    elementCount,
    exponent: buf.readInt8(offset + 12),
    epoch: buf[offset + 13]!,
    values: new Int32BeView(buf, offset + SWITCHML_HEADER_LENGTH, elementCount),
    byteLength,
  };
}
