/**
 * PacketIn and PacketOut metadata by name, from the program's
 * `@controller_header("packet_in"/"packet_out")` headers. PacketIn metadata
 * decodes to P4Numbers keyed by field name (by id, as a string, for fields
 * the P4Info does not know). A PacketOut needs every field of packet_out
 * (spec §16.1); fields whose names start with `_` (padding, by convention)
 * default to 0, any other missing field is an error.
 */
import { P4inaError } from '../errors/p4ina-error.js';
import type * as p4r from '../proto/p4r.js';
import { encodeValue, type P4Schema, type ValueInput } from '../p4info/index.js';
import { inContext } from './entities/entity-error.js';
import { bytesToP4Number, type P4Number } from './entities/values.js';

export class P4PacketError extends P4inaError {}

export const PacketErrorCode = {
  /** Metadata given but the program has no packet_out controller header. */
  NO_HEADER: 'PACKET_OUT_NO_HEADER',
  /** A packet_out field without a value. */
  MISSING_METADATA: 'PACKET_OUT_MISSING_METADATA',
} as const;

export interface PacketIn {
  readonly payload: Buffer;
  readonly metadata: Readonly<Record<string, P4Number>>;
}

export function decodePacketIn(msg: p4r.PacketIn__Output, schema: P4Schema | undefined): PacketIn {
  const header = schema?.packetHeader('packet_in');
  const metadata: Record<string, P4Number> = {};
  for (const m of msg.metadata) {
    const field = header?.metadata.find(m.metadata_id);
    metadata[field?.name ?? String(m.metadata_id)] = bytesToP4Number(m.value, field?.bitwidth);
  }
  return { payload: msg.payload, metadata };
}

export function encodePacketOut(payload: Uint8Array, metadata: Readonly<Record<string, ValueInput>>, schema: P4Schema | undefined): p4r.PacketOut {
  const header = schema?.packetHeader('packet_out');
  if (!header) {
    if (Object.keys(metadata).length) {
      throw new P4PacketError(PacketErrorCode.NO_HEADER, 'the program has no @controller_header("packet_out") header (or no P4Info is loaded): send the packet without metadata');
    }
    return { payload: Buffer.from(payload), metadata: [] };
  }
  const values = new Map<number, ValueInput>();
  for (const [name, value] of Object.entries(metadata)) values.set(inContext('packet_out', () => header.metadata.get(name)).id, value);
  const encoded = header.metadata.all.map((field) => {
    const value = values.get(field.id) ?? (field.name.startsWith('_') ? 0 : undefined);
    if (value === undefined) throw new P4PacketError(PacketErrorCode.MISSING_METADATA, `packet_out field ${field.name} needs a value`);
    return { metadata_id: field.id, value: inContext(`packet_out field ${field.name}`, () => encodeValue(value, field.bitwidth)) };
  });
  return { payload: Buffer.from(payload), metadata: encoded };
}
