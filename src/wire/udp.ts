/**
 * UDP headers (RFC 768). The checksum covers an IPv4 pseudo-header (source,
 * destination, protocol, UDP length), the UDP header and the payload; a
 * checksum field of 0 means "none", so a computed 0 is sent as 0xffff.
 */
import { foldSum, onesComplementSum, pseudoHeaderSum } from './checksum.js';
import { requireRoom, requireSpan, requireUint } from './field-check.js';
import { IP_PROTOCOL_UDP } from './ipv4.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const UDP_HEADER_LENGTH = 8;

export interface UdpFields {
  srcPort: number;
  dstPort: number;
  /** Bytes after the UDP header. */
  payloadLength: number;
}

export interface UdpHeader {
  srcPort: number;
  dstPort: number;
  /** The length field: header plus payload. */
  length: number;
  /** The checksum field as received (0: none). */
  checksum: number;
  payloadOffset: number;
  payloadLength: number;
}

/**
 * Writes the header with a zero checksum; returns the offset of the payload.
 * Call `writeUdpChecksum` once the payload is in place to fill the checksum.
 */
export function writeUdp(buf: Buffer, offset: number, fields: UdpFields): number {
  requireRoom(buf, offset, UDP_HEADER_LENGTH, 'a UDP header');
  requireUint(fields.srcPort, 16, 'srcPort');
  requireUint(fields.dstPort, 16, 'dstPort');
  const length = UDP_HEADER_LENGTH + fields.payloadLength;
  requireUint(length, 16, 'the UDP length (header + payload)');
  buf.writeUInt16BE(fields.srcPort, offset);
  buf.writeUInt16BE(fields.dstPort, offset + 2);
  buf.writeUInt16BE(length, offset + 4);
  buf.writeUInt16BE(0, offset + 6);
  return offset + UDP_HEADER_LENGTH;
}

/** The checksum of the datagram at `offset` whose length field is already written. */
export function udpChecksum(buf: Uint8Array, offset: number, srcIp: number, dstIp: number): number {
  const length = (buf[offset + 4]! << 8) | buf[offset + 5]!;
  const sum = onesComplementSum(buf, offset, length, pseudoHeaderSum(srcIp, dstIp, IP_PROTOCOL_UDP, length));
  // Only bytes 6..7 (the checksum field itself) must count as zero.
  const withoutField = sum - ((buf[offset + 6]! << 8) | buf[offset + 7]!);
  const checksum = ~foldSum(withoutField) & 0xffff;
  return checksum === 0 ? 0xffff : checksum;
}

/** Computes and writes the checksum of the datagram at `offset` (header and payload in place). */
export function writeUdpChecksum(buf: Buffer, offset: number, srcIp: number, dstIp: number): void {
  requireRoom(buf, offset, UDP_HEADER_LENGTH, 'a UDP header');
  const length = buf.readUInt16BE(offset + 4);
  requireRoom(buf, offset, length, 'the UDP datagram');
  buf.writeUInt16BE(udpChecksum(buf, offset, srcIp, dstIp), offset + 6);
}

/** True when the checksum field is 0 (none) or verifies against the pseudo-header. */
export function udpChecksumValid(buf: Uint8Array, offset: number, length: number, srcIp: number, dstIp: number): boolean {
  const field = (buf[offset + 6]! << 8) | buf[offset + 7]!;
  if (field === 0) return true;
  return foldSum(onesComplementSum(buf, offset, length, pseudoHeaderSum(srcIp, dstIp, IP_PROTOCOL_UDP, length))) === 0xffff;
}

/**
 * Reads the header at `offset`; `end` bounds the datagram (the end of the IP
 * payload). The checksum needs the IP addresses: see `udpChecksumValid`, or
 * `parseUdpFrame`, which checks it.
 */
export function parseUdp(buf: Buffer, offset = 0, end = buf.length): Decoded<UdpHeader> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  if (available < UDP_HEADER_LENGTH) {
    return wireError(WireErrorCode.UDP_TRUNCATED, offset, `a UDP header needs 8 bytes, there are ${available}`);
  }
  const length = buf.readUInt16BE(offset + 4);
  if (length < UDP_HEADER_LENGTH || length > available) {
    return wireError(WireErrorCode.UDP_BAD_LENGTH, offset + 4, `UDP length ${length} must be at least 8 and at most the ${available} bytes received`);
  }
  return {
    ok: true,
    srcPort: buf.readUInt16BE(offset),
    dstPort: buf.readUInt16BE(offset + 2),
    length,
    checksum: buf.readUInt16BE(offset + 6),
    payloadOffset: offset + UDP_HEADER_LENGTH,
    payloadLength: length - UDP_HEADER_LENGTH,
  };
}
