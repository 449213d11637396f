/**
 * STF values to P4Runtime match inputs, with the conventions of p4c's BMv2
 * runner: a ternary value written in hex, binary or octal takes its mask from
 * its digits (`0x0a**` matches 0x0a00 under mask 0xff00; a digit is cared
 * about, a `*` is not, and digits not written are not cared about either), an
 * LPM value without `/LEN` has a prefix of as many bits as it has digits
 * before any `*`, a range is `LOW->HIGH`, and `*` alone is "don't care".
 * Numbers are decimal, 0x-hex, 0b-binary or 0o-octal; MAC and IPv4/IPv6
 * addresses are read as simple_switch_CLI reads them.
 */
import type { MatchFieldInfo } from '../p4info/entities.js';
import { parseValue } from '../p4info/value.js';
import type { MatchInput } from '../p4runtime/entities/match.js';
import { STF_ERROR_CODES, StfError } from './stf-error.js';
import { parseInteger } from './stf-parser.js';

function bad(line: number, message: string): StfError {
  return new StfError(STF_ERROR_CODES.badValue, message, line);
}

/** A plain value: a number in any base STF allows, or an address. */
export function parseStfValue(text: string, line: number, what: string): bigint {
  const n = parseInteger(text);
  if (n !== undefined) return n;
  try {
    return parseValue(text);
  } catch {
    throw bad(line, `${what}: cannot read "${text}" as a value; write a decimal, 0x-hex, 0b-binary number or a MAC/IPv4 address`);
  }
}

const BASES: Record<string, { bits: number; radix: number }> = { x: { bits: 4, radix: 16 }, b: { bits: 1, radix: 2 }, o: { bits: 3, radix: 8 } };

/** `0x12**`-style text: its digits with `*` as 0, and the mask of its written, non-`*` digits. */
function digitsWithWildcards(text: string): { value: bigint; mask: bigint; digits: number; firstWildcard: number; bits: number } | undefined {
  const m = /^0([xXbBoO])([0-9a-fA-F*]+)$/.exec(text);
  if (!m) return undefined;
  const base = BASES[m[1]!.toLowerCase()]!;
  const body = m[2]!;
  let value = 0n;
  let mask = 0n;
  const full = BigInt((1 << base.bits) - 1);
  for (const ch of body) {
    const wild = ch === '*';
    const d = wild ? 0 : parseInt(ch, base.radix);
    if (Number.isNaN(d)) return undefined;
    value = (value << BigInt(base.bits)) | BigInt(d);
    mask = (mask << BigInt(base.bits)) | (wild ? 0n : full);
  }
  const star = body.indexOf('*');
  return { value, mask, digits: body.length, firstWildcard: star < 0 ? body.length : star, bits: base.bits };
}

function ternary(field: MatchFieldInfo, text: string, line: number): MatchInput {
  const explicit = text.split('&&&');
  if (explicit.length === 2) {
    return { value: parseStfValue(explicit[0]!, line, `key ${field.name}`), mask: parseStfValue(explicit[1]!, line, `mask of key ${field.name}`) };
  }
  const d = digitsWithWildcards(text);
  // Digits written beyond the field's width (0x1ff for a bit<8>) cannot matter: only the field's bits are masked.
  if (d) return { value: d.value, mask: d.mask & ((1n << BigInt(field.bitwidth)) - 1n) };
  // Decimal numbers and addresses care about every bit (p4c's runner refuses decimals here).
  return parseStfValue(text, line, `key ${field.name}`);
}

function lpm(field: MatchFieldInfo, text: string, line: number): MatchInput {
  const slash = text.lastIndexOf('/');
  if (slash >= 0) {
    const len = parseInteger(text.slice(slash + 1));
    if (len === undefined) throw bad(line, `key ${field.name}: prefix length in "${text}" is not a number`);
    return { value: digitsWithWildcards(text.slice(0, slash))?.value ?? parseStfValue(text.slice(0, slash), line, `key ${field.name}`), prefixLen: Number(len) };
  }
  const d = digitsWithWildcards(text);
  if (d) return { value: d.value, prefixLen: d.firstWildcard * d.bits };
  const n = parseInteger(text);
  // A decimal counts as its hex digits, as p4c's runner converts it.
  if (n !== undefined) return { value: n, prefixLen: n.toString(16).length * 4 };
  return { value: parseStfValue(text, line, `key ${field.name}`), prefixLen: field.bitwidth };
}

function range(field: MatchFieldInfo, text: string, line: number): MatchInput {
  const arrow = text.indexOf('->');
  if (arrow < 0) return parseStfValue(text, line, `key ${field.name}`);
  return { low: parseStfValue(text.slice(0, arrow), line, `low end of key ${field.name}`), high: parseStfValue(text.slice(arrow + 2), line, `high end of key ${field.name}`) };
}

/** The match input for one key field, or undefined for "don't care". */
export function matchInput(field: MatchFieldInfo, text: string, line: number): MatchInput | undefined {
  if (text === '*') {
    if (field.matchType === 'EXACT') throw bad(line, `key ${field.name} is an exact match: give a value, not "*"`);
    return undefined;
  }
  switch (field.matchType) {
    case 'EXACT':
      return parseStfValue(text, line, `key ${field.name}`);
    case 'TERNARY':
      return ternary(field, text, line);
    case 'LPM':
      return lpm(field, text, line);
    case 'RANGE':
      return range(field, text, line);
    case 'OPTIONAL':
      return { value: parseStfValue(text, line, `key ${field.name}`) };
    default:
      throw bad(line, `key ${field.name} has match kind ${field.matchType}, which STF tests cannot fill`);
  }
}
