import { describe, expect, it } from 'vitest';
import { Code } from '../../../src/switch/state/status.js';
import { b, committedDevice, expectOk, expectRefused, id, read, readStatus, write1 } from './helpers.js';

const L2 = id.table('ingress.l2');
const LPM = id.table('ingress.ipv4_lpm');
const ACL = id.table('ingress.acl');
const TINY = id.table('ingress.tiny');
const ECMP = id.table('ingress.ecmp');
const FORWARD = id.action('ingress.forward');
const DROP = id.action('ingress.drop');
const NO_ACTION = id.action('NoAction');
const TO_CPU = id.action('ingress.to_cpu');
const SET_NHOP = id.action('ingress.set_nhop');

const mac = (last: number): Buffer => b(0xaa, 0xbb, 0xcc, 0xdd, 0xee, last);
const l2Match = (last: number): object[] => [{ field_id: 1, exact: { value: mac(last) } }];
const forward = (port: number): object => ({ action: { action_id: FORWARD, params: [{ param_id: 1, value: b(port) }] } });

describe('default entries', () => {
  it('reads the program default, sets it with MODIFY and resets it with a MODIFY without action', () => {
    const device = committedDevice();
    const readDefault = (): object => read(device, { table_entry: { table_id: L2, is_default_action: true } })[0]!.table_entry!;
    // No initial_default_action in this P4Info: NoAction (P4's default) is reported.
    expect(readDefault()).toMatchObject({ table_id: L2, is_default_action: true, action: { action: { action_id: NO_ACTION, params: [] } } });
    expectOk(write1(device, 'MODIFY', { table_entry: { table_id: L2, is_default_action: true, action: forward(4), metadata: b(1) } }));
    expect(readDefault()).toMatchObject({ action: { action: { action_id: FORWARD, params: [{ param_id: 1, value: b(4) }] } }, metadata: b(1) });
    expect(device.forwarding!.tables.lookup(L2).defaultEntry.isProgramDefault).toBe(false);
    expectOk(write1(device, 'MODIFY', { table_entry: { table_id: L2, is_default_action: true, metadata: b(2) } }));
    expect(readDefault()).toMatchObject({ action: { action: { action_id: NO_ACTION } }, metadata: b() });
    expect(device.forwarding!.tables.lookup(L2).defaultEntry.isProgramDefault).toBe(true);
    // Default entries are not part of an ordinary wildcard read.
    expect(read(device, { table_entry: { table_id: L2 } })).toEqual([]);
  });

  it('refuses INSERT/DELETE, matches, priorities, const defaults and scope violations', () => {
    const device = committedDevice();
    const def = (extra: object): object => ({ table_entry: { table_id: L2, is_default_action: true, ...extra } });
    expectRefused(device, 'INSERT', def({ action: forward(1) }), Code.INVALID_ARGUMENT, /MODIFY/);
    expectRefused(device, 'DELETE', def({}), Code.INVALID_ARGUMENT, /MODIFY/);
    expectRefused(device, 'MODIFY', def({ action: forward(1), match: l2Match(1) }), Code.INVALID_ARGUMENT, /no match/);
    expectRefused(device, 'MODIFY', { table_entry: { table_id: ACL, is_default_action: true, priority: 3, action: { action: { action_id: DROP } } } }, Code.INVALID_ARGUMENT, /priority/);
    expectRefused(device, 'MODIFY', def({ idle_timeout_ns: 5 }), Code.INVALID_ARGUMENT, /idle/);
    // ingress.tiny's default action is const.
    expectRefused(device, 'MODIFY', { table_entry: { table_id: TINY, is_default_action: true, action: { action: { action_id: NO_ACTION } } } }, Code.PERMISSION_DENIED, /const/);
    // ingress.to_cpu is @tableonly in ingress.acl.
    expectRefused(device, 'MODIFY', { table_entry: { table_id: ACL, is_default_action: true, action: { action: { action_id: TO_CPU } } } }, Code.PERMISSION_DENIED, /tableonly/);
    // The default of an indirect table is fixed.
    expectRefused(device, 'MODIFY', { table_entry: { table_id: ECMP, is_default_action: true, action: { action_profile_member_id: 1 } } }, Code.PERMISSION_DENIED);
    expectOk(write1(device, 'MODIFY', { table_entry: { table_id: ACL, is_default_action: true, action: { action: { action_id: DROP } } } }));
  });

  it('reads every default entry with table_id 0', () => {
    const device = committedDevice();
    const defaults = read(device, { table_entry: { is_default_action: true } });
    expect(defaults.map((e) => e.table_entry!.table_id).sort()).toEqual([...device.forwarding!.tables.all()].map((t) => t.info.id).sort());
  });
});

describe('direct counters', () => {
  it('initialises with the entry, reads with counter_data, and is written through DirectCounterEntry', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', { table_entry: { table_id: L2, match: l2Match(1), action: forward(1), counter_data: { packet_count: 3, byte_count: 300 } } }));
    expectOk(write1(device, 'INSERT', { table_entry: { table_id: L2, match: l2Match(2), action: forward(1) } }));
    const counters = read(device, { table_entry: { table_id: L2, counter_data: {} } }).map((e) => e.table_entry!.counter_data);
    expect(counters).toEqual([
      { packet_count: '3', byte_count: '300' },
      { packet_count: '0', byte_count: '0' },
    ]);
    // The data plane increments the cell in place.
    const record = device.forwarding!.tables.lookup(L2).lookupExact(mac(2).toString('latin1'))!;
    record.counter!.packets += 1;
    record.counter!.bytes += 64;
    expect(read(device, { direct_counter_entry: { table_entry: { table_id: L2, match: l2Match(2) } } })).toMatchObject([
      { direct_counter_entry: { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(2) } }] }, data: { packet_count: '1', byte_count: '64' } } },
    ]);
    // MODIFY of the entry without counter_data keeps the counter; with it, sets it.
    expectOk(write1(device, 'MODIFY', { table_entry: { table_id: L2, match: l2Match(2), action: forward(2) } }));
    expect(record.counter).toEqual({ packets: 1, bytes: 64 });
    expectOk(write1(device, 'MODIFY', { direct_counter_entry: { table_entry: { table_id: L2, match: l2Match(2) }, data: { packet_count: 10, byte_count: 20 } } }));
    expect(read(device, { direct_counter_entry: { table_entry: { table_id: L2, match: l2Match(2) } } })[0]!.direct_counter_entry!.data).toEqual({ packet_count: '10', byte_count: '20' });
    // Wildcards: every entry of the table, every table.
    expect(read(device, { direct_counter_entry: { table_entry: { table_id: L2 } } })).toHaveLength(2);
    expect(read(device, { direct_counter_entry: {} })).toHaveLength(2);
    // The default entry has its counter too.
    expectOk(write1(device, 'MODIFY', { direct_counter_entry: { table_entry: { table_id: L2, is_default_action: true }, data: { packet_count: 5 } } }));
    expect(read(device, { direct_counter_entry: { table_entry: { table_id: L2, is_default_action: true } } })[0]!.direct_counter_entry!.data!.packet_count).toBe('5');
  });

  it('refuses INSERT/DELETE, missing entries, tables without a counter and bad values', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', { table_entry: { table_id: L2, match: l2Match(1), action: forward(1) } }));
    const dc = (match: object[], data: object = { packet_count: 1 }): object => ({ direct_counter_entry: { table_entry: { table_id: L2, match }, data } });
    expectRefused(device, 'INSERT', dc(l2Match(1)), Code.INVALID_ARGUMENT, /modified/);
    expectRefused(device, 'DELETE', dc(l2Match(1)), Code.INVALID_ARGUMENT);
    expectRefused(device, 'MODIFY', dc(l2Match(9)), Code.NOT_FOUND);
    expectRefused(device, 'MODIFY', dc(l2Match(1), { packet_count: -1 }), Code.INVALID_ARGUMENT, /negative/);
    expectRefused(device, 'MODIFY', dc(l2Match(1), { packet_count: '9007199254740993' }), Code.OUT_OF_RANGE);
    expectRefused(device, 'MODIFY', { direct_counter_entry: { table_entry: { table_id: ACL }, data: {} } }, Code.INVALID_ARGUMENT, /no direct counter/);
    expectRefused(device, 'INSERT', { table_entry: { table_id: ACL, priority: 1, action: { action: { action_id: DROP } }, counter_data: {} } }, Code.INVALID_ARGUMENT, /no direct counter/);
    expect(readStatus(device, { direct_counter_entry: { table_entry: { table_id: L2, match: l2Match(9) } } }).code).toBe(Code.NOT_FOUND);
  });
});

describe('direct meters', () => {
  const lpm = (extra: object = {}): object => ({
    table_entry: {
      table_id: LPM,
      match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }],
      action: { action: { action_id: SET_NHOP, params: [{ param_id: 1, value: mac(1) }, { param_id: 2, value: b(1) }] } },
      ...extra,
    },
  });
  const config = { cir: 1000, cburst: 100, pir: 2000, pburst: 200 };

  it('stores the config with the entry, resets it on MODIFY without config, and writes it through DirectMeterEntry', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', lpm({ meter_config: config })));
    expect(read(device, { table_entry: { table_id: LPM, meter_config: {} } })[0]!.table_entry!.meter_config).toEqual({
      cir: '1000',
      cburst: '100',
      pir: '2000',
      pburst: '200',
      eburst: '0',
    });
    expectOk(write1(device, 'MODIFY', lpm()));
    expect(read(device, { table_entry: { table_id: LPM, meter_config: {} } })[0]!.table_entry!.meter_config).toBeNull();
    const key = { table_id: LPM, match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }] };
    expectOk(write1(device, 'MODIFY', { direct_meter_entry: { table_entry: key, config } }));
    expect(read(device, { direct_meter_entry: { table_entry: key } })[0]!.direct_meter_entry!.config).toMatchObject({ cir: '1000' });
    expect([...device.forwarding!.tables.lookup(LPM).entries()][0]!.meter).toEqual({ ...config, eburst: 0 });
    expectOk(write1(device, 'MODIFY', { direct_meter_entry: { table_entry: key } }));
    expect(read(device, { direct_meter_entry: { table_entry: key } })[0]!.direct_meter_entry!.config).toBeNull();
  });

  it('checks the config against the meter type and refuses colour counters', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', lpm({ meter_config: { ...config, eburst: 5 } }), Code.INVALID_ARGUMENT, /eburst/);
    expectRefused(device, 'INSERT', lpm({ meter_config: { ...config, cir: -5 } }), Code.INVALID_ARGUMENT, /negative/);
    expectOk(write1(device, 'INSERT', lpm()));
    const key = { table_id: LPM, match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }] };
    expectRefused(device, 'MODIFY', { direct_meter_entry: { table_entry: key, config, counter_data: {} } }, Code.UNIMPLEMENTED);
    expectRefused(device, 'INSERT', { direct_meter_entry: { table_entry: key, config } }, Code.INVALID_ARGUMENT);
    expectRefused(device, 'MODIFY', { direct_meter_entry: { table_entry: { table_id: L2, match: l2Match(1) }, config } }, Code.INVALID_ARGUMENT, /no direct meter/);
  });
});
