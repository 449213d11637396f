/**
 * IPv4 headers (RFC 791): options are skipped by their length (IHL), never
 * interpreted; the header checksum is written by the writer and verified by
 * the parser. DSCP and ECN are the two parts of the old TOS byte (RFC 2474,
 * RFC 3168).
 */
import { readIpv4Address, writeIpv4Address } from './address.js';
import { internetChecksum, onesComplementSum, foldSum } from './checksum.js';
import { requireRoom, requireSpan, requireUint } from './field-check.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const IPV4_MIN_HEADER_LENGTH = 20;
export const IPV4_MAX_HEADER_LENGTH = 60;
export const IP_PROTOCOL_UDP = 17;
export const DEFAULT_TTL = 64;

/** ECN codepoints (RFC 3168). */
export const Ecn = {
  NOT_ECT: 0,
  ECT1: 1,
  ECT0: 2,
  /** Congestion experienced: what a switch marks. */
  CE: 3,
} as const;

export interface Ipv4Fields {
  srcIp: number;
  dstIp: number;
  protocol: number;
  /** Bytes after the header; the total length is the header's plus this. */
  payloadLength: number;
  /** Default 64. */
  ttl?: number;
  /** Differentiated services codepoint, 0..63; default 0. */
  dscp?: number;
  /** ECN codepoint, 0..3; default 0 (not ECN-capable). */
  ecn?: number;
  /** Default 0: with DF set and no fragments it identifies nothing (RFC 6864). */
  identification?: number;
  /** Default true: p4ina never fragments. */
  dontFragment?: boolean;
  /** Default false. */
  moreFragments?: boolean;
  /** In units of 8 bytes, 0..8191; default 0. */
  fragmentOffset?: number;
  /** Raw option bytes, a multiple of 4 and at most 40; default none. */
  options?: Uint8Array | null;
}

export interface Ipv4Header {
  dscp: number;
  ecn: number;
  totalLength: number;
  identification: number;
  dontFragment: boolean;
  moreFragments: boolean;
  /** In units of 8 bytes, as on the wire. */
  fragmentOffset: number;
  ttl: number;
  protocol: number;
  /** The checksum field as received. */
  checksum: number;
  srcIp: number;
  dstIp: number;
  /** IHL × 4: 20 plus the options. */
  headerLength: number;
  payloadOffset: number;
  /** Total length minus header length (trailing Ethernet padding is not part of it). */
  payloadLength: number;
}

export interface Ipv4ParseOptions {
  /** Default true. False lets a caller look at a packet whose checksum is wrong (as v1model's parser does). */
  verifyChecksum?: boolean;
}

/** Writes the header with its checksum; returns the offset of the payload. */
export function writeIpv4(buf: Buffer, offset: number, fields: Ipv4Fields): number {
  const optionsLength = fields.options?.length ?? 0;
  if (optionsLength % 4 !== 0 || optionsLength > IPV4_MAX_HEADER_LENGTH - IPV4_MIN_HEADER_LENGTH) {
    throw new RangeError(`IPv4 options must be a multiple of 4 bytes and at most 40, not ${optionsLength}`);
  }
  const headerLength = IPV4_MIN_HEADER_LENGTH + optionsLength;
  requireRoom(buf, offset, headerLength, 'an IPv4 header');
  const ttl = fields.ttl ?? DEFAULT_TTL;
  const dscp = fields.dscp ?? 0;
  const ecn = fields.ecn ?? 0;
  const identification = fields.identification ?? 0;
  const fragmentOffset = fields.fragmentOffset ?? 0;
  const totalLength = headerLength + fields.payloadLength;
  requireUint(ttl, 8, 'ttl');
  requireUint(dscp, 6, 'dscp');
  requireUint(ecn, 2, 'ecn');
  requireUint(identification, 16, 'identification');
  requireUint(fragmentOffset, 13, 'fragmentOffset');
  requireUint(fields.protocol, 8, 'protocol');
  requireUint(fields.payloadLength, 16, 'payloadLength');
  requireUint(totalLength, 16, 'the total length (header + payload)');
  const flags = ((fields.dontFragment ?? true) ? 0x4000 : 0) | (fields.moreFragments ? 0x2000 : 0);
  buf[offset] = 0x40 | (headerLength >>> 2);
  buf[offset + 1] = (dscp << 2) | ecn;
  buf.writeUInt16BE(totalLength, offset + 2);
  buf.writeUInt16BE(identification, offset + 4);
  buf.writeUInt16BE(flags | fragmentOffset, offset + 6);
  buf[offset + 8] = ttl;
  buf[offset + 9] = fields.protocol;
  buf[offset + 10] = 0;
  buf[offset + 11] = 0;
  writeIpv4Address(buf, offset + 12, fields.srcIp);
  writeIpv4Address(buf, offset + 16, fields.dstIp);
  if (fields.options && optionsLength > 0) buf.set(fields.options, offset + IPV4_MIN_HEADER_LENGTH);
  buf.writeUInt16BE(internetChecksum(buf, offset, headerLength), offset + 10);
  return offset + headerLength;
}

/** True when the header at `offset` (IHL × 4 bytes, present in `buf`) sums to 0xffff. */
export function ipv4ChecksumValid(buf: Uint8Array, offset: number, headerLength: number): boolean {
  return foldSum(onesComplementSum(buf, offset, headerLength)) === 0xffff;
}

/**
 * Reads the header at `offset`. `end` bounds the packet (the end of the
 * Ethernet frame): bytes between the total length and `end` are padding.
 */
export function parseIpv4(buf: Buffer, offset = 0, end = buf.length, options?: Ipv4ParseOptions): Decoded<Ipv4Header> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  if (available < IPV4_MIN_HEADER_LENGTH) {
    return wireError(WireErrorCode.IPV4_TRUNCATED, offset, `an IPv4 header needs at least 20 bytes, there are ${available}`);
  }
  const versionIhl = buf[offset]!;
  const version = versionIhl >>> 4;
  if (version !== 4) {
    return wireError(WireErrorCode.IPV4_BAD_VERSION, offset, `IP version ${version}, expected 4`);
  }
  const headerLength = (versionIhl & 0x0f) * 4;
  if (headerLength < IPV4_MIN_HEADER_LENGTH) {
    return wireError(WireErrorCode.IPV4_BAD_IHL, offset, `IHL ${headerLength / 4} is below the minimum of 5 (20 bytes)`);
  }
  if (available < headerLength) {
    return wireError(WireErrorCode.IPV4_TRUNCATED, offset, `IHL says the header has ${headerLength} bytes, there are ${available}`);
  }
  const totalLength = buf.readUInt16BE(offset + 2);
  if (totalLength < headerLength || totalLength > available) {
    return wireError(
      WireErrorCode.IPV4_BAD_TOTAL_LENGTH,
      offset + 2,
      `total length ${totalLength} must be at least the header's ${headerLength} and at most the ${available} bytes received`,
    );
  }
  if ((options?.verifyChecksum ?? true) && !ipv4ChecksumValid(buf, offset, headerLength)) {
    return wireError(WireErrorCode.IPV4_BAD_CHECKSUM, offset + 10, `header checksum 0x${buf.readUInt16BE(offset + 10).toString(16)} does not verify`);
  }
  const tos = buf[offset + 1]!;
  const flagsFragment = buf.readUInt16BE(offset + 6);
  return {
    ok: true,
    dscp: tos >>> 2,
    ecn: tos & 0x03,
    totalLength,
    identification: buf.readUInt16BE(offset + 4),
    dontFragment: (flagsFragment & 0x4000) !== 0,
    moreFragments: (flagsFragment & 0x2000) !== 0,
    fragmentOffset: flagsFragment & 0x1fff,
    ttl: buf[offset + 8]!,
    protocol: buf[offset + 9]!,
    checksum: buf.readUInt16BE(offset + 10),
    srcIp: readIpv4Address(buf, offset + 12),
    dstIp: readIpv4Address(buf, offset + 16),
    headerLength,
    payloadOffset: offset + headerLength,
    payloadLength: totalLength - headerLength,
  };
}
