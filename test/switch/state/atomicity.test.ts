import { describe, expect, it } from 'vitest';
import { Code, OK } from '../../../src/switch/state/status.js';
import type { Atomicity } from '../../../src/switch/state/device-state.js';
import { b, committedDevice, expectOk, id, read, snapshot, update, write1, writeAll } from './helpers.js';

const L2 = id.table('ingress.l2');
const LPM = id.table('ingress.ipv4_lpm');
const FORWARD = id.action('ingress.forward');
const DROP = id.action('ingress.drop');
const PROFILE = id.profile('ingress.ecmp_selector');
const ECMP = id.table('ingress.ecmp');
const mac = (last: number): Buffer => b(0xaa, 0xbb, 0xcc, 0xdd, 0xee, last);
const l2Entry = (last: number, port = 1): object => ({
  table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(last) } }], action: { action: { action_id: FORWARD, params: [{ param_id: 1, value: b(port) }] } } },
});
const nhop = { action_id: id.action('ingress.set_nhop'), params: [{ param_id: 1, value: b(1) }, { param_id: 2, value: b(2) }] };

/** A device with something in every store, so that undo has something to restore. */
function prepared(): ReturnType<typeof committedDevice> {
  const device = committedDevice();
  writeAll(device, [
    update('INSERT', l2Entry(1)),
    update('INSERT', l2Entry(2)),
    update('INSERT', { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1, replicas: [{ port: b(1), instance: 0 }] } } }),
    update('INSERT', { digest_entry: { digest_id: id.digest('learn'), config: { max_list_size: 2 } } }),
    update('INSERT', { action_profile_member: { action_profile_id: PROFILE, member_id: 1, action: nhop } }),
    update('INSERT', { action_profile_member: { action_profile_id: PROFILE, member_id: 2, action: nhop } }),
  ]).forEach(expectOk);
  return device;
}

/** A batch that touches every store (every update valid on its own), then fails on its last update. */
function everythingThenFailure(): ReturnType<typeof update>[] {
  return [
    update('INSERT', l2Entry(3)),
    update('MODIFY', l2Entry(1, 9)),
    update('DELETE', l2Entry(2)),
    update('MODIFY', { table_entry: { table_id: L2, is_default_action: true, action: { action: { action_id: DROP } } } }),
    update('MODIFY', { direct_counter_entry: { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(1) } }] }, data: { packet_count: 5 } } }),
    update('INSERT', {
      table_entry: {
        table_id: LPM,
        match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }],
        action: { action: { action_id: DROP } },
        meter_config: { cir: 1, cburst: 1, pir: 1, pburst: 1 },
      },
    }),
    update('MODIFY', { counter_entry: { counter_id: id.counter('ingress.port_packets'), data: { packet_count: 3 } } }),
    update('MODIFY', { meter_entry: { meter_id: id.meter('ingress.port_meter'), config: { cir: 1, cburst: 1, pir: 1, pburst: 1 } } }),
    update('MODIFY', { register_entry: { register_id: id.register('ingress.slots'), data: { bitstring: b(5) } } }),
    update('MODIFY', { register_entry: { register_id: id.register('ingress.wide'), index: { index: 1 }, data: { bitstring: b(5) } } }),
    update('MODIFY', { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1, replicas: [] } } }),
    update('INSERT', { packet_replication_engine_entry: { clone_session_entry: { session_id: 9, replicas: [] } } }),
    update('DELETE', { digest_entry: { digest_id: id.digest('learn') } }),
    update('MODIFY', { value_set_entry: { value_set_id: id.valueSet('parser.trill_types'), members: [{ match: [{ field_id: 1, exact: { value: b(1) } }] }] } }),
    update('INSERT', { action_profile_group: { action_profile_id: PROFILE, group_id: 1, members: [{ member_id: 1, weight: 1 }] } }),
    update('INSERT', { table_entry: { table_id: ECMP, match: [{ field_id: 1, exact: { value: b(1) } }], action: { action_profile_member_id: 2 } } }),
    update('DELETE', { action_profile_member: { action_profile_id: PROFILE, member_id: 1 } }), // fails: used by group 1
  ];
}

describe('CONTINUE_ON_ERROR', () => {
  it('attempts every update and reports each status in order', () => {
    const device = committedDevice();
    const statuses = writeAll(device, [update('INSERT', l2Entry(1)), update('INSERT', l2Entry(1)), update('INSERT', l2Entry(2)), update('UNSPECIFIED', l2Entry(3))]);
    expect(statuses.map((s) => s.code)).toEqual([Code.OK, Code.ALREADY_EXISTS, Code.OK, Code.INVALID_ARGUMENT]);
    expect(read(device, { table_entry: { table_id: L2 } })).toHaveLength(2);
  });
});

describe.each<Atomicity>(['ROLLBACK_ON_ERROR', 'DATAPLANE_ATOMIC'])('%s', (atomicity) => {
  it('undoes every update of a failed batch in every store', () => {
    const device = prepared();
    const before = snapshot(device);
    const tables = device.forwarding!.tables.lookup(L2);
    const counterBefore = { ...tables.lookupExact(mac(1).toString('latin1'))!.counter! };
    const batch = everythingThenFailure();
    const statuses = writeAll(device, batch, atomicity);
    const last = batch.length - 1;
    expect(statuses[last]!.code).toBe(Code.FAILED_PRECONDITION);
    expect(statuses.slice(0, last).every((s) => s.code === Code.ABORTED && /rolled back/.test(s.message))).toBe(true);
    expect(snapshot(device)).toEqual(before);
    expect(tables.lookupExact(mac(1).toString('latin1'))!.counter).toEqual(counterBefore);
    // Reference counts were restored too: member 1 is free again, group 1 does not exist.
    expectOk(write1(device, 'DELETE', { action_profile_member: { action_profile_id: PROFILE, member_id: 2 } }));
    expectOk(write1(device, 'DELETE', { action_profile_member: { action_profile_id: PROFILE, member_id: 1 } }));
  });

  it('applies a batch that succeeds in full', () => {
    const device = prepared();
    const batch = everythingThenFailure().slice(0, -1);
    const statuses = writeAll(device, batch, atomicity);
    expect(statuses).toEqual(batch.map(() => OK));
    expect(read(device, { table_entry: { table_id: L2 } })).toHaveLength(2);
    expect(device.forwarding!.pre.cloneSessions.has(9)).toBe(true);
    // A later failure in another batch does not undo this one.
    writeAll(device, [update('INSERT', l2Entry(3))], atomicity);
    expect(read(device, { table_entry: { table_id: L2 } })).toHaveLength(2);
  });

  it('stops at the first failure: later updates are not attempted', () => {
    const device = committedDevice();
    const statuses = writeAll(device, [update('INSERT', l2Entry(1)), update('DELETE', l2Entry(9)), update('INSERT', l2Entry(2))], atomicity);
    expect(statuses.map((s) => s.code)).toEqual([Code.ABORTED, Code.NOT_FOUND, Code.ABORTED]);
    expect(read(device, { table_entry: { table_id: L2 } })).toEqual([]);
  });
});

describe('unsupported atomicity', () => {
  it('is an RPC-wide UNIMPLEMENTED', () => {
    const device = committedDevice();
    expect(device.write([update('INSERT', l2Entry(1))], 'SOMETHING_ELSE' as Atomicity)).toMatchObject({ code: Code.UNIMPLEMENTED });
    expect(read(device, { table_entry: { table_id: L2 } })).toEqual([]);
  });
});
