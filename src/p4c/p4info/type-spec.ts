/**
 * @fileoverview P4DataTypeSpec for a semantic type, and the type_info
 * entries (structs, headers) it needs, as p4c's TypeSpecConverter writes them.
 */
import type * as p4i from '../../proto/p4i.js';
import { annotationBodyText, findAnnotation } from '../ast/annotations.js';
import type { Expression } from '../ast/expressions.js';
import { bitWidth, underlying, type EnumP4Type, type P4Type } from '../semantics/p4-types.js';

export interface TypeInfoBuilder {
  readonly structs: Map<string, p4i.P4StructTypeSpec>;
  readonly headers: Map<string, p4i.P4HeaderTypeSpec>;
  readonly enums: Map<string, p4i.P4EnumTypeSpec>;
  readonly serializableEnums: Map<string, p4i.P4SerializableEnumTypeSpec>;
  readonly newTypes: Map<string, p4i.P4NewTypeSpec>;
  /** The value of a serializable enum member's initializer (folded by the front end). */
  readonly constantOf: (value: Expression) => bigint | undefined;
}

export function newTypeInfo(constantOf: (value: Expression) => bigint | undefined = () => undefined): TypeInfoBuilder {
  return { structs: new Map(), headers: new Map(), enums: new Map(), serializableEnums: new Map(), newTypes: new Map(), constantOf };
}

/**
 * `bitwidth` and `type_name` of a match field, action parameter or packet
 * metadata field: a `type` (not `typedef`) name is named and described in
 * type_info.new_types, translated when it carries `@p4runtime_translation`.
 */
export function namedBitwidth(type: P4Type, info: TypeInfoBuilder): { bitwidth: number; type_name?: p4i.P4NamedType } {
  if (type.kind !== 'newtype') {
    // p4c converts the type (recording a serializable enum in type_info) but names only `type`s.
    if (type.kind === 'enum') typeSpec(type, info);
    return { bitwidth: bitWidth(type) ?? 0 };
  }
  const translation = type.decl ? findAnnotation(type.decl.annotations, 'p4runtime_translation') : undefined;
  let bitwidth = bitWidth(type) ?? 0;
  let spec: p4i.P4NewTypeSpec;
  if (translation) {
    const text = annotationBodyText(translation);
    const comma = text.indexOf(',');
    const uri = (comma < 0 ? text : text.slice(0, comma)).trim().replace(/^"|"$/g, '');
    const sdn = comma < 0 ? '' : text.slice(comma + 1).trim();
    const width = /^\d+$/.test(sdn) ? Number(sdn) : /^bit\s*<\s*(\d+)\s*>$/.exec(sdn)?.[1];
    if (sdn === 'string') {
      bitwidth = 0;
      spec = { translated_type: { uri, sdn_string: {} } };
    } else {
      bitwidth = width === undefined ? bitwidth : Number(width);
      spec = { translated_type: { uri, sdn_bitwidth: bitwidth } };
    }
  } else {
    spec = { original_type: typeSpec(type.base, info) };
  }
  if (!info.newTypes.has(type.name)) info.newTypes.set(type.name, spec);
  return { bitwidth, type_name: { name: type.name } };
}

export function typeSpec(type: P4Type, info: TypeInfoBuilder): p4i.P4DataTypeSpec {
  const t = underlying(type);
  switch (t.kind) {
    case 'bits':
      return { bitstring: t.signed ? { int: { bitwidth: t.width } } : { bit: { bitwidth: t.width } } };
    case 'varbit':
      return { bitstring: { varbit: { max_bitwidth: t.maxWidth } } };
    case 'bool':
      return { bool: {} };
    case 'error':
      return { error: {} };
    case 'tuple':
      return { tuple: { members: t.elements.map((e) => typeSpec(e, info)) } };
    case 'struct':
      if (!info.structs.has(t.name)) {
        info.structs.set(t.name, {});
        info.structs.set(t.name, { members: t.fields.map((f) => ({ name: f.name, type_spec: typeSpec(f.type, info) })) });
      }
      return { struct: { name: t.name } };
    case 'header':
      if (!info.headers.has(t.name)) {
        info.headers.set(t.name, {
          members: t.fields.map((f) => {
            const u = underlying(f.type);
            return { name: f.name, type_spec: u.kind === 'bits' ? (u.signed ? { int: { bitwidth: u.width } } : { bit: { bitwidth: u.width } }) : { bit: { bitwidth: 0 } } };
          }),
        });
      }
      return { header: { name: t.name } };
    case 'enum':
      return enumSpec(t, info);
    default:
      return {};
  }
}

/** `enum E` → type_info.enums (member names); `enum bit<W> E` → type_info.serializable_enums (values as W-bit bytes). */
function enumSpec(t: EnumP4Type, info: TypeInfoBuilder): p4i.P4DataTypeSpec {
  if (!t.underlying) {
    if (!info.enums.has(t.name)) info.enums.set(t.name, { members: t.members.map((name) => ({ name })) });
    return { enum: { name: t.name } };
  }
  const width = t.underlying.width;
  if (!info.serializableEnums.has(t.name)) {
    info.serializableEnums.set(t.name, {
      underlying_type: { bitwidth: width },
      members: t.decl.members.map((m) => {
        const value = m.value ? (info.constantOf(m.value) ?? 0n) : 0n;
        return { name: m.name.text, value: widthBytes(BigInt.asUintN(width, value), width) };
      }),
    });
  }
  return { serializable_enum: { name: t.name } };
}

/** `value` big-endian in ceil(width / 8) bytes, as p4c writes enum member values. */
export function widthBytes(value: bigint, width: number): Buffer {
  const out = Buffer.alloc(Math.max(1, Math.ceil(width / 8)));
  let v = value;
  for (let i = out.length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export function typeInfoMessage(info: TypeInfoBuilder): p4i.P4TypeInfo {
  const message: p4i.P4TypeInfo = {};
  if (info.structs.size > 0) message.structs = Object.fromEntries(info.structs);
  if (info.headers.size > 0) message.headers = Object.fromEntries(info.headers);
  if (info.enums.size > 0) message.enums = Object.fromEntries(info.enums);
  if (info.serializableEnums.size > 0) message.serializable_enums = Object.fromEntries(info.serializableEnums);
  if (info.newTypes.size > 0) message.new_types = Object.fromEntries(info.newTypes);
  return message;
}
