/**
 * Match fields by name, for every P4Runtime match kind. Inputs accepted per kind:
 * - EXACT: a value (anything `encodeValue` reads) or `{ value }`;
 * - LPM: `'10.0.0.0/8'`, `{ value, prefixLen }`, or a bare value (full-length prefix);
 * - TERNARY: `{ value, mask }`, `'v&&&m'`, or a bare value (all-ones mask);
 * - RANGE: `{ low, high }`, `'lo..hi'`, or a bare value (low = high);
 * - OPTIONAL: a value or `{ value }`.
 * A field left out (or given as undefined/null) is "don't care". An LPM prefix
 * of 0, a ternary mask of 0 and a full range also mean "don't care": they are
 * left out of the message, as the spec requires. Value bits outside an LPM
 * prefix or a ternary mask are cleared before sending (the spec wants them 0),
 * so `{ value: '10.0.0.1', mask: '255.255.255.0' }` sends 10.0.0.0.
 * Decoding gives `{ value, prefixLen }`, `{ value, mask }`, `{ low, high }`,
 * `{ value }` (optional) or a bare value (exact), as P4Numbers (see values.ts).
 */
import type * as p4r from '../../proto/p4r.js';
import {
  andBytes,
  bigIntToBytes,
  bitLength,
  bytesToBigInt,
  clearOutsidePrefix,
  compareBytes,
  encodeValue,
  fullMask,
  isFullMask,
  type MatchFieldInfo,
  type TableInfo,
  type ValueInput,
} from '../../p4info/index.js';
import { EntityErrorCode, entityError, inContext, withContext } from './entity-error.js';
import { bytesToP4Number } from './values.js';

export interface LpmMatch {
  readonly value: ValueInput;
  readonly prefixLen: number;
}
export interface TernaryMatch {
  readonly value: ValueInput;
  readonly mask: ValueInput;
}
export interface RangeMatch {
  readonly low: ValueInput;
  readonly high: ValueInput;
}
export interface OptionalMatch {
  readonly value: ValueInput;
}
export type MatchInput = ValueInput | LpmMatch | TernaryMatch | RangeMatch | OptionalMatch;
/** Match fields by full name or unique suffix; undefined/null means "don't care". */
export type MatchSpec = Readonly<Record<string, MatchInput | null | undefined>>;

function isRecord(input: MatchInput): input is LpmMatch | TernaryMatch | RangeMatch | OptionalMatch {
  return typeof input === 'object' && input !== null && !(input instanceof Uint8Array);
}

function badMatch(field: MatchFieldInfo, why: string): Error {
  return entityError(EntityErrorCode.BAD_MATCH, `match field ${field.name} (${field.matchType}, ${field.bitwidth} bits): ${why}`);
}

/** The plain value of an exact-style input: a value or `{ value }` with nothing else. */
function plainValue(field: MatchFieldInfo, input: MatchInput): ValueInput {
  if (!isRecord(input)) return input;
  const keys = Object.keys(input);
  if (keys.length === 1 && keys[0] === 'value') return (input as OptionalMatch).value;
  throw badMatch(field, `expected a value or { value }, got an object with ${keys.join(', ')}`);
}

/** The canonical bytes of a value of the field: a fresh Buffer (encodeValue's), so callers may mask it in place. */
function valueOf(input: ValueInput, field: MatchFieldInfo): Buffer {
  return encodeValue(input, field.bitwidth);
}

function splitText(input: MatchInput, separator: string): [string, string] | undefined {
  if (typeof input !== 'string') return undefined;
  const at = separator === '/' ? input.lastIndexOf('/') : input.indexOf(separator);
  if (at < 0) return undefined;
  return [input.slice(0, at).trim(), input.slice(at + separator.length).trim()];
}

function encodeLpm(field: MatchFieldInfo, input: MatchInput): p4r.FieldMatch | undefined {
  let value: ValueInput;
  let prefixLen: number;
  const text = splitText(input, '/');
  if (text) {
    if (!/^\d+$/.test(text[1])) throw badMatch(field, `bad prefix length in ${JSON.stringify(input)}`);
    [value, prefixLen] = [text[0], Number(text[1])];
  } else if (isRecord(input) && 'prefixLen' in input) {
    [value, prefixLen] = [input.value, input.prefixLen];
  } else {
    [value, prefixLen] = [plainValue(field, input), field.bitwidth];
  }
  if (!Number.isInteger(prefixLen) || prefixLen < 0 || prefixLen > field.bitwidth) {
    throw badMatch(field, `prefix length ${prefixLen} is outside 0..${field.bitwidth}`);
  }
  const masked = clearOutsidePrefix(valueOf(value, field), prefixLen, field.bitwidth);
  if (prefixLen === 0) return undefined;
  return { field_id: field.id, lpm: { value: masked, prefix_len: prefixLen } };
}

function encodeTernary(field: MatchFieldInfo, input: MatchInput): p4r.FieldMatch | undefined {
  let value: ValueInput;
  let mask: Buffer | undefined;
  const text = splitText(input, '&&&');
  if (text) [value, mask] = [text[0], valueOf(text[1], field)];
  else if (isRecord(input) && 'mask' in input) [value, mask] = [input.value, valueOf(input.mask, field)];
  else value = plainValue(field, input);
  const bits = valueOf(value, field);
  // No mask: all ones, under which the value stays as it is.
  if (!mask) return { field_id: field.id, ternary: { value: bits, mask: bigIntToBytes(fullMask(field.bitwidth)) } };
  if (bitLength(mask) === 0) return undefined;
  return { field_id: field.id, ternary: { value: andBytes(bits, mask), mask } };
}

function encodeRange(field: MatchFieldInfo, input: MatchInput): p4r.FieldMatch | undefined {
  let low: ValueInput;
  let high: ValueInput;
  const text = splitText(input, '..');
  if (text) [low, high] = text;
  else if (isRecord(input) && 'low' in input) [low, high] = [input.low, input.high];
  else low = high = plainValue(field, input);
  const [lo, hi] = [valueOf(low, field), valueOf(high, field)];
  if (compareBytes(lo, hi) > 0) {
    throw entityError(EntityErrorCode.RANGE_INVERTED, `match field ${field.name}: range low ${bytesToBigInt(lo)} is above high ${bytesToBigInt(hi)}`);
  }
  if (bitLength(lo) === 0 && isFullMask(hi, field.bitwidth)) return undefined;
  return { field_id: field.id, range: { low: lo, high: hi } };
}

/** The FieldMatch for one field, or undefined when the input means "don't care". */
export function encodeFieldMatch(field: MatchFieldInfo, input: MatchInput): p4r.FieldMatch | undefined {
  // try/catch rather than inContext's closure: a bulk write encodes every field of every entry here.
  try {
    switch (field.matchType) {
      case 'EXACT':
        return { field_id: field.id, exact: { value: encodeValue(plainValue(field, input), field.bitwidth) } };
      case 'LPM':
        return encodeLpm(field, input);
      case 'TERNARY':
        return encodeTernary(field, input);
      case 'RANGE':
        return encodeRange(field, input);
      case 'OPTIONAL':
        return { field_id: field.id, optional: { value: encodeValue(plainValue(field, input), field.bitwidth) } };
      default:
        throw entityError(EntityErrorCode.UNSUPPORTED_MATCH_KIND, `match kind ${field.matchType} of field ${field.name} is not supported`);
    }
  } catch (err) {
    throw withContext(err, `match field ${field.name}`);
  }
}

/** Every FieldMatch of a match spec, ordered by field id; names resolve as full names or unique suffixes. */
export function encodeMatch(table: TableInfo, spec: MatchSpec): p4r.FieldMatch[] {
  const out: p4r.FieldMatch[] = [];
  const seen: number[] = [];
  for (const name of Object.keys(spec)) {
    const input = spec[name];
    if (input === undefined || input === null) continue;
    let encoded: p4r.FieldMatch | undefined;
    try {
      const field = table.matchFields.get(name);
      if (seen.includes(field.id)) {
        throw entityError(EntityErrorCode.DUPLICATE_NAME, `table ${table.name}: match field ${field.name} is given twice`);
      }
      seen.push(field.id);
      encoded = encodeFieldMatch(field, input);
    } catch (err) {
      throw withContext(err, `table ${table.name}`);
    }
    if (encoded) out.push(encoded);
  }
  return out.sort((a, b) => (a.field_id ?? 0) - (b.field_id ?? 0));
}

/** The readable form of one FieldMatch from a switch. */
export function decodeFieldMatch(field: MatchFieldInfo, fm: p4r.FieldMatch__Output): MatchInput {
  const width = field.bitwidth;
  switch (fm.field_match_type) {
    case 'exact':
      return bytesToP4Number(fm.exact!.value, width);
    case 'lpm':
      return { value: bytesToP4Number(fm.lpm!.value, width), prefixLen: fm.lpm!.prefix_len };
    case 'ternary':
      return { value: bytesToP4Number(fm.ternary!.value, width), mask: bytesToP4Number(fm.ternary!.mask, width) };
    case 'range':
      return { low: bytesToP4Number(fm.range!.low, width), high: bytesToP4Number(fm.range!.high, width) };
    case 'optional':
      return { value: bytesToP4Number(fm.optional!.value, width) };
    default:
      throw entityError(EntityErrorCode.UNSUPPORTED_MATCH_KIND, `match field ${field.name}: cannot decode a ${fm.field_match_type ?? 'missing'} match`);
  }
}

/** A match spec keyed by full field names from the FieldMatches of a switch message. */
export function decodeMatch(table: TableInfo, fields: readonly p4r.FieldMatch__Output[]): Record<string, MatchInput> {
  const out: Record<string, MatchInput> = {};
  for (const fm of fields) {
    const field = inContext(`table ${table.name}`, () => table.matchFields.get(fm.field_id));
    out[field.name] = decodeFieldMatch(field, fm);
  }
  return out;
}

/** The exact fields of a table that a match leaves out (a write must give them all). */
export function missingExactFields(table: TableInfo, match: readonly p4r.FieldMatch[]): string[] {
  const present = new Set(match.map((m) => m.field_id));
  return table.matchFields.all.filter((f) => f.matchType === 'EXACT' && !present.has(f.id)).map((f) => f.name);
}
