// Malformed requests, sent with the bare stub (the client refuses to build
// them), each answered with the right code and leaving the switch exactly as
// it was: everything is read before and after and compared. The switch holds
// some of every entity first, and several cases aim at entities that exist
// (a MODIFY or DELETE that must not half-happen).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  action,
  actionProfileGroup,
  actionProfileMember,
  cloneSession,
  counter,
  defaultEntry,
  digestEntry,
  directCounter,
  groupRef,
  insert,
  meter,
  modify,
  multicastGroup,
  register,
  table,
  type P4RuntimeClient,
} from '../../src/p4runtime/index.js';
import type * as p4r from '../../src/proto/p4r.js';
import { idsOf, kitchenSinkWithProfiles } from './helpers/programs.js';
import { failedUpdates, rawError, rawItemCodes } from './helpers/outcomes.js';
import { snapshot, type Snapshot } from './helpers/state-snapshot.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { PRIMARY, b } from './helpers/entities.js';

const P4INFO = kitchenSinkWithProfiles();
const ids = idsOf(P4INFO);

const L2 = ids.table('ingress.l2');
const LPM = ids.table('ingress.ipv4_lpm');
const ACL = ids.table('ingress.acl');
const FORWARD = ids.action('ingress.forward');
const DROP = ids.action('ingress.drop');
const SET_NHOP = ids.action('ingress.set_nhop');

const forward = (port: Buffer): p4r.TableAction => ({ action: { action_id: FORWARD, params: [{ param_id: 1, value: port }] } });
const drop: p4r.TableAction = { action: { action_id: DROP } };
const exact = (value: Buffer, fieldId = 1): p4r.FieldMatch => ({ field_id: fieldId, exact: { value } });
const l2Entry = (match: p4r.FieldMatch[], tableAction: p4r.TableAction | null = forward(b(1)), extra: Partial<p4r.TableEntry> = {}): p4r.Entity => ({
  table_entry: { table_id: L2, match, action: tableAction, ...extra },
});
const aclEntry = (match: p4r.FieldMatch[], priority: number): p4r.Entity => ({ table_entry: { table_id: ACL, match, action: drop, priority } });
const lpmEntry = (value: Buffer, prefixLen: number): p4r.Entity => ({ table_entry: { table_id: LPM, match: [{ field_id: 1, lpm: { value, prefix_len: prefixLen } }], action: drop } });
const group = (id: number, replicas: p4r.Replica[]): p4r.Entity => ({ packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: id, replicas } } });
const session = (id: number, replicas: p4r.Replica[]): p4r.Entity => ({ packet_replication_engine_entry: { clone_session_entry: { session_id: id, replicas } } });

/** The entry of ingress.l2 that the populated switch holds (dst 00:..:01 → forward 1). */
const EXISTING_L2 = [exact(b(1))];

interface Case {
  name: string;
  type: p4r.Update['type'];
  entity: p4r.Entity;
  code: string;
}

const CASES: Case[] = [
  { name: 'an unknown table id', type: 'INSERT', entity: { table_entry: { table_id: 0x02000bad, match: [exact(b(1))], action: drop } }, code: 'NOT_FOUND' },
  { name: 'table id 0 in a write', type: 'INSERT', entity: { table_entry: { table_id: 0, action: drop } }, code: 'INVALID_ARGUMENT' },
  { name: 'an unknown action id', type: 'INSERT', entity: l2Entry([exact(b(9))], { action: { action_id: 0x01000bad } }), code: 'INVALID_ARGUMENT' },
  { name: 'an action that is not the table’s', type: 'INSERT', entity: l2Entry([exact(b(9))], { action: { action_id: SET_NHOP, params: [] } }), code: 'INVALID_ARGUMENT' },
  { name: 'an unknown parameter id', type: 'INSERT', entity: l2Entry([exact(b(9))], { action: { action_id: FORWARD, params: [{ param_id: 1, value: b(1) }, { param_id: 7, value: b(1) }] } }), code: 'INVALID_ARGUMENT' },
  { name: 'an unknown match field id', type: 'INSERT', entity: l2Entry([exact(b(9)), exact(b(1), 5)]), code: 'INVALID_ARGUMENT' },
  { name: 'a match value too wide for its field', type: 'INSERT', entity: l2Entry([exact(b(1, 0, 0, 0, 0, 0, 0))]), code: 'INVALID_ARGUMENT' },
  { name: 'a parameter too wide (port is 9 bits)', type: 'INSERT', entity: l2Entry([exact(b(9))], forward(b(2, 0))), code: 'INVALID_ARGUMENT' },
  { name: 'an empty match value', type: 'INSERT', entity: l2Entry([exact(b())]), code: 'INVALID_ARGUMENT' },
  { name: 'an empty parameter value', type: 'INSERT', entity: l2Entry([exact(b(9))], forward(b())), code: 'INVALID_ARGUMENT' },
  { name: 'priority 0 on a ternary table', type: 'INSERT', entity: aclEntry([{ field_id: 3, optional: { value: b(1) } }], 0), code: 'INVALID_ARGUMENT' },
  { name: 'a priority on an exact table', type: 'INSERT', entity: l2Entry([exact(b(9))], forward(b(1)), { priority: 3 }), code: 'INVALID_ARGUMENT' },
  { name: 'a missing parameter', type: 'INSERT', entity: l2Entry([exact(b(9))], { action: { action_id: FORWARD, params: [] } }), code: 'INVALID_ARGUMENT' },
  { name: 'a parameter given twice', type: 'INSERT', entity: l2Entry([exact(b(9))], { action: { action_id: FORWARD, params: [{ param_id: 1, value: b(1) }, { param_id: 1, value: b(2) }] } }), code: 'INVALID_ARGUMENT' },
  { name: 'a match field given twice', type: 'INSERT', entity: l2Entry([exact(b(9)), exact(b(9))]), code: 'INVALID_ARGUMENT' },
  { name: 'a missing exact field', type: 'INSERT', entity: l2Entry([]), code: 'INVALID_ARGUMENT' },
  { name: 'the wrong match kind for a field', type: 'INSERT', entity: l2Entry([{ field_id: 1, lpm: { value: b(9), prefix_len: 48 } }]), code: 'INVALID_ARGUMENT' },
  { name: 'an INSERT without action', type: 'INSERT', entity: l2Entry([exact(b(9))], null), code: 'INVALID_ARGUMENT' },
  { name: 'an LPM value with host bits set', type: 'INSERT', entity: lpmEntry(b(10, 1, 0, 0), 8), code: 'INVALID_ARGUMENT' },
  { name: 'an LPM prefix longer than the field', type: 'INSERT', entity: lpmEntry(b(10, 0, 0, 0), 33), code: 'INVALID_ARGUMENT' },
  { name: 'an LPM prefix of 0 (don’t care is an omitted field)', type: 'INSERT', entity: lpmEntry(b(0), 0), code: 'INVALID_ARGUMENT' },
  { name: 'a ternary value outside its mask', type: 'INSERT', entity: aclEntry([{ field_id: 2, ternary: { value: b(10, 0, 0, 1), mask: b(255, 255, 255, 0) } }], 1), code: 'INVALID_ARGUMENT' },
  { name: 'a ternary mask of 0', type: 'INSERT', entity: aclEntry([{ field_id: 2, ternary: { value: b(0), mask: b(0) } }], 1), code: 'INVALID_ARGUMENT' },
  { name: 'a one-shot action set on a selector programmed with members and groups', type: 'INSERT', entity: { table_entry: { table_id: ids.table('ingress.ecmp'), match: [exact(b(2))], action: { action_profile_action_set: { action_profile_actions: [{ action: { action_id: DROP }, weight: 1 }] } } } }, code: 'INVALID_ARGUMENT' },
  { name: 'a range with low above high', type: 'INSERT', entity: aclEntry([{ field_id: 4, range: { low: b(9), high: b(3) } }], 1), code: 'INVALID_ARGUMENT' },
  { name: 'is_const set in a write', type: 'INSERT', entity: l2Entry([exact(b(9))], forward(b(1)), { is_const: true }), code: 'INVALID_ARGUMENT' },
  { name: 'a default entry with a match', type: 'MODIFY', entity: l2Entry([exact(b(1))], drop, { is_default_action: true }), code: 'INVALID_ARGUMENT' },
  { name: 'a MODIFY of an existing entry with a bad parameter', type: 'MODIFY', entity: l2Entry(EXISTING_L2, forward(b(0xff, 0xff))), code: 'INVALID_ARGUMENT' },
  { name: 'a MODIFY of an existing entry with counter data and a bad action', type: 'MODIFY', entity: l2Entry(EXISTING_L2, { action: { action_id: 0x01000bad } }, { counter_data: { packet_count: '99' } }), code: 'INVALID_ARGUMENT' },
  { name: 'a DELETE whose key is too wide', type: 'DELETE', entity: l2Entry([exact(b(1, 0, 0, 0, 0, 0, 1))], null), code: 'INVALID_ARGUMENT' },
  { name: 'multicast group id 0', type: 'INSERT', entity: group(0, [{ port: b(1) }]), code: 'INVALID_ARGUMENT' },
  { name: 'clone session id 0', type: 'INSERT', entity: session(0, [{ port: b(1) }]), code: 'INVALID_ARGUMENT' },
  { name: 'duplicate replicas (padded and canonical port)', type: 'MODIFY', entity: group(1, [{ port: b(2), instance: 1 }, { port: b(0, 2), instance: 1 }]), code: 'INVALID_ARGUMENT' },
  { name: 'a replica with an empty port', type: 'MODIFY', entity: session(5, [{ port: b() }]), code: 'INVALID_ARGUMENT' },
  { name: 'a replica without a port', type: 'INSERT', entity: group(4, [{ instance: 1 }]), code: 'INVALID_ARGUMENT' },
  { name: 'a register value too wide for every cell', type: 'MODIFY', entity: { register_entry: { register_id: ids.register('ingress.slots'), data: { bitstring: b(1, 0, 0, 0, 0) } } }, code: 'INVALID_ARGUMENT' },
  { name: 'a register value that is not a bitstring', type: 'MODIFY', entity: { register_entry: { register_id: ids.register('ingress.slots'), index: { index: 1 }, data: { bool: true } } }, code: 'INVALID_ARGUMENT' },
  { name: 'a negative count for a whole counter array', type: 'MODIFY', entity: { counter_entry: { counter_id: ids.counter('ingress.port_packets'), data: { packet_count: '-1' } } }, code: 'INVALID_ARGUMENT' },
  { name: 'a meter config with pir below cir', type: 'MODIFY', entity: { meter_entry: { meter_id: ids.meter('ingress.port_meter'), index: { index: 1 }, config: { cir: '2', cburst: '1', pir: '1', pburst: '1' } } }, code: 'INVALID_ARGUMENT' },
  { name: 'a direct meter config with pir below cir', type: 'MODIFY', entity: { direct_meter_entry: { table_entry: { table_id: LPM, match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }] }, config: { cir: '2', cburst: '1', pir: '1', pburst: '1' } } }, code: 'INVALID_ARGUMENT' },
  { name: 'a negative digest timeout', type: 'MODIFY', entity: { digest_entry: { digest_id: ids.digest('learn'), config: { max_timeout_ns: '-5' } } }, code: 'INVALID_ARGUMENT' },
  { name: 'a group with a member twice', type: 'MODIFY', entity: { action_profile_group: { action_profile_id: ids.profile('ingress.ecmp_selector'), group_id: 1, members: [{ member_id: 1, weight: 1 }, { member_id: 1, weight: 2 }] } }, code: 'INVALID_ARGUMENT' },
  { name: 'a value set member with a field twice', type: 'MODIFY', entity: { value_set_entry: { value_set_id: ids.valueSet('parser.tpids'), members: [{ match: [exact(b(1)), exact(b(2))] }] } }, code: 'INVALID_ARGUMENT' },
  { name: 'an empty entity', type: 'INSERT', entity: {}, code: 'INVALID_ARGUMENT' },
  { name: 'an unspecified update type', type: 'UNSPECIFIED', entity: l2Entry([exact(b(9))]), code: 'INVALID_ARGUMENT' },
];

let sw: SwitchUnderTest;
let client: P4RuntimeClient;
let before: Snapshot;

/** Some of every entity, so that a refused request has something to damage. */
async function populate(c: P4RuntimeClient): Promise<void> {
  await c.write([
    insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 }, action('ingress.forward', { port: 1 }))),
    insert(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' }, action('ingress.drop'))),
    insert(table('ingress.acl', { 'hdr.ipv4.protocol': { value: 6 } }, action('ingress.drop'), { priority: 1 })),
    modify(defaultEntry('ingress.ipv4_lpm', action('ingress.drop'))),
    insert(multicastGroup(1, [{ port: 1 }, { port: 2, instance: 1 }])),
    insert(cloneSession(5, [{ port: 9 }])),
    modify(register('ingress.slots', { index: 3, value: 33 })),
    modify(counter('ingress.port_packets', { index: 2, data: { packetCount: 22 } })),
    modify(meter('ingress.port_meter', { index: 1, config: { cir: 1, cburst: 1, pir: 2, pburst: 2 } })),
    insert(digestEntry('learn', { maxListSize: 4 })),
    insert(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.drop'))),
    insert(actionProfileGroup('ingress.ecmp_selector', 1, [{ memberId: 1 }])),
  ]);
  await c.write([insert(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': 1 }, groupRef(1))), modify(directCounter(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 }), { packetCount: 7 }))]);
  await sw.raw.write([{ type: 'MODIFY', entity: { value_set_entry: { value_set_id: ids.valueSet('parser.tpids'), members: [{ match: [exact(b(0x81, 0))] }] } } }], { electionId: PRIMARY });
}

beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  client = await sw.primaryWith(P4INFO, { electionId: PRIMARY });
  await populate(client);
  before = await snapshot(sw.raw);
});
afterEach(async () => {
  await sw.stop();
});

describe('malformed writes', () => {
  it('starts from a switch holding some of every entity', () => {
    const kinds = new Set(before.entities.map(({ entity }) => entity.entity));
    expect([...kinds].sort()).toEqual([
      'action_profile_group',
      'action_profile_member',
      'counter_entry',
      'digest_entry',
      'direct_counter_entry',
      'direct_meter_entry',
      'meter_entry',
      'packet_replication_engine_entry',
      'register_entry',
      'table_entry',
      'value_set_entry',
    ]);
  });

  it.each(CASES)('refuses $name with $code and changes nothing', async ({ type, entity, code }) => {
    expect(await rawItemCodes(sw.raw.write([{ type, entity }], { electionId: PRIMARY }))).toEqual([code]);
    expect(await snapshot(sw.raw)).toEqual(before);
  });

  it('refuses all of them in one CONTINUE_ON_ERROR batch, each with its own code, and applies the good update among them', async () => {
    const good: p4r.Update = { type: 'INSERT', entity: l2Entry([exact(b(0x42))]) };
    const updates: p4r.Update[] = [...CASES.map(({ type, entity }) => ({ type, entity })), good];
    expect(await rawItemCodes(sw.raw.write(updates, { electionId: PRIMARY }))).toEqual([...CASES.map((c) => c.code), 'OK']);
    const after = await snapshot(sw.raw);
    expect(after.count).toBe(before.count + 2); // the new entry and its direct counter
    await sw.raw.write([{ type: 'DELETE', entity: l2Entry([exact(b(0x42))], null) }], { electionId: PRIMARY });
    expect(await snapshot(sw.raw)).toEqual(before);
  });
});

describe('atomic batches with one bad update', () => {
  for (const atomicity of ['ROLLBACK_ON_ERROR', 'DATAPLANE_ATOMIC'] as const) {
    it(`${atomicity}: applies nothing, names the bad update and marks the others ABORTED`, async () => {
      const updates = [
        insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 2 }, action('ingress.drop'))),
        modify(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 }, action('ingress.drop'))),
        modify(register('ingress.slots', { value: 5 })),
        modify(counter('ingress.port_packets', { data: { packetCount: 1 } })),
        insert(multicastGroup(2, [{ port: 3 }])),
        modify(multicastGroup(1, [{ port: 4 }])),
        modify(defaultEntry('ingress.l2', action('ingress.drop'))),
        insert(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' }, action('ingress.drop'))), // already there
        insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 3 }, action('ingress.drop'))),
      ];
      const failures = await failedUpdates(client.write(updates, { atomicity }));
      expect(failures).toEqual(updates.map((_, i) => [i, i === 7 ? 'ALREADY_EXISTS' : 'ABORTED']));
      expect(await snapshot(sw.raw)).toEqual(before);
    });
  }

  it('ROLLBACK_ON_ERROR (bare stub): a delete and a malformed update roll back together', async () => {
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'DELETE', entity: l2Entry(EXISTING_L2, null) },
          { type: 'DELETE', entity: group(1, []) },
          { type: 'INSERT', entity: lpmEntry(b(10, 1, 0, 0), 8) },
        ],
        { electionId: PRIMARY },
        'ROLLBACK_ON_ERROR',
      ),
    );
    expect(codes).toEqual(['ABORTED', 'ABORTED', 'INVALID_ARGUMENT']);
    expect(await snapshot(sw.raw)).toEqual(before);
  });
});

describe('malformed reads', () => {
  it('refuses an empty entity and a read of all tables filtered by match, with nothing streamed', async () => {
    const err = await rawError(sw.raw.read([{ table_entry: { table_id: L2 } }, {}, { table_entry: { match: [exact(b(1))] } }]));
    expect(err.codeName).toBe('UNKNOWN');
    expect(err.itemCodes).toEqual(['OK', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
  });

  it('refuses reads of unknown ids, indexes past the end and malformed keys', async () => {
    const err = await rawError(
      sw.raw.read([
        { table_entry: { table_id: 0x02000bad } },
        { counter_entry: { counter_id: ids.counter('ingress.port_packets'), index: { index: 512 } } },
        { table_entry: { table_id: L2, match: [exact(b(1, 0, 0, 0, 0, 0, 0))] } },
        { direct_counter_entry: { table_entry: { table_id: L2, match: [exact(b(0x77))] } } },
      ]),
    );
    expect(err.itemCodes).toEqual(['NOT_FOUND', 'OUT_OF_RANGE', 'INVALID_ARGUMENT', 'NOT_FOUND']);
    expect(await snapshot(sw.raw)).toEqual(before);
  });
});
