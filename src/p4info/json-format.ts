/**
 * Protobuf's canonical JSON mapping, as p4c writes a .json P4Info
 * (MessageToJsonString with add_whitespace): lowerCamelCase names
 * (`matchFields`), 64-bit integers as strings (`"size": "1024"`), bytes in
 * base64, enums by name, proto3 defaults left out, fields in field-number
 * order, one space of indentation per level. The reader is in json-reader.ts.
 */
import protobuf from 'protobufjs';
import { CONVERSION, messageType } from '../proto/load.js';
import { jsonName } from './json-reader.js';
import { P4InfoError, P4InfoErrorCode } from './lookup-error.js';
import { expandAny, fieldsByNumber, isAnyType, isSet, type Fields } from './text-format/reflection.js';

export { jsonName, parseJsonProto } from './json-reader.js';

function scalarJson(field: protobuf.FieldBase, value: unknown): unknown {
  if (field.resolvedType instanceof protobuf.Enum) return value;
  switch (field.type) {
    case 'bytes':
      return Buffer.from(value as Uint8Array).toString('base64');
    case 'float':
    case 'double': {
      const n = Number(value);
      if (Number.isNaN(n)) return 'NaN';
      if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
      return n;
    }
    default:
      // 64-bit integers are already decimal strings in the decoded shape; the rest are numbers, booleans, strings.
      return value;
  }
}

function valueJson(field: protobuf.FieldBase, value: unknown): unknown {
  return field.resolvedType instanceof protobuf.Type ? messageJson(field.resolvedType, (value ?? {}) as Fields) : scalarJson(field, value);
}

function messageJson(type: protobuf.Type, message: Fields): Fields {
  if (isAnyType(type)) {
    if (!message.type_url && !(message.value as Uint8Array | undefined)?.length) return {};
    const expanded = expandAny(message);
    if (!expanded) {
      throw new P4InfoError(
        P4InfoErrorCode.MALFORMED,
        `cannot write a google.protobuf.Any of type "${String(message.type_url)}" as JSON: p4ina does not know that type (write text or binary instead)`,
      );
    }
    return { '@type': expanded.url, ...messageJson(expanded.type, expanded.fields) };
  }
  const out: Fields = {};
  for (const field of fieldsByNumber(type)) {
    const value = message[field.name];
    const name = jsonName(field.name);
    if (field instanceof protobuf.MapField) {
      const entries = Object.entries((value ?? {}) as Fields);
      if (entries.length) out[name] = Object.fromEntries(entries.map(([k, v]) => [k, valueJson(field, v)]));
    } else if (field.repeated) {
      const items = (value ?? []) as unknown[];
      if (items.length) out[name] = items.map((v) => valueJson(field, v));
    } else if (isSet(field, message)) {
      out[name] = valueJson(field, value);
    }
  }
  return out;
}

/**
 * A message as protobuf canonical JSON, laid out as protobuf's printer lays it
 * out with whitespace on (one-space indentation), ending with a newline.
 */
export function formatJsonProto(typeName: string, value: object): string {
  const type = messageType(typeName);
  const message = type.toObject(type.fromObject(value as Fields), CONVERSION);
  return JSON.stringify(messageJson(type, message), null, 1) + '\n';
}
