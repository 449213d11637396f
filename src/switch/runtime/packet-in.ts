/**
 * Builds the PacketIn message for a packet the data plane sends to the CPU:
 * metadata by field id or name of the program's `packet_in` controller
 * header, each value made canonical. The data plane derives these from the
 * same P4Info, so a mismatch is a programming error and throws RangeError.
 */
import { canonicalize } from '../../p4info/bytestring.js';
import type { ControllerHeaderInfo } from '../../p4info/entities.js';
import type * as p4r from '../../proto/p4r.js';

export function buildPacketIn(
  header: ControllerHeaderInfo | undefined,
  payload: Buffer,
  metadata: ReadonlyMap<number | string, Uint8Array>,
): p4r.PacketIn {
  if (!header) {
    if (metadata.size > 0) throw new RangeError('PacketIn metadata given, but the program has no @controller_header("packet_in") header');
    return { payload, metadata: [] };
  }
  const values = new Map<number, Buffer>();
  for (const [key, raw] of metadata) {
    const field = header.metadata.find(key);
    if (!field) throw new RangeError(`PacketIn metadata ${String(key)} is not a field of packet_in`);
    if (values.has(field.id)) throw new RangeError(`PacketIn metadata ${field.name} given twice`);
    const value = canonicalize(raw, field.bitwidth);
    if (typeof value === 'string') throw new RangeError(`PacketIn metadata ${field.name} is ${value} for ${field.bitwidth} bits`);
    values.set(field.id, value);
  }
  const missing = header.metadata.all.filter((f) => !values.has(f.id));
  if (missing.length > 0) throw new RangeError(`PacketIn metadata lacks ${missing.map((f) => f.name).join(', ')}`);
  return { payload, metadata: header.metadata.all.map((f) => ({ metadata_id: f.id, value: values.get(f.id)! })) };
}
