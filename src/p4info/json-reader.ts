/**
 * Reading protobuf's canonical JSON mapping (what p4c writes for a .json
 * P4Info) by reflection. Lenient where protobuf's own parser is lenient with
 * `ignore_unknown_fields`: field names in lowerCamelCase or as in the .proto,
 * 64-bit integers as strings or numbers, enums by name or number, bytes in
 * standard or URL-safe base64, `null` as "not set". Unknown fields, unknown
 * enum names and Any values of unknown types are skipped, because a newer p4c
 * (or a vendor) adds them and an older reader must still load the file (P4Info
 * version skew). Everything else that does
 * not fit the schema is a P4InfoError with code P4INFO_MALFORMED.
 */
import protobuf from 'protobufjs';
import { CONVERSION, messageType } from '../proto/load.js';
import { P4InfoError, P4InfoErrorCode } from './lookup-error.js';
import { isAnyType, type Fields } from './text-format/reflection.js';

const MAX_DEPTH = 100;
/** A value to leave out: an enum name this reader does not know. */
const SKIP = Symbol('skip');

/** protobuf's json_name: `match_fields` → `matchFields`. */
export function jsonName(protoName: string): string {
  return protoName.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/_/g, '');
}

const indexes = new WeakMap<protobuf.Type, ReadonlyMap<string, protobuf.FieldBase>>();

/** Fields by JSON name and by proto name. */
function fieldIndex(type: protobuf.Type): ReadonlyMap<string, protobuf.FieldBase> {
  let index = indexes.get(type);
  if (!index) {
    const map = new Map<string, protobuf.FieldBase>();
    for (const field of type.fieldsArray) {
      map.set(jsonName(field.name), field);
      map.set(field.name, field);
    }
    indexes.set(type, map);
    index = map;
  }
  return index;
}

const INT_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};
const WIDE = new Set(['int64', 'sint64', 'sfixed64', 'uint64', 'fixed64']);
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class JsonReader {
  constructor(private readonly source: string) {}

  private fail(path: string, what: string): P4InfoError {
    return new P4InfoError(P4InfoErrorCode.MALFORMED, `${this.source}: ${path || '(top level)'}: ${what}`);
  }

  message(type: protobuf.Type, json: unknown, path: string, depth: number): Fields {
    const fields = this.messageOrSkip(type, json, path, depth);
    if (fields === SKIP) throw this.fail(path, `p4ina knows no message type ${String((json as Fields)['@type'])}`);
    return fields;
  }

  private messageOrSkip(type: protobuf.Type, json: unknown, path: string, depth: number): Fields | typeof SKIP {
    if (depth > MAX_DEPTH) throw this.fail(path, `messages are nested more than ${MAX_DEPTH} deep`);
    if (!isObject(json)) throw this.fail(path, `expected an object (${type.fullName.slice(1)}), found ${typeof json}`);
    if (isAnyType(type)) return this.any(json, path, depth);
    const out: Fields = {};
    const oneofs = new Map<string, string>();
    for (const [key, value] of Object.entries(json)) {
      const field = fieldIndex(type).get(key);
      if (!field || value === null) continue;
      if (field.partOf) {
        const other = oneofs.get(field.partOf.name);
        if (other !== undefined && other !== field.name) throw this.fail(`${path}.${key}`, `${other} and ${field.name} are both members of oneof ${field.partOf.name}`);
        oneofs.set(field.partOf.name, field.name);
      }
      const read = this.field(field, value, path ? `${path}.${key}` : key, depth);
      if (read !== SKIP) out[field.name] = read;
    }
    return out;
  }

  private field(field: protobuf.FieldBase, value: unknown, path: string, depth: number): unknown {
    if (field instanceof protobuf.MapField) {
      if (!isObject(value)) throw this.fail(path, 'expected an object (a map)');
      const out: Fields = {};
      for (const [key, item] of Object.entries(value)) {
        this.mapKey(field.keyType, key, path);
        const read = this.single(field, item, `${path}["${key}"]`, depth);
        if (read !== SKIP) out[key] = read;
      }
      return out;
    }
    if (field.repeated) {
      if (!Array.isArray(value)) throw this.fail(path, 'expected an array');
      return value.map((item, i) => this.single(field, item, `${path}[${i}]`, depth)).filter((v) => v !== SKIP);
    }
    return this.single(field, value, path, depth);
  }

  private mapKey(keyType: string, key: string, path: string): void {
    if (keyType === 'bool' && key !== 'true' && key !== 'false') throw this.fail(path, `map key "${key}" is not true or false`);
    if (keyType !== 'string' && keyType !== 'bool') this.integer(keyType, key, path);
  }

  private single(field: protobuf.FieldBase, value: unknown, path: string, depth: number): unknown {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) return this.messageOrSkip(resolved, value, path, depth + 1);
    if (resolved instanceof protobuf.Enum) {
      if (typeof value === 'string') return resolved.values[value] === undefined ? SKIP : value;
      return this.integer('int32', value, path);
    }
    if (INT_RANGES[field.type]) return this.integer(field.type, value, path);
    switch (field.type) {
      case 'bool':
        if (typeof value !== 'boolean') throw this.fail(path, 'expected true or false');
        return value;
      case 'string':
        if (typeof value !== 'string') throw this.fail(path, 'expected a string');
        return value;
      case 'bytes':
        if (typeof value !== 'string' || !BASE64.test(value)) throw this.fail(path, 'expected base64-encoded bytes');
        return Buffer.from(value, 'base64');
      case 'float':
      case 'double': {
        const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
        if (typeof number !== 'number' || (Number.isNaN(number) && value !== 'NaN')) throw this.fail(path, 'expected a number');
        return number;
      }
      default:
        throw new Error(`JsonReader: unsupported protobuf type ${field.type}`);
    }
  }

  /** An integer given as a number or a decimal string, checked against its type's range. */
  private integer(type: string, value: unknown, path: string): number | string {
    let big: bigint;
    if (typeof value === 'number' && Number.isInteger(value)) big = BigInt(value);
    else if (typeof value === 'string' && /^-?\d+$/.test(value)) big = BigInt(value);
    else throw this.fail(path, `expected an integer (${type})`);
    const [min, max] = INT_RANGES[type]!;
    if (big < min || big > max) throw this.fail(path, `${big} is outside the range of ${type}`);
    return WIDE.has(type) ? big.toString() : Number(big);
  }

  /**
   * `{"@type": "type.googleapis.com/pkg.Msg", …fields}`. An Any of a type
   * p4ina does not know (a vendor's extern, say) cannot be turned into bytes,
   * so it is skipped like an unknown field rather than failing the file.
   */
  private any(json: Record<string, unknown>, path: string, depth: number): Fields | typeof SKIP {
    const { '@type': url, ...rest } = json;
    if (url === undefined && Object.keys(rest).length === 0) return {};
    if (typeof url !== 'string' || !url.includes('/')) throw this.fail(path, 'a google.protobuf.Any needs "@type": "type.googleapis.com/<message>"');
    const typeName = url.slice(url.lastIndexOf('/') + 1);
    let inner: protobuf.Type;
    try {
      inner = messageType(typeName);
    } catch {
      return SKIP;
    }
    const fields = this.message(inner, rest, path, depth + 1);
    return { type_url: url, value: Buffer.from(inner.encode(inner.fromObject(fields)).finish()) };
  }
}

/** Line and column of a character offset, 1-based. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

/**
 * Parses protobuf JSON into the decoded plain-object shape p4ina uses
 * (`toObject` with CONVERSION). Throws P4InfoError (P4INFO_MALFORMED).
 */
export function parseJsonProto<T>(typeName: string, text: string, sourceName = '<json>'): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const where = at ? `${sourceName}:${position(text, Number(at[1]))}` : sourceName;
    throw new P4InfoError(P4InfoErrorCode.MALFORMED, `${where}: not valid JSON: ${message}`, { cause: error });
  }
  const type = messageType(typeName);
  const fields = new JsonReader(sourceName).message(type, json, '', 0);
  return type.toObject(type.fromObject(fields), CONVERSION) as T;
}
