/**
 * What the text and JSON writers share about protobufjs reflection: fields in
 * field-number order, which fields count as set under proto3's rules, and the
 * message inside a google.protobuf.Any.
 */
import protobuf from 'protobufjs';
import { CONVERSION, messageType } from '../../proto/load.js';

/** A decoded message: the plain-object shape of `toObject(…, CONVERSION)`. */
export type Fields = Record<string, unknown>;

const byNumber = new WeakMap<protobuf.Type, readonly protobuf.FieldBase[]>();

/** The fields of `type` in field-number order, the order protobuf's writers use. */
export function fieldsByNumber(type: protobuf.Type): readonly protobuf.FieldBase[] {
  let fields = byNumber.get(type);
  if (!fields) {
    fields = [...type.fieldsArray].sort((a, b) => a.id - b.id);
    byNumber.set(type, fields);
  }
  return fields;
}

export const isAnyType = (type: protobuf.Type): boolean => type.fullName === '.google.protobuf.Any';

/** Whether a scalar value is proto3's default for its field (and so is not written). */
export function isDefaultScalar(field: protobuf.FieldBase, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (field.resolvedType instanceof protobuf.Enum) return value === 0 || value === field.resolvedType.valuesById[0];
  switch (field.type) {
    case 'string':
      return value === '';
    case 'bytes':
      return value instanceof Uint8Array && value.length === 0;
    case 'bool':
      return value === false;
    case 'float':
    case 'double':
      // -0 is not the default: its bits differ, and protobuf writes it.
      return Object.is(value, 0);
    default:
      return value === 0 || value === '0';
  }
}

/**
 * Whether a non-repeated field of a decoded message is set: a oneof member
 * when the oneof's virtual field names it, a message field when present (even
 * if empty), a plain scalar when it differs from the default.
 */
export function isSet(field: protobuf.FieldBase, message: Fields): boolean {
  if (field.partOf) return message[field.partOf.name] === field.name;
  if (field.resolvedType instanceof protobuf.Type) return message[field.name] !== null && message[field.name] !== undefined;
  return !isDefaultScalar(field, message[field.name]);
}

/** The message inside a decoded Any, when its type is one p4ina knows and its bytes decode. */
export function expandAny(any: Fields): { url: string; type: protobuf.Type; fields: Fields } | undefined {
  const url = typeof any.type_url === 'string' ? any.type_url : '';
  if (!url.includes('/')) return undefined;
  try {
    const type = messageType(url.slice(url.lastIndexOf('/') + 1));
    const bytes = any.value instanceof Uint8Array ? any.value : new Uint8Array();
    return { url, type, fields: type.toObject(type.decode(bytes), CONVERSION) };
  } catch {
    return undefined;
  }
}
