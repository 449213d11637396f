// Where BMv2 (simple_switch_grpc 1.15 with PI's P4Runtime server) accepts or
// refuses what the spec leaves open or words otherwise, and we must do the same
// to be a drop-in: full RANGE matches are accepted (PI compares the raw strings
// with n zero bytes .. n 0xff bytes, so the canonical full range passes), while
// a ternary mask of 0, an LPM prefix of 0 and a too-wide action parameter are
// refused as PI refuses them; meters refuse a peak rate below the committed rate
// (bm_sim/meters.cpp INVALID_INFO_RATE_VALUE).
import { describe, expect, it } from 'vitest';
import { Code } from '../../../src/switch/state/status.js';
import { b, committedDevice, expectOk, expectRefused, id, read, write1 } from './helpers.js';

const ACL = id.table('ingress.acl');
const LPM = id.table('ingress.ipv4_lpm');
const L2 = id.table('ingress.l2');
const DROP = id.action('ingress.drop');
const FORWARD = id.action('ingress.forward');
const TO_CPU = id.action('ingress.to_cpu');
const METER = id.meter('ingress.port_meter');

const dport = (low: Buffer, high: Buffer): object => ({ field_id: 4, range: { low, high } });
const aclEntry = (match: object[], priority: number, actionId = DROP): object => ({ table_entry: { table_id: ACL, match, action: { action: { action_id: actionId } }, priority } });

describe('a RANGE match over the whole range (0 .. 2^w-1)', () => {
  it('is accepted in canonical and padded form, stored, and read back exactly as written (not omitted)', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', aclEntry([dport(b(0), b(0xff, 0xff))], 10)));
    expectOk(write1(device, 'INSERT', aclEntry([{ field_id: 3, optional: { value: b(6) } }, dport(b(0, 0), b(0xff, 0xff))], 20)));
    const entries = read(device, { table_entry: { table_id: ACL } });
    expect(entries.map((e) => e.table_entry!.match)).toEqual([
      [{ field_id: 4, range: { low: b(0), high: b(0xff, 0xff) }, field_match_type: 'range' }],
      [
        { field_id: 3, optional: { value: b(6) }, field_match_type: 'optional' },
        { field_id: 4, range: { low: b(0), high: b(0xff, 0xff) }, field_match_type: 'range' },
      ],
    ]);
    // The data plane sees a range that holds every value.
    const record = [...device.forwarding!.tables.lookup(ACL).entries()][0]!;
    expect(record.fields[3]).toEqual({ kind: 'range', low: b(0, 0), high: b(0xff, 0xff) });
  });

  it('is the same entry as the omitted field ("don\'t care"): ALREADY_EXISTS, and MODIFY, DELETE and reads find it by either form', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', aclEntry([dport(b(0), b(0xff, 0xff))], 10)));
    expectRefused(device, 'INSERT', aclEntry([], 10), Code.ALREADY_EXISTS);
    expect(read(device, { table_entry: { table_id: ACL, match: [dport(b(0), b(0xff, 0xff))], priority: 10 } })).toHaveLength(1);
    expectOk(write1(device, 'MODIFY', aclEntry([], 10, TO_CPU)));
    expect(read(device, { table_entry: { table_id: ACL } })).toMatchObject([{ table_entry: { action: { action: { action_id: TO_CPU } }, match: [{ field_id: 4 }] } }]);
    expectOk(write1(device, 'DELETE', aclEntry([], 10)));
    expect(read(device, { table_entry: { table_id: ACL } })).toEqual([]);
    expectOk(write1(device, 'INSERT', aclEntry([], 10)));
    expectRefused(device, 'INSERT', aclEntry([dport(b(0), b(0xff, 0xff))], 10), Code.ALREADY_EXISTS);
    // Written without the field, read back without it.
    expect(read(device, { table_entry: { table_id: ACL } })[0]!.table_entry!.match).toEqual([]);
  });

  it('still refuses what PI refuses: low above high, a ternary mask of 0, an LPM prefix of 0', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', aclEntry([dport(b(2), b(1))], 10), Code.INVALID_ARGUMENT, /above high/);
    expectRefused(device, 'INSERT', aclEntry([{ field_id: 2, ternary: { value: b(0), mask: b(0) } }], 10), Code.INVALID_ARGUMENT, /zero mask/);
    expectRefused(
      device,
      'INSERT',
      { table_entry: { table_id: LPM, match: [{ field_id: 1, lpm: { value: b(0), prefix_len: 0 } }], action: { action: { action_id: DROP } } } },
      Code.INVALID_ARGUMENT,
      /prefix length 0/,
    );
    // A full ternary mask is an exact match of the field, not a don't care: accepted everywhere.
    expectOk(write1(device, 'INSERT', aclEntry([{ field_id: 2, ternary: { value: b(10, 0, 0, 1), mask: b(0xff, 0xff, 0xff, 0xff) } }], 10)));
  });
});

describe('action parameters', () => {
  it('refuses a value wider than the parameter with INVALID_ARGUMENT, as BMv2 does', () => {
    const device = committedDevice();
    const entry = (port: Buffer): object => ({
      table_entry: { table_id: L2, match: [{ field_id: 1, exact: { value: b(1) } }], action: { action: { action_id: FORWARD, params: [{ param_id: 1, value: port }] } } },
    });
    expectRefused(device, 'INSERT', entry(b(0x02, 0x00)), Code.INVALID_ARGUMENT, /does not fit in 9 bits/);
    expectOk(write1(device, 'INSERT', entry(b(0x01, 0xff))));
  });
});

describe('meter configs with pir below cir', () => {
  const bad = { cir: '2000', cburst: '100', pir: '1000', pburst: '100' };

  it('are refused with INVALID_ARGUMENT for indirect meters, direct meter entries and table entries, and nothing changes', () => {
    const device = committedDevice();
    expectRefused(device, 'MODIFY', { meter_entry: { meter_id: METER, index: { index: 1 }, config: bad } }, Code.INVALID_ARGUMENT, /pir 1000 is below cir 2000/);
    expectRefused(device, 'MODIFY', { meter_entry: { meter_id: METER, config: bad } }, Code.INVALID_ARGUMENT, /pir/);
    const lpm = { table_id: LPM, match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }], action: { action: { action_id: DROP } } };
    expectRefused(device, 'INSERT', { table_entry: { ...lpm, meter_config: bad } }, Code.INVALID_ARGUMENT, /pir/);
    expectOk(write1(device, 'INSERT', { table_entry: lpm }));
    expectRefused(device, 'MODIFY', { table_entry: { ...lpm, meter_config: bad } }, Code.INVALID_ARGUMENT, /pir/);
    expectRefused(device, 'MODIFY', { direct_meter_entry: { table_entry: { table_id: LPM, match: lpm.match }, config: bad } }, Code.INVALID_ARGUMENT, /pir/);
  });

  it('accept pir = cir and any burst sizes (BMv2 checks no burst), including pburst below cburst and bursts of 0', () => {
    const device = committedDevice();
    for (const config of [
      { cir: '1000', cburst: '100', pir: '1000', pburst: '100' },
      { cir: '1000', cburst: '500', pir: '2000', pburst: '100' },
      { cir: '1000', cburst: '0', pir: '2000', pburst: '0' },
    ]) {
      expectOk(write1(device, 'MODIFY', { meter_entry: { meter_id: METER, index: { index: 1 }, config } }));
    }
  });
});
