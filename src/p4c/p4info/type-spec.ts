/**
 * @fileoverview P4DataTypeSpec for a semantic type, and the type_info
 * entries (structs, headers) it needs, as p4c's TypeSpecConverter writes them.
 */
import type * as p4i from '../../proto/p4i.js';
import { annotationBodyText, findAnnotation } from '../ast/annotations.js';
import { bitWidth, underlying, type P4Type } from '../semantics/p4-types.js';

export interface TypeInfoBuilder {
  readonly structs: Map<string, p4i.P4StructTypeSpec>;
  readonly headers: Map<string, p4i.P4HeaderTypeSpec>;
  readonly newTypes: Map<string, p4i.P4NewTypeSpec>;
}

export function newTypeInfo(): TypeInfoBuilder {
  return { structs: new Map(), headers: new Map(), newTypes: new Map() };
}

/**
 * `bitwidth` and `type_name` of a match field, action parameter or packet
 * metadata field: a `type` (not `typedef`) name is named and described in
 * type_info.new_types, translated when it carries `@p4runtime_translation`.
 */
export function namedBitwidth(type: P4Type, info: TypeInfoBuilder): { bitwidth: number; type_name?: p4i.P4NamedType } {
  if (type.kind !== 'newtype') return { bitwidth: bitWidth(type) ?? 0 };
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
    default:
      return {};
  }
}

export function typeInfoMessage(info: TypeInfoBuilder): p4i.P4TypeInfo {
  const message: p4i.P4TypeInfo = {};
  if (info.structs.size > 0) message.structs = Object.fromEntries(info.structs);
  if (info.headers.size > 0) message.headers = Object.fromEntries(info.headers);
  if (info.newTypes.size > 0) message.new_types = Object.fromEntries(info.newTypes);
  return message;
}
