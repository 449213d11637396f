/**
 * Pipeline cookies, computed as finsy does: the first 8 bytes, big-endian, of
 * SHA-256(serialised P4Info ‖ device config). The P4Info is serialised in
 * protobuf's canonical deterministic form: fields in number order, fields
 * holding their proto3 default left out, map entries sorted by key. So a
 * P4Info gives the same cookie whether it was built sparsely, parsed from a
 * file or read back from a switch with every default filled in.
 */
import { createHash } from 'node:crypto';
import protobuf from 'protobufjs';
import { encodeMessage } from '../proto/codec.js';
import { messageType } from '../proto/load.js';
import type * as p4i from '../proto/p4i.js';

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !Array.isArray(v);

const INT64_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/** True when a scalar holds its proto3 default (0, '0' for 64-bit fields, '', false, empty bytes, the enum's 0 value). */
function isDefaultScalar(field: protobuf.FieldBase, value: unknown): boolean {
  if (field.resolvedType instanceof protobuf.Enum) return value === 0 || value === field.resolvedType.valuesById[0];
  if (value instanceof Uint8Array) return value.length === 0;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value === 0;
  if (typeof value === 'string') return value === '' || (INT64_TYPES.has(field.type) && value === '0');
  return String(value) === '0'; // a Long
}

/** The message with every default-valued scalar and empty list removed and map keys sorted, by the type's reflection. */
function canonicalMessage(type: protobuf.Type, message: Plain): Plain {
  const out: Plain = {};
  for (const field of type.fieldsArray) {
    const value = message[field.name];
    if (value === undefined || value === null) continue;
    const sub = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    const canon = (v: unknown): unknown => (sub && isPlain(v) ? canonicalMessage(sub, v) : v);
    if (field.map) {
      const keys = Object.keys(value as Plain).sort();
      if (keys.length) out[field.name] = Object.fromEntries(keys.map((k) => [k, canon((value as Plain)[k])]));
    } else if (field.repeated) {
      if ((value as unknown[]).length) out[field.name] = (value as unknown[]).map(canon);
    } else if (sub || field.partOf) {
      out[field.name] = canon(value); // presence matters for sub-messages and oneof members
    } else if (!isDefaultScalar(field, value)) {
      out[field.name] = value;
    }
  }
  return out;
}

/** The deterministic binary form of a P4Info. */
export function canonicalP4InfoBytes(p4info: p4i.P4Info): Buffer {
  const type = messageType('p4.config.v1.P4Info');
  return Buffer.from(encodeMessage('p4.config.v1.P4Info', canonicalMessage(type, p4info as Plain)));
}

/** The cookie of a pipeline: SHA-256(p4infoBytes ‖ deviceConfig)[0..8] as an unsigned 64-bit integer. */
export function pipelineCookie(p4infoBytes: Uint8Array, deviceConfig: Uint8Array): bigint {
  const digest = createHash('sha256').update(p4infoBytes).update(deviceConfig).digest();
  return digest.readBigUInt64BE(0);
}
