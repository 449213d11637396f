/**
 * ARP for IPv4 over Ethernet (RFC 826), the only kind p4ina's hosts and
 * switches answer: hardware type 1, protocol 0x0800, address lengths 6 and 4.
 */
import { BROADCAST_MAC, readIpv4Address, readMac, writeIpv4Address, writeMac } from './address.js';
import { ETHERTYPE_ARP, ETHERTYPE_IPV4, ethernetHeaderLength, type VlanTag, writeEthernet } from './ethernet.js';
import { requireRoom, requireSpan } from './field-check.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const ARP_PACKET_LENGTH = 28;
export const ARP_HTYPE_ETHERNET = 1;

export const ArpOperation = {
  REQUEST: 1,
  REPLY: 2,
} as const;
export type ArpOperation = (typeof ArpOperation)[keyof typeof ArpOperation];

export interface ArpPacket {
  operation: ArpOperation;
  senderMac: number;
  senderIp: number;
  /** Zero in a request: that is what is being asked. */
  targetMac: number;
  targetIp: number;
}

/** Writes the 28-byte ARP packet; returns the offset after it. */
export function writeArp(buf: Buffer, offset: number, arp: ArpPacket): number {
  requireRoom(buf, offset, ARP_PACKET_LENGTH, 'an ARP packet');
  if (arp.operation !== ArpOperation.REQUEST && arp.operation !== ArpOperation.REPLY) {
    throw new RangeError(`ARP operation must be 1 (request) or 2 (reply), not ${String(arp.operation)}`);
  }
  buf.writeUInt16BE(ARP_HTYPE_ETHERNET, offset);
  buf.writeUInt16BE(ETHERTYPE_IPV4, offset + 2);
  buf[offset + 4] = 6;
  buf[offset + 5] = 4;
  buf.writeUInt16BE(arp.operation, offset + 6);
  writeMac(buf, offset + 8, arp.senderMac);
  writeIpv4Address(buf, offset + 14, arp.senderIp);
  writeMac(buf, offset + 18, arp.targetMac);
  writeIpv4Address(buf, offset + 24, arp.targetIp);
  return offset + ARP_PACKET_LENGTH;
}

/** Reads an ARP packet at `offset` (the Ethernet payload); bytes after its 28 are padding. */
export function parseArp(buf: Buffer, offset = 0, end = buf.length): Decoded<ArpPacket> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  if (available < ARP_PACKET_LENGTH) {
    return wireError(WireErrorCode.ARP_TRUNCATED, offset, `an ARP packet needs 28 bytes, there are ${available}`);
  }
  const htype = buf.readUInt16BE(offset);
  const ptype = buf.readUInt16BE(offset + 2);
  const hlen = buf[offset + 4]!;
  const plen = buf[offset + 5]!;
  if (htype !== ARP_HTYPE_ETHERNET || ptype !== ETHERTYPE_IPV4 || hlen !== 6 || plen !== 4) {
    return wireError(
      WireErrorCode.ARP_UNSUPPORTED,
      offset,
      `ARP for hardware type ${htype}, protocol 0x${ptype.toString(16)}, lengths ${hlen}/${plen}; only Ethernet/IPv4 (1, 0x800, 6/4) is supported`,
    );
  }
  const operation = buf.readUInt16BE(offset + 6);
  if (operation !== ArpOperation.REQUEST && operation !== ArpOperation.REPLY) {
    return wireError(WireErrorCode.ARP_BAD_OPERATION, offset + 6, `ARP operation ${operation} is neither request (1) nor reply (2)`);
  }
  return {
    ok: true,
    operation,
    senderMac: readMac(buf, offset + 8),
    senderIp: readIpv4Address(buf, offset + 14),
    targetMac: readMac(buf, offset + 18),
    targetIp: readIpv4Address(buf, offset + 24),
  };
}

/** The reply that a host owning `request.targetIp` at `ownMac` sends back. */
export function arpReplyTo(request: ArpPacket, ownMac: number): ArpPacket {
  return {
    operation: ArpOperation.REPLY,
    senderMac: ownMac,
    senderIp: request.targetIp,
    targetMac: request.senderMac,
    targetIp: request.senderIp,
  };
}

/**
 * Writes a whole ARP frame: broadcast for a request, to the target for a
 * reply, from the sender's MAC. Returns the frame's length.
 */
export function buildArpFrame(buf: Buffer, offset: number, arp: ArpPacket, vlan?: VlanTag | null): number {
  requireRoom(buf, offset, ethernetHeaderLength(vlan) + ARP_PACKET_LENGTH, 'an ARP frame');
  const dstMac = arp.operation === ArpOperation.REQUEST ? BROADCAST_MAC : arp.targetMac;
  const at = writeEthernet(buf, offset, { dstMac, srcMac: arp.senderMac, etherType: ETHERTYPE_ARP, vlan: vlan ?? null });
  return writeArp(buf, at, arp) - offset;
}
