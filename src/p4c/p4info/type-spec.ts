/**
 * @fileoverview P4DataTypeSpec for a semantic type, and the type_info
 * entries (structs, headers) it needs, as p4c's TypeSpecConverter writes them.
 */
import type * as p4i from '../../proto/p4i.js';
import { annotationBodyText, findAnnotation, type Annotation } from '../ast/annotations.js';
import type { Expression } from '../ast/expressions.js';
import { bitWidth, underlying, type EnumP4Type, type NewP4Type, type P4Type, type StructP4Type } from '../semantics/p4-types.js';
import { p4infoAnnotations } from '../control-plane/names.js';

export interface TypeInfoBuilder {
  readonly structs: Map<string, p4i.P4StructTypeSpec>;
  readonly headers: Map<string, p4i.P4HeaderTypeSpec>;
  readonly headerUnions: Map<string, p4i.P4HeaderUnionTypeSpec>;
  readonly enums: Map<string, p4i.P4EnumTypeSpec>;
  readonly serializableEnums: Map<string, p4i.P4SerializableEnumTypeSpec>;
  readonly newTypes: Map<string, p4i.P4NewTypeSpec>;
  /** type_info.error, once a type spec has used `error`. */
  error: p4i.P4ErrorTypeSpec | null;
  /** The value of a serializable enum member's initializer (folded by the front end). */
  readonly constantOf: (value: Expression) => bigint | undefined;
  /** Every `error` member of the program, core.p4's first (type_info.error lists them all). */
  readonly errorMembers: readonly string[];
}

export function newTypeInfo(constantOf: (value: Expression) => bigint | undefined = () => undefined, errorMembers: readonly string[] = []): TypeInfoBuilder {
  return { structs: new Map(), headers: new Map(), headerUnions: new Map(), enums: new Map(), serializableEnums: new Map(), newTypes: new Map(), error: null, constantOf, errorMembers };
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
  recordNewType(type, info);
  const translated = info.newTypes.get(type.name)?.translated_type;
  const bitwidth = translated ? (translated.sdn_string ? 0 : Number(translated.sdn_bitwidth ?? 0)) : (bitWidth(type) ?? 0);
  return { bitwidth, type_name: { name: type.name } };
}

/** A declaration's control-plane name: its `@name` (without a leading dot), else `name`. */
function declName(name: string, annotations: readonly Annotation[] | undefined): string {
  const a = annotations ? findAnnotation(annotations, 'name') : undefined;
  if (!a) return name;
  const text = annotationBodyText(a).trim().replace(/^"|"$/g, '');
  return text.startsWith('.') ? text.slice(1) : text;
}

/** A struct's, header's or enum's control-plane name (its `@name`, else its name), as type_info keys it. */
export function typeControlPlaneName(t: StructP4Type | EnumP4Type): string {
  return declName(t.name, t.decl?.annotations);
}

/** A struct field's or header field's control-plane name. */
function fieldName(t: StructP4Type, field: string): string {
  return declName(field, t.decl?.fields.find((f) => f.name.text === field)?.annotations);
}

function bitstring(type: P4Type): p4i.P4BitstringLikeTypeSpec {
  const u = underlying(type);
  if (u.kind === 'bits') return u.signed ? { int: { bitwidth: u.width } } : { bit: { bitwidth: u.width } };
  if (u.kind === 'varbit') return { varbit: { max_bitwidth: u.maxWidth } };
  return { bit: { bitwidth: bitWidth(u) ?? 0 } };
}

/**
 * The P4DataTypeSpec of a type, recording in type_info what it names, as p4c's
 * TypeSpecConverter: structs, headers (bitstring members), header unions,
 * stacks, enums, serializable enums, `error` (type_info.error lists every
 * member), and a `type` as `new_type` (with its type_info.new_types entry).
 */
export function typeSpec(type: P4Type, info: TypeInfoBuilder): p4i.P4DataTypeSpec {
  if (type.kind === 'newtype') {
    recordNewType(type, info);
    return { new_type: { name: type.name } };
  }
  const t = type;
  switch (t.kind) {
    case 'bits':
    case 'varbit':
      return { bitstring: bitstring(t) };
    case 'bool':
      return { bool: {} };
    case 'error':
      if (!info.error) info.error = info.errorMembers.length > 0 ? { members: [...info.errorMembers] } : {};
      return { error: {} };
    case 'tuple':
      return { tuple: { members: t.elements.map((e) => typeSpec(e, info)) } };
    case 'struct': {
      const name = declName(t.name, t.decl?.annotations);
      if (!info.structs.has(name)) {
        info.structs.set(name, {});
        info.structs.set(name, { members: t.fields.map((f) => ({ name: fieldName(t, f.name), type_spec: typeSpec(f.type, info) })) });
      }
      return { struct: { name } };
    }
    case 'header':
      return { header: { name: recordHeader(t, info) } };
    case 'union': {
      const name = declName(t.name, t.decl?.annotations);
      if (!info.headerUnions.has(name)) {
        info.headerUnions.set(name, {});
        info.headerUnions.set(name, {
          members: t.fields.map((f) => ({ name: fieldName(t, f.name), header: { name: f.type.kind === 'header' ? recordHeader(f.type, info) : '' } })),
        });
      }
      return { header_union: { name } };
    }
    case 'stack': {
      const element = t.element;
      if (element.kind === 'union') {
        const spec = typeSpec(element, info);
        return { header_union_stack: { header_union: spec.header_union!, size: t.size } };
      }
      if (element.kind === 'header') return { header_stack: { header: { name: recordHeader(element, info) }, size: t.size } };
      return {};
    }
    case 'enum':
      return enumSpec(t, info);
    default:
      return {};
  }
}

function recordHeader(t: StructP4Type, info: TypeInfoBuilder): string {
  const name = declName(t.name, t.decl?.annotations);
  if (!info.headers.has(name)) info.headers.set(name, { members: t.fields.map((f) => ({ name: fieldName(t, f.name), type_spec: bitstring(f.type) })) });
  return name;
}

/** type_info.new_types for a `type`: its translation, or the spec of the type at the end of its chain; its other annotations. */
function recordNewType(type: NewP4Type, info: TypeInfoBuilder): void {
  if (info.newTypes.has(type.name)) return;
  const translation = type.decl ? findAnnotation(type.decl.annotations, 'p4runtime_translation') : undefined;
  let spec: p4i.P4NewTypeSpec;
  if (translation) {
    const text = annotationBodyText(translation);
    const comma = text.indexOf(',');
    const uri = (comma < 0 ? text : text.slice(0, comma)).trim().replace(/^"|"$/g, '');
    const sdn = comma < 0 ? '' : text.slice(comma + 1).trim();
    const width = /^\d+$/.test(sdn) ? Number(sdn) : /^bit\s*<\s*(\d+)\s*>$/.exec(sdn)?.[1];
    spec = sdn === 'string' ? { translated_type: { uri, sdn_string: {} } } : { translated_type: { uri, sdn_bitwidth: width === undefined ? (bitWidth(type) ?? 0) : Number(width) } };
  } else {
    spec = { original_type: typeSpec(underlying(type), info) };
  }
  const annotations = type.decl ? p4infoAnnotations(type.decl.annotations.filter((a) => a.name.text !== 'p4runtime_translation')) : [];
  if (annotations.length > 0) spec = { annotations, ...spec };
  info.newTypes.set(type.name, spec);
}

/** `enum E` → type_info.enums (member names); `enum bit<W> E` → type_info.serializable_enums (values as W-bit bytes). */
function enumSpec(t: EnumP4Type, info: TypeInfoBuilder): p4i.P4DataTypeSpec {
  const name = declName(t.name, t.decl.annotations);
  if (!t.underlying) {
    if (!info.enums.has(name)) info.enums.set(name, { members: t.members.map((member) => ({ name: member })) });
    return { enum: { name } };
  }
  const width = t.underlying.width;
  if (!info.serializableEnums.has(name)) {
    info.serializableEnums.set(name, {
      underlying_type: { bitwidth: width },
      members: t.decl.members.map((m) => {
        const value = m.value ? (info.constantOf(m.value) ?? 0n) : 0n;
        return { name: m.name.text, value: widthBytes(BigInt.asUintN(width, value), width) };
      }),
    });
  }
  return { serializable_enum: { name } };
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
  if (info.headerUnions.size > 0) message.header_unions = Object.fromEntries(info.headerUnions);
  if (info.enums.size > 0) message.enums = Object.fromEntries(info.enums);
  if (info.error) message.error = info.error;
  if (info.serializableEnums.size > 0) message.serializable_enums = Object.fromEntries(info.serializableEnums);
  if (info.newTypes.size > 0) message.new_types = Object.fromEntries(info.newTypes);
  return message;
}
