/**
 * OmniReduce's UDP message as its DPDK code lays it out (daiet `msgs.h`,
 * built with scaling): a 10-byte header, a block of int32 values whose count
 * the job fixes, and a 16-bit exponent after the values. Meaning of each
 * field: docs/wire.md, "OmniReduce".
 *
 *   0..3  tsi      4..5  pool_index (set:1 slot:15)      6..9  next_tsi
 *   10..  elementCount big-endian int32 values          then  exponent (int16)
 */
import { requireInt, requireRoom, requireSpan, requireUint } from './field-check.js';
import { Int32BeView } from './int32-view.js';
import { packPoolIndex, setOfPoolIndex, type ShadowSet, slotOfPoolIndex } from './pool-index.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const OMNIREDUCE_HEADER_LENGTH = 10;
export const OMNIREDUCE_EXPONENT_LENGTH = 2;
/** next_tsi of a worker that has no non-zero block left ("infinity"). */
export const NEXT_TSI_NONE = 0xffff_ffff;

export interface OmniReduceHeaderFields {
  /** Tensor start index: the element offset of this block in the tensor. */
  tsi: number;
  /** Aggregator slot, 0..32767. */
  slot: number;
  set: ShadowSet;
  /** From a worker: its next non-zero block's tsi in this slot's stream; from the aggregator: the minimum over workers. */
  nextTsi: number;
  /** int16: from a worker, the exponent of its next block; from the aggregator, the maximum for the next block. */
  exponent: number;
  /** Number of int32 values (the block size). */
  elementCount: number;
}

export interface OmniReduceFields extends OmniReduceHeaderFields {
  /** `elementCount` values are written from `valuesOffset`, zeros past the end. */
  values: ArrayLike<number>;
  valuesOffset?: number;
}

export interface OmniReducePacket extends OmniReduceHeaderFields {
  poolIndex: number;
  values: Int32BeView;
  byteLength: number;
}

export function omniReduceLength(elementCount: number): number {
  return OMNIREDUCE_HEADER_LENGTH + 4 * elementCount + OMNIREDUCE_EXPONENT_LENGTH;
}

/**
 * Writes everything but the values: the header, and the exponent after the
 * space for them. Returns the offset where the values go.
 */
export function encodeOmniReduceHeader(buf: Buffer, offset: number, fields: OmniReduceHeaderFields): number {
  requireUint(fields.elementCount, 16, 'elementCount');
  requireRoom(buf, offset, omniReduceLength(fields.elementCount), `an OmniReduce packet of ${fields.elementCount} values`);
  requireUint(fields.tsi, 32, 'tsi');
  requireUint(fields.nextTsi, 32, 'nextTsi');
  requireInt(fields.exponent, 16, 'exponent');
  buf.writeUInt32BE(fields.tsi, offset);
  buf.writeUInt16BE(packPoolIndex(fields.slot, fields.set), offset + 4);
  buf.writeUInt32BE(fields.nextTsi, offset + 6);
  buf.writeInt16BE(fields.exponent, offset + OMNIREDUCE_HEADER_LENGTH + 4 * fields.elementCount);
  return offset + OMNIREDUCE_HEADER_LENGTH;
}

/** Writes header, values and exponent; returns the offset after them. */
export function encodeOmniReduce(buf: Buffer, offset: number, fields: OmniReduceFields): number {
  const valuesAt = encodeOmniReduceHeader(buf, offset, fields);
  new Int32BeView(buf, valuesAt, fields.elementCount).copyFrom(fields.values, fields.valuesOffset ?? 0);
  return offset + omniReduceLength(fields.elementCount);
}

/** Reads a packet from `offset` to `end`: header, (end − offset − 12) / 4 values, exponent. */
export function decodeOmniReduce(buf: Buffer, offset = 0, end = buf.length): Decoded<OmniReducePacket> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  const framing = OMNIREDUCE_HEADER_LENGTH + OMNIREDUCE_EXPONENT_LENGTH;
  if (available < framing) {
    return wireError(WireErrorCode.OMNIREDUCE_TRUNCATED, offset, `an OmniReduce header and exponent need 12 bytes, there are ${available}`);
  }
  const valueBytes = available - framing;
  if (valueBytes % 4 !== 0) {
    return wireError(
      WireErrorCode.OMNIREDUCE_LENGTH_MISMATCH,
      offset + OMNIREDUCE_HEADER_LENGTH,
      `${valueBytes} bytes between the OmniReduce header and exponent are not a whole number of int32 values`,
    );
  }
  const elementCount = valueBytes / 4;
  const poolIndex = buf.readUInt16BE(offset + 4);
  return {
    ok: true,
    tsi: buf.readUInt32BE(offset),
    poolIndex,
    slot: slotOfPoolIndex(poolIndex),
    set: setOfPoolIndex(poolIndex),
    nextTsi: buf.readUInt32BE(offset + 6),
    exponent: buf.readInt16BE(end - OMNIREDUCE_EXPONENT_LENGTH),
    elementCount,
    values: new Int32BeView(buf, offset + OMNIREDUCE_HEADER_LENGTH, elementCount),
    byteLength: available,
  };
}
