import { describe, expect, it } from 'vitest';
import { Code } from '../../../src/switch/state/status.js';
import type * as p4r from '../../../src/proto/p4r.js';
import type { TableEntryRecord } from '../../../src/switch/state/table-store.js';
import { b, committedDevice, decoded, expectOk, expectRefused, id, read, readStatus, update, write1, writeAll } from './helpers.js';

const L2 = id.table('ingress.l2');
const LPM = id.table('ingress.ipv4_lpm');
const ACL = id.table('ingress.acl');
const TINY = id.table('ingress.tiny');
const FIXED = id.table('ingress.fixed');
const FLOWS = id.table('ingress.flows');
const FORWARD = id.action('ingress.forward');
const DROP = id.action('ingress.drop');
const NO_ACTION = id.action('NoAction');
const SET_NHOP = id.action('ingress.set_nhop');
const SET_MARK = id.action('ingress.set_mark');
const TO_CPU = id.action('ingress.to_cpu');

const mac = (last: number): Buffer => b(0xaa, 0xbb, 0xcc, 0xdd, 0xee, last);
/** A stored entry's direct action as plain data (a stored call keeps its values in another form). */
const directAction = (record: TableEntryRecord | undefined): object | undefined =>
  record?.action.kind === 'action' ? { kind: 'action', call: { actionId: record.action.call.actionId, params: [...record.action.call.params] } } : record?.action;
const forward = (port: Buffer | number[]): object => ({ action: { action_id: FORWARD, params: [{ param_id: 1, value: Buffer.from(port) }] } });
const l2Entry = (last: number, port: number[] = [1], extra: object = {}): object => ({
  table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(last) } }], action: forward(port), ...extra },
});
const lpmEntry = (value: Buffer, prefixLen: number, extra: object = {}): object => ({
  table_entry: {
    table_id: LPM,
    match: [{ field_id: 1, lpm: { value, prefix_len: prefixLen } }],
    action: { action: { action_id: SET_NHOP, params: [{ param_id: 1, value: mac(1) }, { param_id: 2, value: b(2) }] } },
    ...extra,
  },
});
const aclEntry = (match: object[], priority: number, action: object = { action: { action_id: DROP } }): object => ({
  table_entry: { table_id: ACL, match, priority, action },
});

describe('table entries: exact', () => {
  it('inserts, reads back canonical, modifies and deletes', () => {
    const device = committedDevice();
    // Padded values (as the tutorials send) are accepted and stored canonical.
    expectOk(write1(device, 'INSERT', l2Entry(1, [0, 5], { metadata: b(9, 9) })));
    const [entity] = read(device, { table_entry: { table_id: L2 } });
    expect(entity!.table_entry).toMatchObject({
      table_id: L2,
      match: [{ field_id: 1, exact: { value: mac(1) } }],
      action: { action: { action_id: FORWARD, params: [{ param_id: 1, value: b(5) }] } },
      priority: 0,
      metadata: b(9, 9),
      is_default_action: false,
    });
    expect(entity!.table_entry!.counter_data).toBeNull(); // not asked for

    expectOk(write1(device, 'MODIFY', l2Entry(1, [7])));
    expect(read(device, { table_entry: { table_id: L2 } })[0]!.table_entry!.action!.action!.params[0]!.value).toEqual(b(7));
    expect(read(device, { table_entry: { table_id: L2 } })[0]!.table_entry!.metadata).toEqual(b()); // MODIFY replaces metadata

    // DELETE reads only the key: a nonsense action is ignored.
    expectOk(write1(device, 'DELETE', { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(1) } }], action: { action: { action_id: 12345 } } } }));
    expect(read(device, { table_entry: { table_id: L2 } })).toEqual([]);
  });

  it('keeps entries in a Map keyed by the concatenated padded field values', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', l2Entry(3)));
    const table = device.forwarding!.tables.lookup(L2);
    expect(table.layout.exactOnly).toBe(true);
    const record = table.lookupExact(mac(3).toString('latin1'));
    expect(directAction(record)).toEqual({ kind: 'action', call: { actionId: FORWARD, params: [b(1)] } });
    expect(record?.fields[0]).toEqual({ kind: 'exact', value: mac(3) });
    // A padded-to-width key even for a small value.
    expectOk(write1(device, 'INSERT', l2Entry(0)));
    expectOk(write1(device, 'INSERT', { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: b(1) } }], action: forward([1]) } }));
    expect(directAction(table.lookupExact(b(0, 0, 0, 0, 0, 1).toString('latin1')))).toEqual({ kind: 'action', call: { actionId: FORWARD, params: [b(1)] } });
  });

  it('bumps the table version on every change and not on refusals', () => {
    const device = committedDevice();
    const table = device.forwarding!.tables.lookup(L2);
    const v0 = table.version;
    expectOk(write1(device, 'INSERT', l2Entry(1)));
    const v1 = table.version;
    expect(v1).not.toBe(v0);
    expect(write1(device, 'INSERT', l2Entry(1)).code).toBe(Code.ALREADY_EXISTS);
    expect(table.version).toBe(v1);
  });

  it('refuses bad writes with the right codes and changes nothing', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', l2Entry(1)));
    expectRefused(device, 'INSERT', l2Entry(1), Code.ALREADY_EXISTS);
    expectRefused(device, 'MODIFY', l2Entry(2), Code.NOT_FOUND);
    expectRefused(device, 'DELETE', l2Entry(2), Code.NOT_FOUND);
    expectRefused(device, 'UNSPECIFIED', l2Entry(2), Code.INVALID_ARGUMENT, /UNSPECIFIED/);
    expectRefused(device, 'INSERT', { table_entry: { ...(l2Entry(2) as { table_entry: object }).table_entry, table_id: 0x02000001 } }, Code.NOT_FOUND);
    expectRefused(device, 'INSERT', { table_entry: { table_id: 0 } }, Code.INVALID_ARGUMENT);
    // Value too wide for 48 bits; empty value.
    expectRefused(device, 'INSERT', { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: b(1, 0, 0, 0, 0, 0, 0) } }], action: forward([1]) } }, Code.INVALID_ARGUMENT, /does not fit/);
    expectRefused(device, 'INSERT', { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: b() } }], action: forward([1]) } }, Code.INVALID_ARGUMENT, /empty/);
    // Exact field omitted, unknown field, duplicate field, wrong match kind.
    expectRefused(device, 'INSERT', { table_entry: { table_id: L2, match: [], action: forward([1]) } }, Code.INVALID_ARGUMENT, /missing/);
    expectRefused(device, 'INSERT', { table_entry: { table_id: L2, match: [{ field_id: 9, exact: { value: b(1) } }], action: forward([1]) } }, Code.INVALID_ARGUMENT, /no match field/);
    expectRefused(
      device,
      'INSERT',
      { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: b(1) } }, { field_id: 1, exact: { value: b(2) } }], action: forward([1]) } },
      Code.INVALID_ARGUMENT,
      /twice/,
    );
    expectRefused(device, 'INSERT', { table_entry: { table_id: L2, match: [{ field_id: 1, lpm: { value: b(1), prefix_len: 8 } }], action: forward([1]) } }, Code.INVALID_ARGUMENT, /EXACT/);
    // Priority in a table without ternary fields.
    expectRefused(device, 'INSERT', { table_entry: { ...(l2Entry(5) as { table_entry: object }).table_entry, priority: 3 } }, Code.INVALID_ARGUMENT, /priority/);
    // is_const in a write.
    expectRefused(device, 'INSERT', { table_entry: { ...(l2Entry(5) as { table_entry: object }).table_entry, is_const: true } }, Code.INVALID_ARGUMENT, /is_const/);
    // No action on INSERT.
    expectRefused(device, 'INSERT', { table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(5) } }] } }, Code.INVALID_ARGUMENT, /needs an action/);
    // time_since_last_hit in a write; idle timeout on a table without support.
    expectRefused(device, 'INSERT', l2Entry(5, [1], { time_since_last_hit: {} }), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', l2Entry(5, [1], { idle_timeout_ns: 1000 }), Code.INVALID_ARGUMENT, /idle/);
    // Direct meter config on a table without a direct meter; per-colour counters unsupported.
    expectRefused(device, 'INSERT', l2Entry(5, [1], { meter_config: { cir: 1, cburst: 1, pir: 1, pburst: 1 } }), Code.INVALID_ARGUMENT, /no direct meter/);
    expectRefused(device, 'INSERT', l2Entry(5, [1], { meter_counter_data: {} }), Code.UNIMPLEMENTED);
  });

  it('checks actions: membership, parameters, widths and scopes', () => {
    const device = committedDevice();
    const entry = (action: object): object => ({ table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: mac(1) } }], action } });
    expectRefused(device, 'INSERT', entry({ action: { action_id: SET_NHOP, params: [] } }), Code.INVALID_ARGUMENT, /not one of the actions/);
    expectRefused(device, 'INSERT', entry({ action: { action_id: 0x01999999 } }), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', entry({ action: { action_id: FORWARD, params: [] } }), Code.INVALID_ARGUMENT, /missing/);
    expectRefused(device, 'INSERT', entry({ action: { action_id: FORWARD, params: [{ param_id: 2, value: b(1) }] } }), Code.INVALID_ARGUMENT, /no parameter/);
    expectRefused(
      device,
      'INSERT',
      entry({ action: { action_id: FORWARD, params: [{ param_id: 1, value: b(1) }, { param_id: 1, value: b(2) }] } }),
      Code.INVALID_ARGUMENT,
      /twice/,
    );
    expectRefused(device, 'INSERT', entry({ action: { action_id: FORWARD, params: [{ param_id: 1, value: b(2, 0) }] } }), Code.INVALID_ARGUMENT, /9 bits/);
    // NoAction is @defaultonly in ingress.l2.
    expectRefused(device, 'INSERT', entry({ action: { action_id: NO_ACTION } }), Code.PERMISSION_DENIED, /defaultonly/);
    // An action profile member id in a direct table; an empty action.
    expectRefused(device, 'INSERT', entry({ action_profile_member_id: 1 }), Code.INVALID_ARGUMENT, /direct table/);
    expectRefused(device, 'INSERT', entry({}), Code.INVALID_ARGUMENT, /empty/);
    expectOk(write1(device, 'INSERT', entry({ action: { action_id: DROP } })));
  });

  it('enforces the table size with RESOURCE_EXHAUSTED', () => {
    const device = committedDevice();
    const tiny = (v: number): object => ({
      table_entry: { table_id: TINY, match: [{ field_id: 1, exact: { value: b(8, v) } }], action: { action: { action_id: SET_MARK, params: [{ param_id: 1, value: b(v) }] } } },
    });
    for (let v = 0; v < 4; v++) expectOk(write1(device, 'INSERT', tiny(v)));
    expectRefused(device, 'INSERT', tiny(4), Code.RESOURCE_EXHAUSTED, /full/);
    expectOk(write1(device, 'DELETE', tiny(0)));
    expectOk(write1(device, 'INSERT', tiny(4)));
  });

  it('keeps controller_metadata and idle timeouts, and reports time_since_last_hit when asked', () => {
    let nowMs = 1_000;
    const device = committedDevice(() => nowMs);
    const flow = { table_entry: { table_id: FLOWS, match: [{ field_id: 1, exact: { value: b(1, 2) } }], action: forward([3]), idle_timeout_ns: '5000000000', controller_metadata: '77' } };
    expectOk(write1(device, 'INSERT', flow));
    const [plain] = read(device, { table_entry: { table_id: FLOWS } });
    expect(plain!.table_entry).toMatchObject({ idle_timeout_ns: '5000000000', controller_metadata: '77', time_since_last_hit: null });
    // Never hit: idle since it was inserted, 2.5 ms ago on the device's clock.
    nowMs += 2.5;
    const [withHit] = read(device, { table_entry: { table_id: FLOWS, time_since_last_hit: {} } });
    expect(withHit!.table_entry!.time_since_last_hit!.elapsed_ns).toBe('2500000');
    expect(readStatus(device, { table_entry: { table_id: L2, time_since_last_hit: {} } }).code).toBe(Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', { table_entry: { ...flow.table_entry, match: [{ field_id: 1, exact: { value: b(9) } }], idle_timeout_ns: '-1' } }, Code.INVALID_ARGUMENT, /negative/);
  });
});

describe('table entries: LPM', () => {
  it('round-trips and keeps the prefix mask ready', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', lpmEntry(b(10, 0, 0, 0), 8)));
    expectOk(write1(device, 'INSERT', lpmEntry(b(10, 1, 0, 0), 16)));
    expectOk(write1(device, 'INSERT', lpmEntry(b(0, 0, 0, 0, 1), 32))); // padded beyond the width but fits: canonical 0x01
    const entries = read(device, { table_entry: { table_id: LPM } });
    expect(entries.map((e) => e.table_entry!.match[0]!.lpm)).toEqual([
      { value: b(10, 0, 0, 0), prefix_len: 8 },
      { value: b(10, 1, 0, 0), prefix_len: 16 },
      { value: b(1), prefix_len: 32 },
    ]);
    const records = [...device.forwarding!.tables.lookup(LPM).entries()];
    expect(records[1]!.fields[0]).toEqual({ kind: 'lpm', value: b(10, 1, 0, 0), mask: b(255, 255, 0, 0), prefixLen: 16 });
  });

  it('refuses host bits, prefix 0 and out-of-range prefixes', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', lpmEntry(b(10, 0, 0, 1), 24), Code.INVALID_ARGUMENT, /past the \/24 prefix/);
    expectRefused(device, 'INSERT', lpmEntry(b(0), 0), Code.INVALID_ARGUMENT, /don't-care/);
    expectRefused(device, 'INSERT', lpmEntry(b(10, 0, 0, 0), 33), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', lpmEntry(b(10, 0, 0, 0), -1), Code.INVALID_ARGUMENT);
    // An all-don't-care LPM entry (field omitted) is allowed.
    expectOk(write1(device, 'INSERT', { table_entry: { table_id: LPM, match: [], action: { action: { action_id: DROP } } } }));
  });
});

describe('table entries: ternary, optional and range', () => {
  const port = (v: number, m: number): object => ({ field_id: 1, ternary: { value: b(v), mask: b(m) } });
  const src = (v: number[], m: number[]): object => ({ field_id: 2, ternary: { value: b(...v), mask: b(...m) } });
  const proto = (v: number): object => ({ field_id: 3, optional: { value: b(v) } });
  const dport = (lo: number, hi: number): object => ({ field_id: 4, range: { low: b(lo >> 8, lo & 0xff), high: b(hi >> 8, hi & 0xff) } });

  it('round-trips every match kind, with priorities', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', aclEntry([port(1, 0xff), src([10, 0, 0, 0], [255, 0, 0, 0]), proto(17), dport(1000, 2000)], 10)));
    // Same match, another priority: a different entry.
    expectOk(write1(device, 'INSERT', aclEntry([port(1, 0xff), src([10, 0, 0, 0], [255, 0, 0, 0]), proto(17), dport(1000, 2000)], 20)));
    // All don't-care.
    expectOk(write1(device, 'INSERT', aclEntry([], 1, { action: { action_id: TO_CPU } })));
    const all = read(device, { table_entry: { table_id: ACL } });
    expect(all).toHaveLength(3);
    expect(all[0]!.table_entry!.match).toEqual([
      { field_id: 1, ternary: { value: b(1), mask: b(0xff) }, field_match_type: 'ternary' },
      { field_id: 2, ternary: { value: b(10, 0, 0, 0), mask: b(255, 0, 0, 0) }, field_match_type: 'ternary' },
      { field_id: 3, optional: { value: b(17) }, field_match_type: 'optional' },
      { field_id: 4, range: { low: b(0x03, 0xe8), high: b(0x07, 0xd0) }, field_match_type: 'range' },
    ]);
    const record = [...device.forwarding!.tables.lookup(ACL).entries()][0]!;
    expect(record.fields).toEqual([
      { kind: 'ternary', value: b(0, 1), mask: b(0, 0xff) },
      { kind: 'ternary', value: b(10, 0, 0, 0), mask: b(255, 0, 0, 0) },
      { kind: 'optional', value: b(17) },
      { kind: 'range', low: b(0x03, 0xe8), high: b(0x07, 0xd0) },
    ]);
    // Reading by match with priority 0 returns every priority; with a priority, that one.
    const match = [port(1, 0xff), src([10, 0, 0, 0], [255, 0, 0, 0]), proto(17), dport(1000, 2000)];
    expect(read(device, { table_entry: { table_id: ACL, match } })).toHaveLength(2);
    expect(read(device, { table_entry: { table_id: ACL, match, priority: 20 } }).map((e) => e.table_entry!.priority)).toEqual([20]);
    // Delete by key (match + priority).
    expectOk(write1(device, 'DELETE', aclEntry(match, 10)));
    expect(read(device, { table_entry: { table_id: ACL } }).map((e) => e.table_entry!.priority).sort()).toEqual([1, 20]);
  });

  it('refuses malformed ternary, range and priority', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', aclEntry([port(3, 1)], 5), Code.INVALID_ARGUMENT, /outside mask/);
    expectRefused(device, 'INSERT', aclEntry([port(0, 0)], 5), Code.INVALID_ARGUMENT, /zero mask/);
    expectRefused(device, 'INSERT', aclEntry([dport(10, 5)], 5), Code.INVALID_ARGUMENT, /above high/);
    // (A full range is accepted, as BMv2 does: bmv2-parity.test.ts.)
    expectRefused(device, 'INSERT', aclEntry([{ field_id: 1, ternary: { value: b(1), mask: b(2, 0xff) } }], 5), Code.INVALID_ARGUMENT, /does not fit in 9 bits/);
    expectRefused(device, 'INSERT', aclEntry([port(1, 1)], 0), Code.INVALID_ARGUMENT, /priority > 0/);
    expectRefused(device, 'INSERT', aclEntry([port(1, 1)], -4), Code.INVALID_ARGUMENT, /negative/);
    // A table-only action is fine for entries; the default scope checks are in default-entries tests.
    expectOk(write1(device, 'INSERT', aclEntry([port(1, 1)], 5, { action: { action_id: TO_CPU } })));
  });

  it('filters wildcard reads by priority, action, metadata and controller_metadata', () => {
    const device = committedDevice();
    writeAll(device, [
      update('INSERT', aclEntry([port(1, 0xff)], 3)),
      update('INSERT', { table_entry: { ...(aclEntry([port(2, 0xff)], 4, { action: { action_id: TO_CPU } }) as { table_entry: object }).table_entry, metadata: b(1) } }),
      update('INSERT', { table_entry: { ...(aclEntry([port(3, 0xff)], 4) as { table_entry: object }).table_entry, controller_metadata: '9' } }),
    ]).forEach(expectOk);
    const prios = (request: object): number[] => read(device, { table_entry: { table_id: ACL, ...request } }).map((e) => e.table_entry!.priority);
    expect(prios({ priority: 4 })).toEqual([4, 4]);
    expect(prios({ action: { action: { action_id: TO_CPU } } })).toEqual([4]);
    expect(prios({ metadata: b(1) })).toEqual([4]);
    expect(prios({ controller_metadata: '9' })).toEqual([4]);
    expect(prios({})).toEqual([3, 4, 4]);
    // table_id 0 reads every table.
    expectOk(write1(device, 'INSERT', l2Entry(1)));
    expect(read(device, { table_entry: {} }).map((e) => e.table_entry!.table_id).sort()).toEqual([L2, ACL, ACL, ACL].sort());
    expect(readStatus(device, { table_entry: { match: [port(1, 1)] } }).code).toBe(Code.INVALID_ARGUMENT);
    expect(readStatus(device, { table_entry: { table_id: 0x02abcdef } }).code).toBe(Code.NOT_FOUND);
  });
});

describe('const tables', () => {
  const fixed = (ttl: number, action?: object): object => ({ table_entry: { table_id: FIXED, match: [{ field_id: 1, exact: { value: b(ttl) } }], ...(action ? { action } : {}) } });
  it('refuses INSERT and DELETE with PERMISSION_DENIED, and an action in MODIFY', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', fixed(1, { action: { action_id: DROP } }), Code.PERMISSION_DENIED, /const/);
    expectRefused(device, 'DELETE', fixed(1), Code.PERMISSION_DENIED);
    expectRefused(device, 'MODIFY', fixed(1, { action: { action_id: DROP } }), Code.PERMISSION_DENIED);
    // MODIFY without action names an entry (of the program's const entries) that does not exist here.
    expectRefused(device, 'MODIFY', fixed(1), Code.NOT_FOUND);
  });

  it('holds the entries the program declares, read back with is_const', () => {
    const device = committedDevice();
    const entry = decoded<p4r.TableEntry__Output>('p4.v1.TableEntry', (fixed(64, { action: { action_id: DROP } }) as { table_entry: object }).table_entry);
    device.forwarding!.installProgramEntry(entry);
    expect(read(device, { table_entry: { table_id: FIXED } })).toMatchObject([{ table_entry: { table_id: FIXED, is_const: true, action: { action: { action_id: DROP } } } }]);
    expectOk(write1(device, 'MODIFY', fixed(64)));
    expectRefused(device, 'DELETE', fixed(64), Code.PERMISSION_DENIED);
    expect(() => device.forwarding!.installProgramEntry(entry)).toThrow(/already has an entry/);
  });
});

describe('keyless and unknown tables', () => {
  it('reads NOT_FOUND for unknown table ids', () => {
    const device = committedDevice();
    expect(readStatus(device, { table_entry: { table_id: 0x02000bad } })).toMatchObject({ code: Code.NOT_FOUND });
  });
});
