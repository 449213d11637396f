/**
 * P4Data values (register cells, digest lists) in a readable form, guided by
 * the P4Info type spec:
 * - bit<W> / int<W> bitstrings ↔ P4Number (int<W> is read as its unsigned
 *   two's-complement bits);
 * - bool ↔ boolean;
 * - struct ↔ object by member name (when the P4Info names the struct);
 * - tuple ↔ array.
 * Anything else (headers, unions, stacks, enums, varbits) decodes to a
 * `RawP4Data` holding the message, which encodes back unchanged.
 */
import type * as p4i from '../../proto/p4i.js';
import type * as p4r from '../../proto/p4r.js';
import { bigIntToBytes, encodeValue, parseValue, type P4Schema, type ValueInput } from '../../p4info/index.js';
import { EntityErrorCode, entityError, inContext } from './entity-error.js';
import { bytesToP4Number } from './values.js';

/** A P4Data kind this library leaves as a message. */
export class RawP4Data {
  constructor(readonly message: p4r.P4Data) {}
}

export type P4DataValue = ValueInput | boolean | RawP4Data | readonly P4DataValue[] | { readonly [member: string]: P4DataValue };

type TypeSpec = p4i.P4DataTypeSpec__Output | null | undefined;

/** The width of a bit<W>/int<W> spec, else undefined. */
export function bitstringWidth(spec: TypeSpec): number | undefined {
  if (spec?.type_spec !== 'bitstring' || !spec.bitstring) return undefined;
  const bs = spec.bitstring;
  return bs.type_spec === 'bit' ? bs.bit?.bitwidth : bs.type_spec === 'int' ? bs.int?.bitwidth : undefined;
}

function structMembers(spec: TypeSpec, schema: P4Schema | undefined): p4i._p4_config_v1_P4StructTypeSpec_Member__Output[] | undefined {
  if (spec?.type_spec !== 'struct' || !spec.struct) return undefined;
  return schema?.p4info.type_info?.structs[spec.struct.name]?.members;
}

function isPlainObject(value: P4DataValue): value is { readonly [member: string]: P4DataValue } {
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && !(value instanceof RawP4Data) && !Array.isArray(value);
}

/** The P4Data message of a value of type `spec` (null when the P4Info gives no type). */
export function encodeP4Data(value: P4DataValue, spec: TypeSpec, schema: P4Schema): p4r.P4Data {
  if (value instanceof RawP4Data) return value.message;
  if (typeof value === 'boolean') return { bool: value };
  if (Array.isArray(value)) {
    const specs = spec?.type_spec === 'tuple' ? spec.tuple?.members : undefined;
    return { tuple: { members: value.map((v: P4DataValue, i) => inContext(`member ${i}`, () => encodeP4Data(v, specs?.[i], schema))) } };
  }
  if (isPlainObject(value)) {
    const members = structMembers(spec, schema);
    if (!members) throw entityError(EntityErrorCode.UNSUPPORTED_TYPE, 'a struct value needs a struct type in the P4Info');
    return {
      struct: {
        members: members.map((m) => {
          const v = value[m.name];
          if (v === undefined) throw entityError(EntityErrorCode.MISSING_VALUE, `struct member ${m.name} is missing`);
          return inContext(`member ${m.name}`, () => encodeP4Data(v, m.type_spec, schema));
        }),
      },
    };
  }
  const width = bitstringWidth(spec);
  if (width !== undefined) return { bitstring: encodeValue(value as ValueInput, width) };
  if (spec && spec.type_spec !== 'bitstring' && spec.type_spec !== 'new_type' && spec.type_spec !== 'serializable_enum') {
    throw entityError(EntityErrorCode.UNSUPPORTED_TYPE, `cannot encode a plain value as a P4 ${spec.type_spec}; pass a RawP4Data`);
  }
  // Type unknown (or a named type we do not resolve): the canonical bitstring of the value.
  return { bitstring: bigIntToBytes(parseValue(value as ValueInput)) };
}

/** The readable value of a P4Data message of type `spec` (structs need the schema for member names). */
export function decodeP4Data(data: p4r.P4Data__Output, spec: TypeSpec, schema: P4Schema | undefined): P4DataValue {
  switch (data.data) {
    case 'bitstring':
      return bytesToP4Number(data.bitstring!, bitstringWidth(spec));
    case 'bool':
      return data.bool!;
    case 'tuple': {
      const specs = spec?.type_spec === 'tuple' ? spec.tuple?.members : undefined;
      return data.tuple!.members.map((m, i) => decodeP4Data(m, specs?.[i], schema));
    }
    case 'struct': {
      const members = structMembers(spec, schema);
      const values = data.struct!.members;
      if (!members || members.length !== values.length) return new RawP4Data(data);
      return Object.fromEntries(members.map((m, i) => [m.name, decodeP4Data(values[i]!, m.type_spec, schema)]));
    }
    default:
      return new RawP4Data(data);
  }
}
