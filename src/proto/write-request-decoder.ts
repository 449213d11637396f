/**
 * A decoder for the WriteRequests that carry table entries, the bulk of what
 * controllers write. proto-loader's decoder makes protobufjs message objects
 * and then copies them into plain objects (`toObject`, with every default);
 * for a batch of a thousand entries that double work is most of what the
 * switch spends on a Write before it looks at an entry. This one reads the
 * wire format straight into the same plain objects (`WriteRequest__Output`,
 * the shape, defaults and key order `toObject` gives under load.ts's
 * conversion options).
 *
 * It reads table entries (table-entry-decoder.ts) with exact, LPM, ternary,
 * range and optional matches and direct or action-profile (member, group)
 * actions. Any other entity or field, an unknown field, an unexpected wire
 * type, two members of one oneof or a malformed varint or length makes it
 * hand the request to the generic decoder instead, so the result is
 * protobufjs's whenever it reads something else than the common case.
 */
import type * as p4r from './p4r.js';
import { decodeTableEntry } from './table-entry-decoder.js';
import { key, LEN, NOT_PLAIN, VARINT, WireReader } from './wire-reader.js';

const UPDATE_TYPES = ['UNSPECIFIED', 'INSERT', 'MODIFY', 'DELETE'] as const;
const ATOMICITIES = ['CONTINUE_ON_ERROR', 'ROLLBACK_ON_ERROR', 'DATAPLANE_ATOMIC'] as const;

/** An enum's name, or the number itself when the proto names no such value (as protobufjs's toObject does). */
function enumValue<T extends string>(names: readonly T[], n: number): T {
  return (names[n] ?? n) as T;
}

/** Decodes `bytes` with this decoder, or with `generic` when the request is not one it reads. */
export function writeRequestDeserializer(generic: (bytes: Buffer) => p4r.WriteRequest__Output): (bytes: Buffer) => p4r.WriteRequest__Output {
  return (bytes) => {
    try {
      return decodeWriteRequest(bytes);
    } catch {
      // NOT_PLAIN, or anything unforeseen: protobufjs decides (and reports malformed bytes).
      return generic(bytes);
    }
  };
}

/** Throws NOT_PLAIN when the request is not one this decoder reads. */
export function decodeWriteRequest(bytes: Buffer): p4r.WriteRequest__Output {
  const r = new WireReader(bytes);
  const updates: p4r.Update__Output[] = [];
  let deviceId = '0';
  let roleId = '0';
  let electionId: p4r.Uint128__Output | null = null;
  let atomicity: p4r.WriteRequest__Output['atomicity'] = 'CONTINUE_ON_ERROR';
  let role = '';
  while (r.pos < r.end) {
    switch (r.varint32()) {
      case key(1, VARINT):
        deviceId = r.varint64(false);
        break;
      case key(2, VARINT):
        roleId = r.varint64(false);
        break;
      case key(3, LEN):
        electionId = uint128(r);
        break;
      case key(4, LEN):
        updates.push(update(r));
        break;
      case key(5, VARINT):
        atomicity = enumValue(ATOMICITIES, r.int32());
        break;
      case key(6, LEN):
        role = r.string();
        break;
      default:
        throw NOT_PLAIN;
    }
  }
  return { updates, device_id: deviceId, role_id: roleId, election_id: electionId, atomicity, role };
}

function uint128(r: WireReader): p4r.Uint128__Output {
  const outer = r.enter();
  let high = '0';
  let low = '0';
  while (r.pos < r.end) {
    switch (r.varint32()) {
      case key(1, VARINT):
        high = r.varint64(false);
        break;
      case key(2, VARINT):
        low = r.varint64(false);
        break;
      default:
        throw NOT_PLAIN;
    }
  }
  r.leave(outer);
  return { high, low };
}

function update(r: WireReader): p4r.Update__Output {
  const outer = r.enter();
  let type: p4r.Update__Output['type'] = 'UNSPECIFIED';
  let entity: p4r.Entity__Output | null = null;
  while (r.pos < r.end) {
    switch (r.varint32()) {
      case key(1, VARINT):
        type = enumValue(UPDATE_TYPES, r.int32());
        break;
      case key(2, LEN):
        entity = tableEntity(r);
        break;
      default:
        throw NOT_PLAIN;
    }
  }
  r.leave(outer);
  return { type, entity };
}

/** An Entity: only its table_entry member is read here. */
function tableEntity(r: WireReader): p4r.Entity__Output {
  const outer = r.enter();
  let entry: p4r.TableEntry__Output | undefined;
  while (r.pos < r.end) {
    if (r.varint32() !== key(2, LEN)) throw NOT_PLAIN;
    entry = decodeTableEntry(r);
  }
  r.leave(outer);
  return entry ? { table_entry: entry, entity: 'table_entry' } : {};
}
