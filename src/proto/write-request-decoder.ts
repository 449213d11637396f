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
 * It reads table entries with exact, LPM, ternary, range and optional matches
 * and direct or action-profile (member, group) actions. Any other entity or
 * field, an unknown field, an unexpected wire type, two members of one oneof
 * or a malformed varint or length makes it hand the request to the generic
 * decoder instead, so the result is protobufjs's whenever it reads something
 * else than the common case.
 */
import type * as p4r from './p4r.js';
import { NOT_PLAIN, WireReader } from './wire-reader.js';

const VARINT = 0;
const LEN = 2;
const key = (field: number, wireType: number): number => (field << 3) | wireType;

const UPDATE_TYPES = ['UNSPECIFIED', 'INSERT', 'MODIFY', 'DELETE'] as const;
const ATOMICITIES = ['CONTINUE_ON_ERROR', 'ROLLBACK_ON_ERROR', 'DATAPLANE_ATOMIC'] as const;

/** An enum's name, or the number itself when the proto names no such value (as protobufjs's toObject does). */
function enumValue<T extends string>(names: readonly T[], n: number): T {
  return (names[n] ?? n) as T;
}

const EMPTY: Buffer = Buffer.alloc(0);

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
    entry = tableEntry(r);
  }
  r.leave(outer);
  return entry ? { table_entry: entry, entity: 'table_entry' } : {};
}

function tableEntry(r: WireReader): p4r.TableEntry__Output {
  const outer = r.enter();
  const match: p4r.FieldMatch__Output[] = [];
  let tableId = 0;
  let action: p4r.TableAction__Output | null = null;
  let priority = 0;
  let controllerMetadata = '0';
  let isDefaultAction = false;
  let idleTimeoutNs = '0';
  let metadata = EMPTY;
  let isConst = false;
  while (r.pos < r.end) {
    switch (r.varint32()) {
      case key(1, VARINT):
        tableId = r.varint32();
        break;
      case key(2, LEN):
        match.push(fieldMatch(r));
        break;
      case key(3, LEN):
        action = tableAction(r);
        break;
      case key(4, VARINT):
        priority = r.int32();
        break;
      case key(5, VARINT):
        controllerMetadata = r.varint64(false);
        break;
      case key(8, VARINT):
        isDefaultAction = r.bool();
        break;
      case key(9, VARINT):
        idleTimeoutNs = r.varint64(true);
        break;
      case key(11, LEN):
        metadata = r.bytes();
        break;
      case key(13, VARINT):
        isConst = r.bool();
        break;
      default:
        // meter_config, counter_data, time_since_last_hit, meter_counter_data: the generic decoder's.
        throw NOT_PLAIN;
    }
  }
  r.leave(outer);
  return {
    match,
    table_id: tableId,
    action,
    priority,
    controller_metadata: controllerMetadata,
    meter_config: null,
    counter_data: null,
    is_default_action: isDefaultAction,
    idle_timeout_ns: idleTimeoutNs,
    time_since_last_hit: null,
    metadata,
    meter_counter_data: null,
    is_const: isConst,
  };
}

/** The fields of a FieldMatch member: `second` is the LPM's prefix length (varint) or the ternary/range's second bytes. */
function matchValue(r: WireReader, withSecond: 'none' | 'bytes' | 'varint'): { first: Buffer; second: Buffer | number } {
  const outer = r.enter();
  let first = EMPTY;
  let second: Buffer | number = withSecond === 'varint' ? 0 : EMPTY;
  while (r.pos < r.end) {
    const tag = r.varint32();
    if (tag === key(1, LEN)) first = r.bytes();
    else if (withSecond === 'bytes' && tag === key(2, LEN)) second = r.bytes();
    else if (withSecond === 'varint' && tag === key(2, VARINT)) second = r.int32();
    else throw NOT_PLAIN;
  }
  r.leave(outer);
  return { first, second };
}

function fieldMatch(r: WireReader): p4r.FieldMatch__Output {
  const outer = r.enter();
  let fieldId = 0;
  let kind: p4r.FieldMatch__Output['field_match_type'] | undefined;
  let member: object | undefined;
  while (r.pos < r.end) {
    const tag = r.varint32();
    if (tag === key(1, VARINT)) {
      fieldId = r.varint32();
      continue;
    }
    const next = matchKind(tag);
    // Two different members of the oneof: protobufjs keeps both; let it.
    if (kind !== undefined && kind !== next) throw NOT_PLAIN;
    kind = next;
    switch (next) {
      case 'exact':
      case 'optional':
        member = { value: matchValue(r, 'none').first };
        break;
      case 'lpm': {
        const { first, second } = matchValue(r, 'varint');
        member = { value: first, prefix_len: second };
        break;
      }
      case 'ternary': {
        const { first, second } = matchValue(r, 'bytes');
        member = { value: first, mask: second };
        break;
      }
      case 'range': {
        const { first, second } = matchValue(r, 'bytes');
        member = { low: first, high: second };
        break;
      }
    }
  }
  r.leave(outer);
  if (kind === undefined) return { field_id: fieldId };
  return { field_id: fieldId, [kind]: member, field_match_type: kind } as p4r.FieldMatch__Output;
}

function matchKind(tag: number): 'exact' | 'ternary' | 'lpm' | 'range' | 'optional' {
  switch (tag) {
    case key(2, LEN):
      return 'exact';
    case key(3, LEN):
      return 'ternary';
    case key(4, LEN):
      return 'lpm';
    case key(6, LEN):
      return 'range';
    case key(7, LEN):
      return 'optional';
    default:
      // `other` (an Any), unknown fields, unexpected wire types.
      throw NOT_PLAIN;
  }
}

function tableAction(r: WireReader): p4r.TableAction__Output {
  const outer = r.enter();
  let result: p4r.TableAction__Output = {};
  while (r.pos < r.end) {
    const tag = r.varint32();
    let next: p4r.TableAction__Output;
    if (tag === key(1, LEN)) next = { action: actionOf(r), type: 'action' };
    else if (tag === key(2, VARINT)) next = { action_profile_member_id: r.varint32(), type: 'action_profile_member_id' };
    else if (tag === key(3, VARINT)) next = { action_profile_group_id: r.varint32(), type: 'action_profile_group_id' };
    // action_profile_action_set (its enums sit deep inside), unknown fields: the generic decoder's.
    else throw NOT_PLAIN;
    if (result.type !== undefined && result.type !== next.type) throw NOT_PLAIN;
    result = next;
  }
  r.leave(outer);
  return result;
}

function actionOf(r: WireReader): p4r.Action__Output {
  const outer = r.enter();
  const params: p4r._p4_v1_Action_Param__Output[] = [];
  let actionId = 0;
  while (r.pos < r.end) {
    switch (r.varint32()) {
      case key(1, VARINT):
        actionId = r.varint32();
        break;
      case key(4, LEN):
        params.push(param(r));
        break;
      default:
        throw NOT_PLAIN;
    }
  }
  r.leave(outer);
  return { params, action_id: actionId };
}

function param(r: WireReader): p4r._p4_v1_Action_Param__Output {
  const outer = r.enter();
  let paramId = 0;
  let value = EMPTY;
  while (r.pos < r.end) {
    switch (r.varint32()) {
      case key(2, VARINT):
        paramId = r.varint32();
        break;
      case key(3, LEN):
        value = r.bytes();
        break;
      default:
        throw NOT_PLAIN;
    }
  }
  r.leave(outer);
  return { param_id: paramId, value };
}
