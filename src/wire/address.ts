/**
 * MAC and IPv4 addresses as numbers, the form the codecs use: a MAC is a
 * 48-bit unsigned integer (exact in a double), an IPv4 address a 32-bit
 * unsigned integer. Numbers cost nothing to compare, hash or copy on the hot
 * path; text and bytes are for configuration, logs and tests.
 */
import { requireRoom } from './field-check.js';
import { WireFormatError, WireTextErrorCode } from './wire-error.js';

const TWO_POW_32 = 0x1_0000_0000;
const MAC_MAX = 0xffff_ffff_ffff;

/** ff:ff:ff:ff:ff:ff. */
export const BROADCAST_MAC = MAC_MAX;
/** 00:00:00:00:00:00 (the target MAC of an ARP request). */
export const ZERO_MAC = 0;

function requireMac(mac: number): void {
  if (!Number.isInteger(mac) || mac < 0 || mac > MAC_MAX) {
    throw new RangeError(`a MAC address must be an integer in 0..2^48-1, not ${mac}`);
  }
}

function requireIpv4(ip: number): void {
  if (!Number.isInteger(ip) || ip < 0 || ip >= TWO_POW_32) {
    throw new RangeError(`an IPv4 address must be an integer in 0..2^32-1, not ${ip}`);
  }
}

/** Reads 6 bytes as a MAC. The caller has checked that they are there. */
export function readMac(buf: Uint8Array, offset: number): number {
  const high = (buf[offset]! << 8) | buf[offset + 1]!;
  const low = ((buf[offset + 2]! << 24) | (buf[offset + 3]! << 16) | (buf[offset + 4]! << 8) | buf[offset + 5]!) >>> 0;
  return high * TWO_POW_32 + low;
}

/** Writes a MAC as 6 bytes; returns the offset after them. */
export function writeMac(buf: Uint8Array, offset: number, mac: number): number {
  requireMac(mac);
  requireRoom(buf, offset, 6, 'a MAC address');
  const high = Math.floor(mac / TWO_POW_32);
  const low = mac % TWO_POW_32;
  buf[offset] = high >>> 8;
  buf[offset + 1] = high & 0xff;
  buf[offset + 2] = low >>> 24;
  buf[offset + 3] = (low >>> 16) & 0xff;
  buf[offset + 4] = (low >>> 8) & 0xff;
  buf[offset + 5] = low & 0xff;
  return offset + 6;
}

/** Reads 4 bytes as an IPv4 address. The caller has checked that they are there. */
export function readIpv4Address(buf: Uint8Array, offset: number): number {
  return ((buf[offset]! << 24) | (buf[offset + 1]! << 16) | (buf[offset + 2]! << 8) | buf[offset + 3]!) >>> 0;
}

/** Writes an IPv4 address as 4 bytes; returns the offset after them. */
export function writeIpv4Address(buf: Uint8Array, offset: number, ip: number): number {
  requireIpv4(ip);
  requireRoom(buf, offset, 4, 'an IPv4 address');
  buf[offset] = ip >>> 24;
  buf[offset + 1] = (ip >>> 16) & 0xff;
  buf[offset + 2] = (ip >>> 8) & 0xff;
  buf[offset + 3] = ip & 0xff;
  return offset + 4;
}

const MAC_TEXT = /^([0-9a-f]{2})([:-])([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})$/i;

/** "aa:bb:cc:dd:ee:ff" or "AA-BB-CC-DD-EE-FF" → number; throws WireFormatError otherwise. */
export function macFromText(text: string): number {
  const m = MAC_TEXT.exec(text.trim());
  if (!m) {
    throw new WireFormatError(
      WireTextErrorCode.BAD_MAC_TEXT,
      `"${text}" is not a MAC address; write six two-digit hex bytes separated by ':' or '-', e.g. 02:00:00:00:00:01`,
    );
  }
  let mac = 0;
  for (const i of [1, 3, 4, 5, 6, 7]) mac = mac * 256 + parseInt(m[i]!, 16);
  return mac;
}

/** A MAC as lower-case "aa:bb:cc:dd:ee:ff". */
export function macToText(mac: number): string {
  requireMac(mac);
  const parts: string[] = [];
  let rest = mac;
  for (let i = 0; i < 6; i++) {
    parts.unshift((rest % 256).toString(16).padStart(2, '0'));
    rest = Math.floor(rest / 256);
  }
  return parts.join(':');
}

/** A MAC as 6 new bytes. */
export function macToBytes(mac: number): Buffer {
  const out = Buffer.alloc(6);
  writeMac(out, 0, mac);
  return out;
}

const IPV4_TEXT = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * "10.0.0.1" → number; throws WireFormatError otherwise. Octets with a leading
 * zero are refused: some parsers read them as octal, so their meaning is unclear.
 */
export function ipv4FromText(text: string): number {
  const m = IPV4_TEXT.exec(text.trim());
  const octets = m ? m.slice(1, 5) : [];
  if (!m || octets.some((o) => Number(o) > 255 || (o.length > 1 && o.startsWith('0')))) {
    throw new WireFormatError(
      WireTextErrorCode.BAD_IPV4_TEXT,
      `"${text}" is not an IPv4 address; write four decimal octets 0..255 without leading zeros, e.g. 10.0.0.1`,
    );
  }
  return octets.reduce((ip, o) => ip * 256 + Number(o), 0);
}

/** An IPv4 address as "a.b.c.d". */
export function ipv4ToText(ip: number): string {
  requireIpv4(ip);
  return `${ip >>> 24}.${(ip >>> 16) & 0xff}.${(ip >>> 8) & 0xff}.${ip & 0xff}`;
}

/** An IPv4 address as 4 new bytes. */
export function ipv4ToBytes(ip: number): Buffer {
  const out = Buffer.alloc(4);
  writeIpv4Address(out, 0, ip);
  return out;
}
