/**
 * ATP's 16-byte header as the NSDI'21 paper draws it, carried over UDP, then
 * int32 values whose count the job fixes (the header does not carry it: it is
 * the UDP payload's length minus 16, over 4). Deviations from ATP's released
 * code: docs/wire.md, "ATP".
 *
 *   0..3   bitmap0                  4..7   bitmap1
 *   8..9   fanInDegree0:5 fanInDegree1:5 overflow:1 resend:1 collision:1
 *          ecn:1 edgeSwitchIdentifier:1 isAck:1
 *   10..11 aggregatorIndex          12..15 jobId:16 sequenceNumber:16
 */
import { requireRange, requireRoom, requireSpan, requireUint } from './field-check.js';
import { Int32BeView } from './int32-view.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const ATP_HEADER_LENGTH = 16;
/** The widest fan-in the 5-bit fields can state. */
export const ATP_MAX_FAN_IN = 31;

export interface AtpHeaderFields {
  /** The contributing workers at the first-level (worker-rack) switch, one bit each. */
  bitmap0: number;
  /** The contributing first-level switches at the second level. */
  bitmap1: number;
  /** Contributions the first-level aggregator waits for, 0..31. */
  fanInDegree0: number;
  /** Contributions the second-level aggregator waits for, 0..31. */
  fanInDegree1: number;
  /** The values are raw float32 (too large to scale), for the parameter server. */
  overflow: boolean;
  /** A retransmission: the switch flushes the aggregator to the parameter server. */
  resend: boolean;
  /** The aggregator was held by another (job, sequence): this packet went on to the parameter server. */
  collision: boolean;
  /** Congestion was seen on the way (the switch ORs it into the aggregate). */
  ecn: boolean;
  /** Which level is aggregating the packet: 0 first, 1 second. */
  edgeSwitchIdentifier: 0 | 1;
  /** A result (the parameter server's acknowledgement), not a contribution. */
  isAck: boolean;
  /** The aggregator (register index) the packet asks for. */
  aggregatorIndex: number;
  /** High half of the owner tag jobIdAndSequenceNumber. */
  jobId: number;
  /** Low half of the owner tag. */
  sequenceNumber: number;
  /** Number of int32 values after the header. */
  elementCount: number;
}

export interface AtpFields extends AtpHeaderFields {
  /** `elementCount` values are written from `valuesOffset`, zeros past the end. */
  values: ArrayLike<number>;
  valuesOffset?: number;
}

export interface AtpPacket extends AtpHeaderFields {
  /** The 32-bit owner tag as the switch compares it: jobId << 16 | sequenceNumber. */
  jobIdAndSequenceNumber: number;
  values: Int32BeView;
  byteLength: number;
}

const FLAG_OVERFLOW = 0x20;
const FLAG_RESEND = 0x10;
const FLAG_COLLISION = 0x08;
const FLAG_ECN = 0x04;
const FLAG_EDGE_SWITCH = 0x02;
const FLAG_ACK = 0x01;

/** Writes the header (not the values); returns the offset where the values go. */
export function encodeAtpHeader(buf: Buffer, offset: number, fields: AtpHeaderFields): number {
  requireUint(fields.elementCount, 16, 'elementCount');
  requireRoom(buf, offset, ATP_HEADER_LENGTH + 4 * fields.elementCount, `an ATP packet of ${fields.elementCount} values`);
  requireUint(fields.bitmap0, 32, 'bitmap0');
  requireUint(fields.bitmap1, 32, 'bitmap1');
  requireUint(fields.fanInDegree0, 5, 'fanInDegree0');
  requireUint(fields.fanInDegree1, 5, 'fanInDegree1');
  requireRange(fields.edgeSwitchIdentifier, 0, 1, 'edgeSwitchIdentifier');
  requireUint(fields.aggregatorIndex, 16, 'aggregatorIndex');
  requireUint(fields.jobId, 16, 'jobId');
  requireUint(fields.sequenceNumber, 16, 'sequenceNumber');
  const flags =
    (fields.overflow ? FLAG_OVERFLOW : 0) |
    (fields.resend ? FLAG_RESEND : 0) |
    (fields.collision ? FLAG_COLLISION : 0) |
    (fields.ecn ? FLAG_ECN : 0) |
    (fields.edgeSwitchIdentifier ? FLAG_EDGE_SWITCH : 0) |
    (fields.isAck ? FLAG_ACK : 0);
  buf.writeUInt32BE(fields.bitmap0, offset);
  buf.writeUInt32BE(fields.bitmap1, offset + 4);
  buf.writeUInt16BE((fields.fanInDegree0 << 11) | (fields.fanInDegree1 << 6) | flags, offset + 8);
  buf.writeUInt16BE(fields.aggregatorIndex, offset + 10);
  buf.writeUInt16BE(fields.jobId, offset + 12);
  buf.writeUInt16BE(fields.sequenceNumber, offset + 14);
  return offset + ATP_HEADER_LENGTH;
}

/** Writes header and values; returns the offset after them. */
export function encodeAtp(buf: Buffer, offset: number, fields: AtpFields): number {
  const valuesAt = encodeAtpHeader(buf, offset, fields);
  new Int32BeView(buf, valuesAt, fields.elementCount).copyFrom(fields.values, fields.valuesOffset ?? 0);
  return valuesAt + 4 * fields.elementCount;
}

/** Reads a packet from `offset` to `end`: the header, then (end − offset − 16) / 4 values. */
export function decodeAtp(buf: Buffer, offset = 0, end = buf.length): Decoded<AtpPacket> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  if (available < ATP_HEADER_LENGTH) {
    return wireError(WireErrorCode.ATP_TRUNCATED, offset, `an ATP header needs 16 bytes, there are ${available}`);
  }
  const valueBytes = available - ATP_HEADER_LENGTH;
  if (valueBytes % 4 !== 0) {
    return wireError(WireErrorCode.ATP_LENGTH_MISMATCH, offset + ATP_HEADER_LENGTH, `${valueBytes} bytes after the ATP header are not a whole number of int32 values`);
  }
  const word = buf.readUInt16BE(offset + 8);
  const jobId = buf.readUInt16BE(offset + 12);
  const sequenceNumber = buf.readUInt16BE(offset + 14);
  const elementCount = valueBytes / 4;
  return {
    ok: true,
    bitmap0: buf.readUInt32BE(offset),
    bitmap1: buf.readUInt32BE(offset + 4),
    fanInDegree0: word >>> 11,
    fanInDegree1: (word >>> 6) & 0x1f,
    overflow: (word & FLAG_OVERFLOW) !== 0,
    resend: (word & FLAG_RESEND) !== 0,
    collision: (word & FLAG_COLLISION) !== 0,
    ecn: (word & FLAG_ECN) !== 0,
    edgeSwitchIdentifier: (word & FLAG_EDGE_SWITCH) !== 0 ? 1 : 0,
    isAck: (word & FLAG_ACK) !== 0,
    aggregatorIndex: buf.readUInt16BE(offset + 10),
    jobId,
    sequenceNumber,
    jobIdAndSequenceNumber: buf.readUInt32BE(offset + 12),
    elementCount,
    values: new Int32BeView(buf, offset + ATP_HEADER_LENGTH, elementCount),
    byteLength: available,
  };
}
