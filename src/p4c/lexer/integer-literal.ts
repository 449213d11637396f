/**
 * @fileoverview Integer literals as the P4-16 specification writes them:
 *
 *   integer    ::= [width ('w' | 's')] value
 *   value      ::= decimal | ('0x'|'0X') hex | ('0b'|'0B') binary | ('0o'|'0O') octal | ('0d'|'0D') decimal
 *
 * Digits may be separated by `_` (`32w0xffff_ffff`). `w` makes a bit<W>
 * value, `s` an int<W> one; without a width the literal has infinite
 * precision. A sign is never part of a literal: `-8s3` is a negation.
 */
import type { IntegerValue } from './token.js';

export interface ScannedInteger {
  /** Offset just past the literal (and past any junk glued to it). */
  readonly end: number;
  readonly value: IntegerValue;
  /** Why the literal is malformed, when it is. */
  readonly problem?: string;
}

const BASES: Readonly<Record<string, { base: 2 | 8 | 10 | 16; digit: RegExp }>> = {
  x: { base: 16, digit: /[0-9a-fA-F_]/ },
  b: { base: 2, digit: /[01_]/ },
  o: { base: 8, digit: /[0-7_]/ },
  d: { base: 10, digit: /[0-9_]/ },
};

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** Widths above this are surely mistakes; the type checker has the final word on the rest. */
const MAX_WIDTH = 1 << 20;

/** Scans the literal starting at `start` (which must be a digit). */
export function scanIntegerLiteral(text: string, start: number): ScannedInteger {
  let pos = start;
  const scanDecimal = (): string => {
    const from = pos;
    while (isDigit(text[pos]) || text[pos] === '_') pos++;
    return text.slice(from, pos);
  };

  let width: number | null = null;
  let signed = false;
  const first = scanDecimal();
  const marker = text[pos];
  let digitsStart = start;
  let prefixValue: string | null = first;
  if ((marker === 'w' || marker === 's') && isDigit(text[pos + 1])) {
    width = Number(first.replace(/_/g, ''));
    signed = marker === 's';
    pos++;
    digitsStart = pos;
    prefixValue = null;
  }

  let base: 2 | 8 | 10 | 16 = 10;
  let digits: string;
  const baseLetter = text[digitsStart + 1]?.toLowerCase();
  const baseInfo = baseLetter === undefined ? undefined : BASES[baseLetter];
  if (text[digitsStart] === '0' && baseInfo && baseInfo.digit.test(text[digitsStart + 2] ?? '')) {
    base = baseInfo.base;
    pos = digitsStart + 2;
    const from = pos;
    while (pos < text.length && baseInfo.digit.test(text[pos]!)) pos++;
    digits = text.slice(from, pos);
  } else if (prefixValue !== null) {
    digits = prefixValue;
  } else {
    digits = scanDecimal();
  }

  let problem: string | undefined;
  if (isWordChar(text[pos])) {
    while (isWordChar(text[pos])) pos++;
    problem = 'unexpected characters after the digits';
  } else if (width !== null && width > MAX_WIDTH) {
    problem = `width ${width} is too large`;
  } else if (width === 0 && signed) {
    problem = 'a signed literal needs a width of at least 1';
  }

  const clean = digits.replace(/_/g, '');
  let value = 0n;
  if (!problem) {
    if (clean === '') problem = 'no digits';
    else value = parseDigits(clean, base);
  }
  return { end: pos, value: { value, width, signed, base }, ...(problem ? { problem } : {}) };
}

function parseDigits(digits: string, base: 2 | 8 | 10 | 16): bigint {
  switch (base) {
    case 16:
      return BigInt(`0x${digits}`);
    case 8:
      return BigInt(`0o${digits}`);
    case 2:
      return BigInt(`0b${digits}`);
    default:
      return BigInt(digits);
  }
}

/** Writes a literal back in the form it was read (width, signedness, base), without separators. */
export function formatIntegerLiteral(literal: IntegerValue): string {
  const prefix = literal.width === null ? '' : `${literal.width}${literal.signed ? 's' : 'w'}`;
  switch (literal.base) {
    case 16:
      return `${prefix}0x${literal.value.toString(16)}`;
    case 8:
      return `${prefix}0o${literal.value.toString(8)}`;
    case 2:
      return `${prefix}0b${literal.value.toString(2)}`;
    default:
      return `${prefix}${literal.value.toString(10)}`;
  }
}
