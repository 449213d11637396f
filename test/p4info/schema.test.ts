import { describe, expect, test } from 'vitest';
import { IdPrefix, P4InfoError, P4InfoErrorCode, P4Schema, parseP4Info } from '../../src/p4info/index.js';
import type * as p4i from '../../src/proto/p4i.js';
import { kitchenSinkP4Info } from '../helpers/p4info-builder.js';
import { fixtureText, type FixtureName } from './fixtures.js';

const schemaOf = (name: FixtureName): P4Schema => new P4Schema(parseP4Info(fixtureText(name), 'text', name));

function schemaError(info: p4i.P4Info__Output): P4InfoError {
  try {
    new P4Schema(info);
  } catch (error) {
    expect(error).toBeInstanceOf(P4InfoError);
    return error as P4InfoError;
  }
  throw new Error('expected a P4InfoError');
}

describe('P4Schema on the p4c-style fixtures', () => {
  test('forwarding: tables by name, alias and id; match fields and actions', () => {
    const s = schemaOf('forwarding');
    expect(s.arch).toBe('v1model');
    const l2 = s.tables.get('l2_exact');
    expect(l2).toBe(s.tables.get('MyIngress.l2_exact'));
    expect(l2).toBe(s.tables.get(35992994));
    expect(l2.size).toBe(1024);
    expect(l2.matchFields.get('hdr.ethernet.dst_addr')).toMatchObject({ id: 1, bitwidth: 48, matchType: 'EXACT' });
    expect(l2.matchFields.get(1).name).toBe('hdr.ethernet.dst_addr');
    expect(l2.needsPriority).toBe(false);
    expect(l2.actionRefs.get(21257015)).toMatchObject({ scope: 'DEFAULT_ONLY' });
    expect(l2.actionRefs.get(21257015)!.action.name).toBe('NoAction');
    expect(s.tables.get('ipv4_lpm').matchFields.get(1).matchType).toBe('LPM');
    const setNhop = s.actions.get('set_nhop');
    expect(setNhop.params.all.map((p) => [p.id, p.name, p.bitwidth])).toEqual([[1, 'dmac', 48], [2, 'port', 9]]);
    expect(s.actions.get('NoAction').annotations).toEqual(['@noWarn("unused")']);
    expect(l2.constDefaultActionId).toBe(0);
    expect(l2.directCounterId).toBeUndefined();
  });

  test('acl: ternary, optional and range keys need a priority; action scopes', () => {
    const acl = schemaOf('acl').tables.get('acl');
    expect(acl.needsPriority).toBe(true);
    expect(acl.matchFields.all.map((f) => f.matchType)).toEqual(['TERNARY', 'OPTIONAL', 'TERNARY', 'TERNARY', 'TERNARY', 'TERNARY', 'RANGE']);
    const scopes = Object.fromEntries([...acl.actionRefs.values()].map((r) => [r.action.alias, r.scope]));
    expect(scopes).toEqual({ permit: 'TABLE_AND_DEFAULT', drop: 'TABLE_AND_DEFAULT', to_cpu: 'TABLE_ONLY', clone_to_cpu: 'TABLE_ONLY', NoAction: 'DEFAULT_ONLY' });
    expect(acl.size).toBe(256);
  });

  test('register: a const default action and a bit<32> register of 1024 cells', () => {
    const s = schemaOf('register');
    expect(s.tables.get('slots').constDefaultActionId).toBe(s.actions.get('drop').id);
    const reg = s.registers.get('slot_values');
    expect(reg).toMatchObject({ size: 1024, bitwidth: 32, id: 371276067 });
    expect(reg.id >>> 24).toBe(IdPrefix.REGISTER);
  });

  test('counter: indirect counter, direct counter tied to its table, meter', () => {
    const s = schemaOf('counter');
    const classify = s.tables.get('classify');
    expect(classify.directCounterId).toBe(s.directCounters.get('classify_counter').id);
    expect(classify.directMeterId).toBeUndefined();
    expect(s.directCounters.get('classify_counter')).toMatchObject({ unit: 'BOTH', tableId: classify.id });
    expect(s.counters.get('port_counter')).toMatchObject({ unit: 'BOTH', size: 512 });
    expect(s.meters.get('port_meter')).toMatchObject({ unit: 'BYTES', type: 'TWO_RATE_THREE_COLOR', size: 512 });
    // p4c 1.2.4.8 writes no initial_default_action (the default set_class(7) is in the device config).
    expect(classify.raw.initial_default_action).toBeNull();
  });

  test('packet_io: controller headers and the digest', () => {
    const s = schemaOf('packet_io');
    const packetIn = s.packetHeader('packet_in')!;
    expect(packetIn.id).toBe(81826293);
    expect(packetIn.metadata.all.map((m) => [m.id, m.name, m.bitwidth])).toEqual([[1, 'ingress_port', 9], [2, '_pad', 7]]);
    expect(s.packetHeader('packet_out')!.metadata.get('egress_port').bitwidth).toBe(9);
    const digest = s.digests.get('learn_digest_t');
    expect(digest.typeSpec).toMatchObject({ type_spec: 'struct', struct: { name: 'learn_digest_t' } });
    expect(s.p4info.type_info!.structs.learn_digest_t!.members.map((m) => m.name)).toEqual(['src_addr', 'ingress_port']);
  });
});

describe('P4Schema on kitchenSinkP4Info()', () => {
  const s = new P4Schema(kitchenSinkP4Info());

  test('every kind of object is indexed', () => {
    expect(s.tables.size).toBe(5);
    expect(s.actions.size).toBe(6);
    expect([s.counters.size, s.directCounters.size, s.meters.size, s.directMeters.size, s.registers.size, s.digests.size]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(s.controllerHeaders.all.map((h) => h.name)).toEqual(['packet_in', 'packet_out']);
    expect(s.valueSets.size).toBe(0);
    expect(s.actionProfiles.size).toBe(0);
  });

  test('table properties', () => {
    expect(s.tables.get('tiny')).toMatchObject({ size: 4, constDefaultActionId: s.actions.get('NoAction').id });
    expect(s.tables.get('fixed').isConstTable).toBe(true);
    expect(s.tables.get('ipv4_lpm').directMeterId).toBe(s.directMeters.get('ipv4_meter').id);
    expect(s.tables.get('l2').directCounterId).toBe(s.directCounters.get('l2_counter').id);
    expect(s.tables.get('acl').needsPriority).toBe(true);
    expect(s.tables.get('acl').actionRefs.get(s.actions.get('to_cpu').id)!.scope).toBe('TABLE_ONLY');
    expect(s.tables.get('l2').idleTimeout).toBe(false);
  });

  test('lookups by id use the kind prefix', () => {
    for (const table of s.tables.all) expect(table.id >>> 24).toBe(IdPrefix.TABLE);
    for (const action of s.actions.all) expect(action.id >>> 24).toBe(IdPrefix.ACTION);
    expect(s.registers.get('slots').bitwidth).toBe(32);
  });
});

describe('inconsistent P4Info is refused', () => {
  test('a table that refers to an action the P4Info lacks', () => {
    const info = kitchenSinkP4Info();
    info.tables[0]!.action_refs.push({ id: 0x01abcdef, scope: 'TABLE_AND_DEFAULT', annotations: [], annotation_locations: [], structured_annotations: [] });
    const error = schemaError(info);
    expect(error.code).toBe(P4InfoErrorCode.INCONSISTENT);
    expect(error.message).toContain('action id 28036591');
  });

  test('two tables with one id', () => {
    const info = kitchenSinkP4Info();
    info.tables[1]!.preamble!.id = info.tables[0]!.preamble!.id;
    expect(schemaError(info).message).toMatch(/^two tables have id/);
  });

  test('an object without a preamble id', () => {
    const info = kitchenSinkP4Info();
    info.counters[0]!.preamble = null;
    expect(schemaError(info).message).toBe('a counter in the P4Info has no preamble id');
  });
});
