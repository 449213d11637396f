/**
 * What a raw IPv4 socket hands over for one UDP datagram (the IPv4 header,
 * the UDP header and the payload), sorted for the CE observer: is it a whole
 * datagram for this agent's address and port, and with which ECN codepoint.
 * The work is bounded (a few header fields, no pass over the payload) and
 * nothing is allocated: the result goes into the caller's `UdpCopy`.
 *
 * Checksums are not verified: the kernel has checked the IPv4 header before
 * any raw socket sees the packet, and a datagram whose UDP checksum is wrong
 * is one the agent never receives, so a mark on it marks nothing the agent
 * knows (its payload is still parsed by the agent like any other).
 */
import { readIpv4Address } from '../../wire/index.js';

export const UdpCopyVerdict = {
  /** A whole UDP datagram to this agent's address and port: `UdpCopy` holds its ECN and payload. */
  forUs: 0,
  /** Not for this agent: another port or address, another protocol, not IPv4 (IPv6 too). */
  other: 1,
  /** A fragment (the kernel delivers reassembled datagrams; a fragment here has no whole payload). */
  fragment: 2,
  /** Too short, or lengths that contradict each other. */
  malformed: 3,
} as const;

export type UdpCopyVerdict = (typeof UdpCopyVerdict)[keyof typeof UdpCopyVerdict];

/** Where the datagram's payload is, and its ECN codepoint (3: CE), when the verdict is `forUs`. */
export interface UdpCopy {
  ecn: number;
  payloadOffset: number;
  payloadLength: number;
}

/** Whose datagrams to keep: an IPv4 address as a 32-bit number (0: any address of the host) and a UDP port. */
export interface UdpCopyFilter {
  readonly ip: number;
  readonly port: number;
}

const IPV4_MIN_HEADER = 20;
const UDP_HEADER = 8;
const PROTOCOL_UDP = 17;
const MORE_FRAGMENTS_AND_OFFSET = 0x3fff;

/** Sorts the packet in `buf[0 .. length)`; for `forUs`, fills `into`. */
export function classifyUdpCopy(buf: Buffer, length: number, filter: UdpCopyFilter, into: UdpCopy): UdpCopyVerdict {
  if (length > buf.length) throw new RangeError(`the packet's length ${length} is past the end of its ${buf.length}-byte buffer`);
  if (length < 1) return UdpCopyVerdict.malformed;
  if (buf[0]! >>> 4 !== 4) return UdpCopyVerdict.other;
  const headerLength = (buf[0]! & 0x0f) * 4;
  if (headerLength < IPV4_MIN_HEADER || length < headerLength) return UdpCopyVerdict.malformed;
  const totalLength = buf.readUInt16BE(2);
  if (totalLength < headerLength || totalLength > length) return UdpCopyVerdict.malformed;
  if (buf[9] !== PROTOCOL_UDP) return UdpCopyVerdict.other;
  if (filter.ip !== 0 && readIpv4Address(buf, 16) !== filter.ip) return UdpCopyVerdict.other;
  if ((buf.readUInt16BE(6) & MORE_FRAGMENTS_AND_OFFSET) !== 0) return UdpCopyVerdict.fragment;
  if (totalLength < headerLength + UDP_HEADER) return UdpCopyVerdict.malformed;
  if (buf.readUInt16BE(headerLength + 2) !== filter.port) return UdpCopyVerdict.other;
  const udpLength = buf.readUInt16BE(headerLength + 4);
  if (udpLength < UDP_HEADER || udpLength > totalLength - headerLength) return UdpCopyVerdict.malformed;
  into.ecn = buf[1]! & 0x03;
  into.payloadOffset = headerLength + UDP_HEADER;
  into.payloadLength = udpLength - UDP_HEADER;
  return UdpCopyVerdict.forUs;
}
