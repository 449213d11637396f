/**
 * How the wire codecs report bad input. Decoding never throws on bytes from
 * the network: it returns a `WireError` value with a stable `code`, so a
 * switch or agent can count and drop a malformed packet on its hot path
 * without the cost (and the risk) of exceptions. Encoding into a buffer that
 * is too small, or with a field out of range, is a programming mistake and
 * throws RangeError instead.
 */
import { P4inaError } from '../errors/p4ina-error.js';

/** Stable codes of WireError; never reworded. */
export const WireErrorCode = {
  /** Fewer bytes than an Ethernet header (14, or 18 with an 802.1Q tag). */
  ETH_TRUNCATED: 'ETH_TRUNCATED',
  /** The type/length field is below 0x0600: an IEEE 802.3 length, not an Ethernet II type. */
  ETH_NOT_ETHERNET_II: 'ETH_NOT_ETHERNET_II',
  /** Fewer than the 28 bytes of an Ethernet/IPv4 ARP packet. */
  ARP_TRUNCATED: 'ARP_TRUNCATED',
  /** ARP for another hardware or protocol type than Ethernet/IPv4. */
  ARP_UNSUPPORTED: 'ARP_UNSUPPORTED',
  /** An ARP operation other than request (1) or reply (2). */
  ARP_BAD_OPERATION: 'ARP_BAD_OPERATION',
  /** Fewer bytes than the IPv4 header (20, or IHL × 4 with options). */
  IPV4_TRUNCATED: 'IPV4_TRUNCATED',
  /** The version nibble is not 4. */
  IPV4_BAD_VERSION: 'IPV4_BAD_VERSION',
  /** IHL below 5 (a header shorter than 20 bytes). */
  IPV4_BAD_IHL: 'IPV4_BAD_IHL',
  /** Total length shorter than the header or longer than the bytes received. */
  IPV4_BAD_TOTAL_LENGTH: 'IPV4_BAD_TOTAL_LENGTH',
  /** The header checksum does not verify. */
  IPV4_BAD_CHECKSUM: 'IPV4_BAD_CHECKSUM',
  /** A fragment (MF set or a non-zero offset): p4ina does not reassemble. */
  IPV4_FRAGMENT: 'IPV4_FRAGMENT',
  /** A UDP frame was expected but the frame is not IPv4. */
  FRAME_NOT_IPV4: 'FRAME_NOT_IPV4',
  /** A UDP frame was expected but the IPv4 protocol is not 17. */
  FRAME_NOT_UDP: 'FRAME_NOT_UDP',
  /** Fewer than the 8 bytes of a UDP header. */
  UDP_TRUNCATED: 'UDP_TRUNCATED',
  /** UDP length below 8, beyond the bytes received, or unequal to the IPv4 payload length. */
  UDP_BAD_LENGTH: 'UDP_BAD_LENGTH',
  /** A non-zero UDP checksum that does not verify. */
  UDP_BAD_CHECKSUM: 'UDP_BAD_CHECKSUM',
  /** Fewer bytes than the SwitchML header and the values it announces. */
  SWITCHML_TRUNCATED: 'SWITCHML_TRUNCATED',
  /** A SwitchML header of another version than this code speaks. */
  SWITCHML_BAD_VERSION: 'SWITCHML_BAD_VERSION',
  /** A SwitchML message type that does not exist. */
  SWITCHML_BAD_MESSAGE_TYPE: 'SWITCHML_BAD_MESSAGE_TYPE',
  /** A worker id of 32 or more (the seen bitmap has 32 bits). */
  SWITCHML_BAD_WORKER_ID: 'SWITCHML_BAD_WORKER_ID',
  /** More bytes after the values than the element count accounts for. */
  SWITCHML_LENGTH_MISMATCH: 'SWITCHML_LENGTH_MISMATCH',
  /** Fewer than the 16 bytes of the ATP header. */
  ATP_TRUNCATED: 'ATP_TRUNCATED',
  /** The bytes after the ATP header are not a whole number of int32 values. */
  ATP_LENGTH_MISMATCH: 'ATP_LENGTH_MISMATCH',
  /** Fewer than the 12 bytes of an OmniReduce header and exponent. */
  OMNIREDUCE_TRUNCATED: 'OMNIREDUCE_TRUNCATED',
  /** The bytes between header and exponent are not a whole number of int32 values. */
  OMNIREDUCE_LENGTH_MISMATCH: 'OMNIREDUCE_LENGTH_MISMATCH',
  /** Fewer bytes than the Rina header and the values it announces. */
  RINA_TRUNCATED: 'RINA_TRUNCATED',
  /** A Rina header of another version than this code speaks. */
  RINA_BAD_VERSION: 'RINA_BAD_VERSION',
  /** A Rina message type that does not exist. */
  RINA_BAD_MESSAGE_TYPE: 'RINA_BAD_MESSAGE_TYPE',
  /** A Rina phase other than scatter-reduce or all-gather. */
  RINA_BAD_PHASE: 'RINA_BAD_PHASE',
  /** A worker id of 32 or more (the ToR's contribution bitmap has 32 bits). */
  RINA_BAD_WORKER_ID: 'RINA_BAD_WORKER_ID',
  /** More bytes after the values than the element count accounts for. */
  RINA_LENGTH_MISMATCH: 'RINA_LENGTH_MISMATCH',
} as const;

export type WireErrorCode = (typeof WireErrorCode)[keyof typeof WireErrorCode];

/** A packet that could not be decoded: what is wrong and where. */
export interface WireError {
  readonly ok: false;
  readonly code: WireErrorCode;
  /** Says what is wrong with the bytes, with the numbers involved. */
  readonly message: string;
  /** Byte offset in the buffer of the header (or field) that is wrong. */
  readonly offset: number;
}

/**
 * What a decoder returns: the decoded header with `ok: true`, or a WireError.
 * Test `ok` first; TypeScript then narrows to one or the other.
 */
export type Decoded<T> = (T & { readonly ok: true }) | WireError;

export function wireError(code: WireErrorCode, offset: number, message: string): WireError {
  return { ok: false, code, message, offset };
}

/**
 * The thrown form of wire errors, for callers that turn a decode failure into
 * an exception (configuration, tests) and for text that is not an address.
 */
export class WireFormatError extends P4inaError {}

/** Codes of WireFormatError that have no WireError counterpart. */
export const WireTextErrorCode = {
  /** Text that is not a MAC address (six hex pairs separated by ':' or '-'). */
  BAD_MAC_TEXT: 'WIRE_BAD_MAC_TEXT',
  /** Text that is not a dotted-quad IPv4 address. */
  BAD_IPV4_TEXT: 'WIRE_BAD_IPV4_TEXT',
} as const;

/** The exception form of a decode failure (same code and message). */
export function toWireFormatError(error: WireError): WireFormatError {
  return new WireFormatError(error.code, `${error.message} (at byte ${error.offset})`);
}
