/**
 * Checks a PacketOut against the program's `packet_out` controller header
 * (spec §"Packet I/O"): exactly one metadata entry per header field, ids the
 * header declares, values that fit the field widths (zero-padded values are
 * accepted and made canonical). A program without the header takes PacketOuts
 * without metadata.
 */
import { canonicalize } from '../../p4info/bytestring.js';
import type { ControllerHeaderInfo } from '../../p4info/entities.js';
import type * as p4r from '../../proto/p4r.js';

export type PacketOutCheck =
  | { ok: true; /** Field name → canonical value, in header order. */ metadata: Map<string, Buffer> }
  | { ok: false; message: string };

export function checkPacketOut(header: ControllerHeaderInfo | undefined, packet: p4r.PacketOut__Output): PacketOutCheck {
  if (!header) {
    if (packet.metadata.length === 0) return { ok: true, metadata: new Map() };
    return { ok: false, message: 'the program declares no @controller_header("packet_out") header, so a PacketOut takes no metadata' };
  }
  const values = new Map<number, Buffer>();
  for (const entry of packet.metadata) {
    const field = header.metadata.find(entry.metadata_id);
    if (!field) {
      const known = header.metadata.all.map((f) => `${f.id} (${f.name})`).join(', ');
      return { ok: false, message: `PacketOut metadata id ${entry.metadata_id} is not a field of packet_out; its fields are ${known}` };
    }
    if (values.has(field.id)) return { ok: false, message: `PacketOut metadata ${field.name} (id ${field.id}) is given twice; give it once` };
    const value = canonicalize(entry.value, field.bitwidth);
    if (value === 'empty') return { ok: false, message: `PacketOut metadata ${field.name} is an empty bytestring; give at least one byte` };
    if (value === 'too-wide') {
      return { ok: false, message: `PacketOut metadata ${field.name} = 0x${entry.value.toString('hex')} does not fit its ${field.bitwidth} bits` };
    }
    values.set(field.id, value);
  }
  const missing = header.metadata.all.filter((f) => !values.has(f.id));
  if (missing.length > 0) {
    return { ok: false, message: `PacketOut lacks metadata ${missing.map((f) => `${f.name} (id ${f.id})`).join(', ')}; every packet_out field needs exactly one entry` };
  }
  return { ok: true, metadata: new Map(header.metadata.all.map((f) => [f.name, values.get(f.id)!])) };
}
