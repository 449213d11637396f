/**
 * Turning user values into P4Runtime bytestrings and back: numbers, bigints,
 * `"10.0.0.1"`, `"2001:db8::1"`, `"aa:bb:cc:dd:ee:ff"`, `"0x1f"`, decimal
 * strings and raw bytes, each checked against the field's bitwidth.
 */
import { isIPv6 } from 'node:net';
import { bigIntToBytes, bitLength, bytesToBigInt, canonicalize } from './bytestring.js';
import { P4ValueError, ValueErrorCode } from './value-error.js';

/** Anything a user may give as a P4 value. */
export type ValueInput = number | bigint | string | Uint8Array;

/** How to print a value: chosen by the caller, or guessed from the bitwidth by `formatValue`. */
export type ValueFormat = 'dec' | 'hex' | 'mac' | 'ipv4' | 'ipv6';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAC = /^[0-9a-f]{2}([:-][0-9a-f]{2}){5}$/i;
const HEX = /^0x[0-9a-f]+$/i;
const BIN = /^0b[01]+$/i;
const DEC = /^\d+$/;
const NEGATIVE = /^-(\d+|0x[0-9a-f]+)$/i;

function malformed(text: string, why: string): P4ValueError {
  return new P4ValueError(
    ValueErrorCode.MALFORMED,
    `cannot read ${JSON.stringify(text)} as a P4 value: ${why}; write a number, 0x-hex, an IPv4/IPv6 or MAC address`,
  );
}

/** An IPv6 address (already checked by `isIPv6`) as a 128-bit value; `::` and a dotted IPv4 tail allowed. */
function ipv6ToBigInt(text: string): bigint {
  const [headText, tailText] = text.includes('::') ? text.split('::') : [text, undefined];
  const words = (part: string | undefined): number[] =>
    (part ? part.split(':') : []).flatMap((group) => {
      if (!group.includes('.')) return [parseInt(group, 16)];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  const head = words(headText);
  const tail = words(tailText);
  const gap = tailText === undefined ? 0 : 8 - head.length - tail.length;
  return [...head, ...Array<number>(gap).fill(0), ...tail].reduce((acc, w) => (acc << 16n) | BigInt(w), 0n);
}

/** The numeric value of a user input, without a width check. */
export function parseValue(input: ValueInput): bigint {
  if (typeof input === 'bigint') {
    if (input < 0n) throw new P4ValueError(ValueErrorCode.NEGATIVE, `negative value ${input} has no bitstring form`);
    return input;
  }
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) throw malformed(String(input), 'not a safe integer (use a bigint or a string)');
    if (input < 0) throw new P4ValueError(ValueErrorCode.NEGATIVE, `negative value ${input} has no bitstring form`);
    return BigInt(input);
  }
  if (input instanceof Uint8Array) {
    if (input.length === 0) throw new P4ValueError(ValueErrorCode.EMPTY, 'empty bytestring: P4Runtime needs at least one byte');
    return bytesToBigInt(input);
  }
  const text = input.trim();
  if (DEC.test(text)) return BigInt(text);
  if (NEGATIVE.test(text)) throw new P4ValueError(ValueErrorCode.NEGATIVE, `negative value ${text} has no bitstring form`);
  if (HEX.test(text) || BIN.test(text)) return BigInt(text.toLowerCase());
  const v4 = IPV4.exec(text);
  if (v4) {
    const octets = v4.slice(1).map(Number);
    if (octets.some((o) => o > 255)) throw malformed(text, 'IPv4 octet above 255');
    return octets.reduce((acc, o) => (acc << 8n) | BigInt(o), 0n);
  }
  if (MAC.test(text)) return BigInt('0x' + text.replace(/[:-]/g, ''));
  if (isIPv6(text)) {
    // Node accepts a zone (fe80::1%eth0); it names a link, not part of the address, so it cannot be a P4 value.
    if (text.includes('%')) throw malformed(text, 'an IPv6 zone (%...) is not part of the address');
    return ipv6ToBigInt(text);
  }
  throw malformed(text, 'unrecognised format');
}

/** The canonical bytestring of `input` for a field of `bitwidth` bits. Throws P4ValueError if it does not fit. */
export function encodeValue(input: ValueInput, bitwidth: number): Buffer {
  if (input instanceof Uint8Array) {
    const c = canonicalize(input, bitwidth);
    if (c === 'empty') throw new P4ValueError(ValueErrorCode.EMPTY, 'empty bytestring: P4Runtime needs at least one byte');
    if (c === 'too-wide') throw tooWide(bitLength(input), bitwidth, '0x' + Buffer.from(input).toString('hex'));
    return Buffer.from(c);
  }
  // Controllers encode small numbers by the million (ports, addresses, slot ids): keep those off bigint.
  if (typeof input === 'number' && input >= 0 && input <= 0xffffffff && Number.isInteger(input)) return encodeUint32(input, bitwidth);
  const value = parseValue(input);
  const bits = value === 0n ? 0 : value.toString(2).length;
  if (bits > bitwidth) throw tooWide(bits, bitwidth, String(input));
  return bigIntToBytes(value);
}

/** The canonical bytestring of a number in 0..2^32-1, without going through bigint. */
function encodeUint32(value: number, bitwidth: number): Buffer {
  const bits = 32 - Math.clz32(value);
  if (bits > bitwidth) throw tooWide(bits, bitwidth, String(value));
  const length = bits === 0 ? 1 : (bits + 7) >>> 3;
  const out = Buffer.allocUnsafe(length);
  for (let i = length - 1, v = value; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v & 0xff;
  return out;
}

function tooWide(bits: number, bitwidth: number, shown: string): P4ValueError {
  return new P4ValueError(ValueErrorCode.TOO_WIDE, `value ${shown} needs ${bits} bits but the field has ${bitwidth}`);
}

/** The value of a bytestring as a bigint. */
export function decodeValue(bytes: Uint8Array): bigint {
  return bytesToBigInt(bytes);
}

/** The value of a bytestring as a number; throws RangeError past 2^53. */
export function decodeNumber(bytes: Uint8Array): number {
  const v = bytesToBigInt(bytes);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`value 0x${v.toString(16)} does not fit a JS number`);
  return Number(v);
}

/** A readable form of a bytestring: MAC for 48 bits, dotted quad for 32-bit 'ipv4', hex or decimal otherwise. */
export function formatValue(bytes: Uint8Array, format: ValueFormat = 'dec'): string {
  const v = bytesToBigInt(bytes);
  switch (format) {
    case 'dec':
      return v.toString(10);
    case 'hex':
      return '0x' + v.toString(16);
    case 'mac':
      return v
        .toString(16)
        .padStart(12, '0')
        .replace(/(..)(?!$)/g, '$1:');
    case 'ipv4':
      return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
    case 'ipv6':
      return formatIPv6(v);
  }
}

/** RFC 5952 text of a 128-bit value: lower-case hex, the longest run of two or more zero words (the first of equals) as `::`. */
function formatIPv6(v: bigint): string {
  const words = Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best.length < 2) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}
