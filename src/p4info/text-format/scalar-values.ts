/**
 * Reading one scalar value of a known protobuf type from the token stream,
 * with protobuf's rules: signed and unsigned integers in decimal, hex or
 * octal and range-checked for their width; floats (also `inf`, `nan`);
 * booleans as true/false/True/False/t/f/1/0; enums by name or number;
 * strings and bytes as one or more adjacent quoted literals.
 *
 * Values come back in the shape protobufjs `fromObject` takes: 64-bit
 * integers as decimal strings (no precision is lost), bytes as Buffers.
 */
import type protobuf from 'protobufjs';
import { TextFormatErrorCode } from './errors.js';
import type { Token, Tokenizer } from './tokenizer.js';

interface IntegerRange {
  readonly min: bigint;
  readonly max: bigint;
  /** 64-bit values are handed on as strings, narrower ones as numbers. */
  readonly wide: boolean;
}

const INT32: IntegerRange = { min: -(2n ** 31n), max: 2n ** 31n - 1n, wide: false };
const UINT32: IntegerRange = { min: 0n, max: 2n ** 32n - 1n, wide: false };
const INT64: IntegerRange = { min: -(2n ** 63n), max: 2n ** 63n - 1n, wide: true };
const UINT64: IntegerRange = { min: 0n, max: 2n ** 64n - 1n, wide: true };

const INTEGER_RANGES: Readonly<Record<string, IntegerRange>> = {
  int32: INT32,
  sint32: INT32,
  sfixed32: INT32,
  uint32: UINT32,
  fixed32: UINT32,
  int64: INT64,
  sint64: INT64,
  sfixed64: INT64,
  uint64: UINT64,
  fixed64: UINT64,
};

const TRUE_WORDS = new Set(['true', 'True', 't']);
const FALSE_WORDS = new Set(['false', 'False', 'f']);

/** What the reader needs to know about the field whose value it reads. */
export interface ScalarTarget {
  /** protobuf scalar type name (`uint32`, `string`, …) or the enum's name. */
  readonly type: string;
  /** The enum, when the field is one. */
  readonly enumType: protobuf.Enum | null;
  /** How messages name the field: `p4.config.v1.Table.size`. */
  readonly label: string;
}

/** How a token reads in a message. */
export function describeToken(token: Token): string {
  if (token.kind === 'end') return 'the end of the text';
  const text = token.text.length > 40 ? token.text.slice(0, 37) + '...' : token.text;
  return `"${text}"`;
}

/** The value of an integer token (decimal, 0x-hex or 0-octal). */
function integerValue(text: string): bigint {
  if (/^0[xX]/.test(text)) return BigInt(text.toLowerCase());
  if (text.length > 1 && text.startsWith('0')) return BigInt('0o' + text.slice(1));
  return BigInt(text);
}

/** Reads an optional minus sign; true when there was one. */
function readSign(tokens: Tokenizer): boolean {
  const token = tokens.peek();
  if (token.kind === 'symbol' && token.text === '-') {
    tokens.next();
    return true;
  }
  return false;
}

function readInteger(tokens: Tokenizer, target: ScalarTarget, range: IntegerRange): number | string {
  const signToken = tokens.peek();
  const negative = readSign(tokens);
  const token = tokens.next();
  if (token.kind !== 'integer') {
    throw tokens.error(TextFormatErrorCode.WRONG_TYPE, token, `${target.label} is ${target.type}: expected an integer, found ${describeToken(token)}`);
  }
  const value = negative ? -integerValue(token.text) : integerValue(token.text);
  if (value < range.min || value > range.max) {
    throw tokens.error(
      TextFormatErrorCode.OUT_OF_RANGE,
      negative ? signToken : token,
      `${target.label} is ${target.type}: ${negative ? '-' : ''}${token.text} is outside ${range.min}..${range.max}`,
    );
  }
  return range.wide ? value.toString() : Number(value);
}

function readFloat(tokens: Tokenizer, target: ScalarTarget): number {
  const negative = readSign(tokens);
  const token = tokens.next();
  let value: number;
  if (token.kind === 'float') value = Number(token.text.replace(/[fF]$/, ''));
  else if (token.kind === 'integer') value = Number(integerValue(token.text));
  else if (token.kind === 'identifier' && /^(inf|infinity)$/i.test(token.text)) value = Infinity;
  else if (token.kind === 'identifier' && /^nan$/i.test(token.text)) value = NaN;
  else throw tokens.error(TextFormatErrorCode.WRONG_TYPE, token, `${target.label} is ${target.type}: expected a number, found ${describeToken(token)}`);
  if (negative) value = -value;
  return target.type === 'float' ? Math.fround(value) : value;
}

function readBool(tokens: Tokenizer, target: ScalarTarget): boolean {
  const token = tokens.next();
  if (token.kind === 'identifier' && TRUE_WORDS.has(token.text)) return true;
  if (token.kind === 'identifier' && FALSE_WORDS.has(token.text)) return false;
  if (token.kind === 'integer' && (token.text === '1' || token.text === '0')) return token.text === '1';
  throw tokens.error(TextFormatErrorCode.WRONG_TYPE, token, `${target.label} is bool: expected true or false, found ${describeToken(token)}`);
}

function readEnum(tokens: Tokenizer, target: ScalarTarget, enumType: protobuf.Enum): string | number {
  const token = tokens.peek();
  if (token.kind === 'identifier') {
    tokens.next();
    if (enumType.values[token.text] === undefined) {
      const names = Object.keys(enumType.values).join(', ');
      throw tokens.error(TextFormatErrorCode.UNKNOWN_ENUM, token, `${target.label}: enum ${enumType.fullName.slice(1)} has no value ${token.text} (it has ${names})`);
    }
    return token.text;
  }
  if (token.kind === 'integer' || (token.kind === 'symbol' && token.text === '-')) {
    // proto3 enums are open: numbers without a name are kept, as protobuf does.
    return readInteger(tokens, target, INT32) as number;
  }
  tokens.next();
  throw tokens.error(TextFormatErrorCode.WRONG_TYPE, token, `${target.label}: expected a value of enum ${enumType.fullName.slice(1)}, found ${describeToken(token)}`);
}

/** One or more adjacent string literals, concatenated. */
function readStringBytes(tokens: Tokenizer, target: ScalarTarget): Buffer {
  const first = tokens.next();
  if (first.kind !== 'string') {
    throw tokens.error(TextFormatErrorCode.WRONG_TYPE, first, `${target.label} is ${target.type}: expected a quoted string, found ${describeToken(first)}`);
  }
  const parts = [first.bytes!];
  while (tokens.peek().kind === 'string') parts.push(tokens.next().bytes!);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads one value for `target` from the tokens. Throws TextFormatError when it is not one. */
export function readScalar(tokens: Tokenizer, target: ScalarTarget): unknown {
  if (target.enumType) return readEnum(tokens, target, target.enumType);
  const range = INTEGER_RANGES[target.type];
  if (range) return readInteger(tokens, target, range);
  switch (target.type) {
    case 'double':
    case 'float':
      return readFloat(tokens, target);
    case 'bool':
      return readBool(tokens, target);
    case 'bytes':
      return readStringBytes(tokens, target);
    case 'string': {
      const at = tokens.peek();
      const bytes = readStringBytes(tokens, target);
      try {
        return UTF8.decode(bytes);
      } catch {
        throw tokens.error(TextFormatErrorCode.INVALID_UTF8, at, `${target.label} is a string field, but the value is not valid UTF-8 (use a bytes field for raw bytes)`);
      }
    }
    default:
      throw new Error(`readScalar: unsupported protobuf type ${target.type}`);
  }
}
