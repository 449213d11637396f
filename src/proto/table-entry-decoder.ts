/**
 * The TableEntry part of the fast WriteRequest decoder (write-request-decoder.ts):
 * the entry, its matches and its action, as proto-loader's toObject gives them.
 * meter_config, counter_data, time_since_last_hit, meter_counter_data,
 * action_profile_action_set, a FieldMatch's `other` and unknown fields are
 * NOT_PLAIN: the generic decoder takes the whole request.
 */
import type * as p4r from './p4r.js';
import { EMPTY_BYTES as EMPTY, key, LEN, NOT_PLAIN, VARINT, type WireReader } from './wire-reader.js';

/** A TableEntry (its length first), or NOT_PLAIN for the parts write-request-decoder.ts leaves to protobufjs. */
export function decodeTableEntry(r: WireReader): p4r.TableEntry__Output {
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
