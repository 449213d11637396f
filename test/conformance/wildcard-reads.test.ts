// Wildcard reads (spec §"Wildcard Reads"): every table, one table, default
// entries, every multicast group and clone session, whole register and counter
// arrays, every counter, meter and register, several entities in one request,
// filters, and a read left early.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  action,
  cloneSession,
  counter,
  defaultEntry,
  insert,
  meter,
  modify,
  multicastGroup,
  register,
  table,
  type P4RuntimeClient,
} from '../../src/p4runtime/index.js';
import { idsOf, kitchenSink } from './helpers/programs.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';

const P4INFO = kitchenSink();
const ids = idsOf(P4INFO);

let sw: SwitchUnderTest;
let client: P4RuntimeClient;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  client = await sw.primaryWith(P4INFO);
  await client.write([
    insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 }, action('ingress.forward', { port: 1 }))),
    insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 2 }, action('ingress.drop'), { metadata: Buffer.from('mine') })),
    insert(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' }, action('ingress.drop'))),
    insert(table('ingress.acl', { 'hdr.ipv4.protocol': { value: 6 } }, action('ingress.drop'), { priority: 1 })),
    insert(table('ingress.acl', { 'hdr.ipv4.protocol': { value: 17 } }, action('ingress.set_mark', { mark: 1 }), { priority: 2 })),
    insert(table('ingress.tiny', { 'hdr.ethernet.ether_type': 0x800 }, action('NoAction'))),
    insert(multicastGroup(1, [{ port: 1 }])),
    insert(multicastGroup(2, [{ port: 2 }])),
    insert(cloneSession(3, [{ port: 3 }])),
    modify(register('ingress.slots', { index: 4, value: 4 })),
    modify(counter('ingress.port_packets', { index: 5, data: { packetCount: 5 } })),
  ]);
});
afterEach(async () => {
  await sw.stop();
});

describe('wildcard reads', () => {
  it('reads every entry of every table, without default entries', async () => {
    const all = await client.readAll(table('*'));
    expect(all.map((e) => e.table).sort()).toEqual(['ingress.acl', 'ingress.acl', 'ingress.ipv4_lpm', 'ingress.l2', 'ingress.l2', 'ingress.tiny']);
    expect(all.every((e) => !e.isDefault)).toBe(true);
  });

  it('reads every entry of one table', async () => {
    const l2 = await client.readAll(table('ingress.l2'));
    expect(l2.map((e) => e.match['hdr.ethernet.dst_addr'])).toEqual([1, 2]);
  });

  it('reads the default entry of every table (bare stub: the client names one table per default entry)', async () => {
    const defaults = await sw.raw.read([{ table_entry: { is_default_action: true } }]);
    expect(defaults.map((e) => e.table_entry!.table_id).sort()).toEqual(P4INFO.tables.map((t) => t.preamble!.id).sort());
    expect(defaults.every((e) => e.table_entry!.is_default_action)).toBe(true);
    expect(await client.readAll(defaultEntry('ingress.acl'))).toHaveLength(1);
  });

  it('filters a table read by action and by priority', async () => {
    expect((await client.readAll(table('ingress.l2', undefined, action('ingress.drop')))).map((e) => e.match['hdr.ethernet.dst_addr'])).toEqual([2]);
    expect((await client.readAll(table('ingress.acl', undefined, undefined, { priority: 2 }))).map((e) => e.priority)).toEqual([2]);
  });

  it('filters a read by entry metadata', async () => {
    expect((await client.readAll(table('ingress.l2', undefined, undefined, { metadata: Buffer.from('mine') }))).map((e) => e.match['hdr.ethernet.dst_addr'])).toEqual([2]);
    expect(await client.readAll(table('ingress.l2', undefined, undefined, { metadata: Buffer.from('theirs') }))).toEqual([]);
  });

  it('reads every multicast group and every clone session', async () => {
    expect((await client.readAll(multicastGroup())).map((g) => g.groupId)).toEqual([1, 2]);
    expect((await client.readAll(cloneSession())).map((s) => s.sessionId)).toEqual([3]);
    // An empty PRE entry reads both kinds.
    const both = await sw.raw.read([{ packet_replication_engine_entry: {} }]);
    expect(both.map((e) => e.packet_replication_engine_entry!.type)).toEqual(['multicast_group_entry', 'multicast_group_entry', 'clone_session_entry']);
  });

  it('reads whole register and counter arrays, and every counter, meter and register', async () => {
    const slots = await client.readAll(register('ingress.slots'));
    expect(slots).toHaveLength(64);
    expect(slots.filter((c) => c.value !== 0)).toMatchObject([{ index: 4, value: 4 }]);
    const packets = await client.readAll(counter('ingress.port_packets'));
    expect(packets).toHaveLength(512);
    expect(packets.filter((c) => c.data!.packetCount !== 0n)).toMatchObject([{ index: 5 }]);
    expect(await client.readAll(register('*'))).toHaveLength(64);
    expect(await client.readAll(counter('*'))).toHaveLength(512);
    expect(await client.readAll(meter('*'))).toHaveLength(64);
  });

  it('answers several entities of different kinds in one request', async () => {
    const read = await client.readAll([table('ingress.l2'), multicastGroup(2), register('ingress.slots', { index: 4 })]);
    expect(read.map((e) => e.kind)).toEqual(['table_entry', 'table_entry', 'multicast_group_entry', 'register_entry']);
  });

  it('stops reading when the caller leaves the loop, and the client keeps working', async () => {
    let seen = 0;
    for await (const cell of client.read(counter('ingress.port_packets'))) {
      expect(cell.counter).toBe('ingress.port_packets');
      if (++seen === 3) break;
    }
    expect(seen).toBe(3);
    expect(await client.readAll(table('ingress.tiny'))).toHaveLength(1);
  });

  it('refuses a read that filters every table by a match (bare stub)', async () => {
    const err = await sw.raw.read([{ table_entry: { match: [{ field_id: 1, exact: { value: Buffer.from([1]) } }] } }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ codeName: 'UNKNOWN', itemCodes: ['INVALID_ARGUMENT'] });
    expect(await sw.raw.read([{ table_entry: { table_id: ids.table('ingress.tiny') } }])).toHaveLength(1);
  });
});
