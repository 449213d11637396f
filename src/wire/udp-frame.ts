/**
 * Whole Ethernet/IPv4/UDP frames, as p4ina's agents put them on a UDP wire in
 * loopback mode (design §3) and as tests feed them to the switch. Building
 * writes into the caller's buffer and allocates nothing, so one buffer per
 * sender serves every packet; parsing checks every layer and both checksums.
 */
import {
  ETHERTYPE_IPV4,
  type EthernetHeader,
  ethernetHeaderLength,
  parseEthernet,
  type VlanTag,
  writeEthernet,
} from './ethernet.js';
import { requireRoom, requireSpan } from './field-check.js';
import { IP_PROTOCOL_UDP, IPV4_MIN_HEADER_LENGTH, type Ipv4Header, parseIpv4, writeIpv4 } from './ipv4.js';
import { parseUdp, UDP_HEADER_LENGTH, udpChecksumValid, type UdpHeader, writeUdp, writeUdpChecksum } from './udp.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

/** Everything that stays the same from one packet of a flow to the next. */
export interface UdpFlow {
  srcMac: number;
  dstMac: number;
  vlan?: VlanTag | null;
  srcIp: number;
  dstIp: number;
  srcPort: number;
  dstPort: number;
  /** Default 64. */
  ttl?: number;
  /** Default 0. */
  dscp?: number;
  /** Default 0 (not ECN-capable). */
  ecn?: number;
  /** Default 0. */
  identification?: number;
  /** Default true; false sends checksum 0 ("none"), which saves a pass over the payload. */
  udpChecksum?: boolean;
}

/**
 * Writes the UDP payload at `offset`, with at most `room` bytes available, and
 * returns how many bytes it wrote.
 */
export type PayloadWriter = (buf: Buffer, offset: number, room: number) => number;

/** Bytes of Ethernet, IPv4 (no options) and UDP headers in front of the payload. */
export function udpFrameOverhead(vlan?: VlanTag | null): number {
  return ethernetHeaderLength(vlan) + IPV4_MIN_HEADER_LENGTH + UDP_HEADER_LENGTH;
}

/** The largest UDP payload an IPv4 datagram can carry. */
export const MAX_UDP_PAYLOAD = 0xffff - IPV4_MIN_HEADER_LENGTH - UDP_HEADER_LENGTH;

/**
 * Writes a whole frame at `offset`: Ethernet, IPv4 (checksummed, DF set), UDP
 * (checksummed unless the flow says not to) and the payload, either given as
 * bytes or written in place by `payload`. Returns the frame's length.
 */
export function buildUdpFrame(buf: Buffer, offset: number, flow: UdpFlow, payload: PayloadWriter | Uint8Array): number {
  const vlan = flow.vlan ?? null;
  const overhead = udpFrameOverhead(vlan);
  requireRoom(buf, offset, overhead, 'an Ethernet/IPv4/UDP frame');
  const ipOffset = writeEthernet(buf, offset, { dstMac: flow.dstMac, srcMac: flow.srcMac, etherType: ETHERTYPE_IPV4, vlan });
  const udpOffset = ipOffset + IPV4_MIN_HEADER_LENGTH;
  const payloadOffset = udpOffset + UDP_HEADER_LENGTH;
  const room = Math.min(buf.length - payloadOffset, MAX_UDP_PAYLOAD);
  let payloadLength: number;
  if (typeof payload === 'function') {
    payloadLength = payload(buf, payloadOffset, room);
    if (!Number.isInteger(payloadLength) || payloadLength < 0 || payloadLength > room) {
      throw new RangeError(`the payload writer returned ${payloadLength}; it must be a byte count in 0..${room}`);
    }
  } else {
    payloadLength = payload.length;
    if (payloadLength > room) throw new RangeError(`a payload of ${payloadLength} bytes does not fit: there is room for ${room}`);
    buf.set(payload, payloadOffset);
  }
  writeUdp(buf, udpOffset, { srcPort: flow.srcPort, dstPort: flow.dstPort, payloadLength });
  writeIpv4(buf, ipOffset, {
    srcIp: flow.srcIp,
    dstIp: flow.dstIp,
    protocol: IP_PROTOCOL_UDP,
    payloadLength: UDP_HEADER_LENGTH + payloadLength,
    ttl: flow.ttl,
    dscp: flow.dscp,
    ecn: flow.ecn,
    identification: flow.identification,
  });
  if (flow.udpChecksum ?? true) writeUdpChecksum(buf, udpOffset, flow.srcIp, flow.dstIp);
  return payloadOffset + payloadLength - offset;
}

/** A decoded Ethernet/IPv4/UDP frame; the payload stays in the buffer. */
export interface UdpFrame {
  ethernet: EthernetHeader;
  ipv4: Ipv4Header;
  udp: UdpHeader;
  payloadOffset: number;
  payloadLength: number;
}

export interface UdpFrameParseOptions {
  /** Default true: verify the IPv4 header checksum and a non-zero UDP checksum. */
  verifyChecksums?: boolean;
}

/**
 * Reads a frame from `offset` to `end` (default: the whole buffer). It must
 * be Ethernet II (optionally tagged), IPv4 unfragmented, UDP whose length is
 * exactly the IPv4 payload's; bytes after the IPv4 total length are padding.
 */
export function parseUdpFrame(buf: Buffer, offset = 0, end = buf.length, options?: UdpFrameParseOptions): Decoded<UdpFrame> {
  requireSpan(buf, offset, end);
  const verify = options?.verifyChecksums ?? true;
  const ethernet = parseEthernet(buf, offset, end);
  if (!ethernet.ok) return ethernet;
  if (ethernet.etherType !== ETHERTYPE_IPV4) {
    return wireError(WireErrorCode.FRAME_NOT_IPV4, ethernet.payloadOffset - 2, `ethertype 0x${ethernet.etherType.toString(16)} is not IPv4 (0x800)`);
  }
  const ipv4 = parseIpv4(buf, ethernet.payloadOffset, end, { verifyChecksum: verify });
  if (!ipv4.ok) return ipv4;
  if (ipv4.moreFragments || ipv4.fragmentOffset !== 0) {
    return wireError(WireErrorCode.IPV4_FRAGMENT, ethernet.payloadOffset + 6, `a fragment (offset ${ipv4.fragmentOffset * 8}, more fragments: ${ipv4.moreFragments}); p4ina does not reassemble`);
  }
  if (ipv4.protocol !== IP_PROTOCOL_UDP) {
    return wireError(WireErrorCode.FRAME_NOT_UDP, ethernet.payloadOffset + 9, `IP protocol ${ipv4.protocol} is not UDP (17)`);
  }
  const ipEnd = ipv4.payloadOffset + ipv4.payloadLength;
  const udp = parseUdp(buf, ipv4.payloadOffset, ipEnd);
  if (!udp.ok) return udp;
  if (udp.length !== ipv4.payloadLength) {
    return wireError(WireErrorCode.UDP_BAD_LENGTH, ipv4.payloadOffset + 4, `UDP length ${udp.length} differs from the IPv4 payload length ${ipv4.payloadLength}`);
  }
  if (verify && !udpChecksumValid(buf, ipv4.payloadOffset, udp.length, ipv4.srcIp, ipv4.dstIp)) {
    return wireError(WireErrorCode.UDP_BAD_CHECKSUM, ipv4.payloadOffset + 6, `UDP checksum 0x${udp.checksum.toString(16)} does not verify`);
  }
  return { ok: true, ethernet, ipv4, udp, payloadOffset: udp.payloadOffset, payloadLength: udp.payloadLength };
}
