/**
 * Ethernet II frames, with at most one IEEE 802.1Q VLAN tag. The frame check
 * sequence is not included (Linux hands frames to user space without it, and
 * a UDP wire carries one frame per datagram without it), and short frames are
 * not padded to 60 bytes: receivers must accept trailing padding, senders
 * need not add it.
 */
import { readMac, writeMac } from './address.js';
import { requireRange, requireRoom, requireSpan, requireUint } from './field-check.js';
import { type Decoded, wireError, WireErrorCode } from './wire-error.js';

export const ETHERTYPE_IPV4 = 0x0800;
export const ETHERTYPE_ARP = 0x0806;
/** The tag protocol identifier of an 802.1Q VLAN tag. */
export const ETHERTYPE_VLAN = 0x8100;

export const ETHERNET_HEADER_LENGTH = 14;
export const VLAN_TAG_LENGTH = 4;

/** An 802.1Q tag's control information. */
export interface VlanTag {
  /** Priority code point, 0..7. */
  pcp: number;
  /** Drop eligible indicator. */
  dei: boolean;
  /** VLAN id, 0..4095. */
  vid: number;
}

/** What the writer needs. */
export interface EthernetFields {
  dstMac: number;
  srcMac: number;
  /** The type of the payload (after the tag, when there is one). */
  etherType: number;
  vlan?: VlanTag | null;
}

/** A decoded Ethernet header. */
export interface EthernetHeader {
  dstMac: number;
  srcMac: number;
  /** The type of the payload: for a tagged frame, the type after the tag. */
  etherType: number;
  vlan: VlanTag | null;
  /** 14, or 18 with a VLAN tag. */
  headerLength: number;
  /** Where the payload starts in the buffer. */
  payloadOffset: number;
}

/** Bytes the header takes: 14, or 18 with a tag. */
export function ethernetHeaderLength(vlan: VlanTag | null | undefined): number {
  return vlan ? ETHERNET_HEADER_LENGTH + VLAN_TAG_LENGTH : ETHERNET_HEADER_LENGTH;
}

/** Writes the header; returns the offset of the payload. */
export function writeEthernet(buf: Buffer, offset: number, fields: EthernetFields): number {
  const vlan = fields.vlan ?? null;
  requireRoom(buf, offset, ethernetHeaderLength(vlan), 'an Ethernet header');
  requireRange(fields.etherType, 0x0600, 0xffff, 'etherType');
  writeMac(buf, offset, fields.dstMac);
  writeMac(buf, offset + 6, fields.srcMac);
  let at = offset + 12;
  if (vlan) {
    requireUint(vlan.pcp, 3, 'vlan.pcp');
    requireUint(vlan.vid, 12, 'vlan.vid');
    buf.writeUInt16BE(ETHERTYPE_VLAN, at);
    buf.writeUInt16BE((vlan.pcp << 13) | (vlan.dei ? 0x1000 : 0) | vlan.vid, at + 2);
    at += 4;
  }
  buf.writeUInt16BE(fields.etherType, at);
  return at + 2;
}

/**
 * Reads the header at `offset`; `end` bounds the frame. A second 802.1Q tag (Q-in-Q) is not looked
 * into: its 0x8100 is reported as the payload's type.
 */
export function parseEthernet(buf: Buffer, offset = 0, end = buf.length): Decoded<EthernetHeader> {
  requireSpan(buf, offset, end);
  const available = end - offset;
  if (available < ETHERNET_HEADER_LENGTH) {
    return wireError(WireErrorCode.ETH_TRUNCATED, offset, `an Ethernet header needs 14 bytes, the frame has ${available}`);
  }
  const dstMac = readMac(buf, offset);
  const srcMac = readMac(buf, offset + 6);
  let type = buf.readUInt16BE(offset + 12);
  let vlan: VlanTag | null = null;
  let headerLength = ETHERNET_HEADER_LENGTH;
  if (type === ETHERTYPE_VLAN) {
    if (available < ETHERNET_HEADER_LENGTH + VLAN_TAG_LENGTH) {
      return wireError(WireErrorCode.ETH_TRUNCATED, offset, `an 802.1Q-tagged Ethernet header needs 18 bytes, the frame has ${available}`);
    }
    const tci = buf.readUInt16BE(offset + 14);
    vlan = { pcp: tci >>> 13, dei: (tci & 0x1000) !== 0, vid: tci & 0x0fff };
    type = buf.readUInt16BE(offset + 16);
    headerLength += VLAN_TAG_LENGTH;
  }
  if (type < 0x0600) {
    return wireError(
      WireErrorCode.ETH_NOT_ETHERNET_II,
      offset + headerLength - 2,
      `type field 0x${type.toString(16).padStart(4, '0')} is an 802.3 length, not an Ethernet II type`,
    );
  }
  return { ok: true, dstMac, srcMac, etherType: type, vlan, headerLength, payloadOffset: offset + headerLength };
}
