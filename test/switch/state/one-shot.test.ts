// One-shot action selector programming (P4Runtime spec §"One Shot Action Selector
// Programming"): a table entry carrying an action set makes a hidden group and
// members, reads back as the set it was written with, and cannot be mixed with
// member/group programming of the same selector. Limits: max_group_size (per
// selector_size_semantics), max_member_weight, weights_disallowed, the profile's size.
import { describe, expect, it } from 'vitest';
import type * as p4i from '../../../src/proto/p4i.js';
import type { DeviceState } from '../../../src/switch/state/device-state.js';
import { DeviceState as Device } from '../../../src/switch/state/device-state.js';
import { Code } from '../../../src/switch/state/status.js';
import { CONVERSION, messageType } from '../../../src/proto/load.js';
import { b, committedDevice, expectOk, expectRefused, id, pipelineConfig, quietLogger, read, testP4Info, update, write1, writeAll } from './helpers.js';

const PROFILE = id.profile('ingress.ecmp_selector');
const ECMP = id.table('ingress.ecmp');
const SET_NHOP = id.action('ingress.set_nhop');
const DROP = id.action('ingress.drop');

const nhop = (port: number): object => ({ action_id: SET_NHOP, params: [{ param_id: 1, value: b(0xaa, 0, 0, 0, 0, port) }, { param_id: 2, value: b(port) }] });
const actionSet = (...items: [port: number, weight: number][]): object => ({
  action_profile_action_set: { action_profile_actions: items.map(([port, weight]) => ({ action: nhop(port), weight })) },
});
const ecmpEntry = (dst: number, action: object | null): object => ({ table_entry: { table_id: ECMP, match: [{ field_id: 1, exact: { value: b(10, 0, 0, dst) } }], ...(action ? { action } : {}) } });
const member = (memberId: number, port = memberId): object => ({ action_profile_member: { action_profile_id: PROFILE, member_id: memberId, action: nhop(port) } });
const group = (groupId: number, members: [number, number][]): object => ({
  action_profile_group: { action_profile_id: PROFILE, group_id: groupId, members: members.map(([member_id, weight]) => ({ member_id, weight })) },
});

/** What the selector holds inside, hidden members and groups included. */
function inside(device: DeviceState): { members: number; groups: number; slots: number[][] } {
  const p = device.current!.forwarding.actionProfiles.profile(PROFILE)!;
  return { members: p.members.size, groups: p.groups.size, slots: [...p.groups.values()].map((g) => [...g.slots]) };
}

/** The kitchen sink's selector with `edit` applied to its P4Info message. */
function deviceWithSelector(edit: (selector: Record<string, unknown>) => void): DeviceState {
  const type = messageType('p4.config.v1.P4Info');
  const plain = type.toObject(type.fromObject(testP4Info() as unknown as Record<string, unknown>), { ...CONVERSION, defaults: false }) as { action_profiles: Record<string, unknown>[] };
  edit(plain.action_profiles[0]!);
  const p4info = type.toObject(type.fromObject(plain), CONVERSION) as p4i.P4Info__Output;
  const device = new Device({ logger: quietLogger() });
  expect(device.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info)).code).toBe(Code.OK);
  return device;
}

describe('one-shot action sets', () => {
  it('INSERT makes hidden members and a group; the entry reads back as the set written, members and group reads stay empty', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 1], [2, 3]))));
    const [entry] = read(device, { table_entry: { table_id: ECMP } });
    expect(entry!.table_entry!.action!.action_profile_action_set!.action_profile_actions).toMatchObject([
      { action: { action_id: SET_NHOP, params: [{ param_id: 1, value: b(0xaa, 0, 0, 0, 0, 1) }, { param_id: 2, value: b(1) }] }, weight: 1 },
      { action: { action_id: SET_NHOP, params: [{ param_id: 1, value: b(0xaa, 0, 0, 0, 0, 2) }, { param_id: 2, value: b(2) }] }, weight: 3 },
    ]);
    expect(read(device, { action_profile_member: {} }, { action_profile_group: {} })).toEqual([]);
    // One hidden member per action; the data plane picks among 1 + 3 slots.
    const state = inside(device);
    expect(state).toMatchObject({ members: 2, groups: 1 });
    expect(state.slots[0]).toHaveLength(4);
    expect(new Set(state.slots[0]).size).toBe(2);
  });

  it('keeps two identical actions apart (the spec forbids coalescing them) and each counts as a member', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 1], [1, 1]))));
    expect(read(device, { table_entry: { table_id: ECMP } })[0]!.table_entry!.action!.action_profile_action_set!.action_profile_actions).toHaveLength(2);
    expect(inside(device)).toMatchObject({ members: 2, groups: 1 });
  });

  it('MODIFY replaces the set (freeing the old hidden members), MODIFY without action keeps it, DELETE removes everything', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 1], [2, 1]))));
    expectOk(write1(device, 'MODIFY', ecmpEntry(1, actionSet([3, 2]))));
    expect(read(device, { table_entry: { table_id: ECMP } })[0]!.table_entry!.action!.action_profile_action_set!.action_profile_actions).toMatchObject([{ weight: 2 }]);
    expect(inside(device)).toMatchObject({ members: 1, groups: 1 });
    expectOk(write1(device, 'MODIFY', ecmpEntry(1, null)));
    expect(read(device, { table_entry: { table_id: ECMP } })[0]!.table_entry!.action!.action_profile_action_set!.action_profile_actions).toMatchObject([{ weight: 2 }]);
    expectOk(write1(device, 'DELETE', ecmpEntry(1, null)));
    expect(inside(device)).toEqual({ members: 0, groups: 0, slots: [] });
    // With no one-shot entry left, the selector can be programmed with members and groups again.
    expectOk(write1(device, 'INSERT', member(1)));
    expectOk(write1(device, 'INSERT', group(1, [[1, 1]])));
  });

  it('writes back what it reads (read-write symmetry)', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 2], [2, 1]))));
    const before = read(device, { table_entry: { table_id: ECMP } });
    expectOk(write1(device, 'MODIFY', before[0]!));
    expect(read(device, { table_entry: { table_id: ECMP } })).toEqual(before);
    expectOk(write1(device, 'DELETE', before[0]!));
    expectOk(write1(device, 'INSERT', before[0]!));
    expect(read(device, { table_entry: { table_id: ECMP } })).toEqual(before);
  });

  it('refuses mixing one-shot and member/group programming on one selector with INVALID_ARGUMENT', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 1]))));
    expectRefused(device, 'INSERT', member(1), Code.INVALID_ARGUMENT, /mixing/);
    expectRefused(device, 'INSERT', group(1, []), Code.INVALID_ARGUMENT, /mixing/);
    // Hidden ids are not reachable: an entry naming a member or group is mixing too.
    expectRefused(device, 'INSERT', ecmpEntry(2, { action_profile_member_id: 1 }), Code.INVALID_ARGUMENT, /mixing/);
    expectRefused(device, 'INSERT', ecmpEntry(2, { action_profile_group_id: 1 }), Code.INVALID_ARGUMENT, /mixing/);
    expectRefused(device, 'MODIFY', ecmpEntry(1, { action_profile_group_id: 1 }), Code.INVALID_ARGUMENT, /mixing/);

    const manual = committedDevice();
    expectOk(write1(manual, 'INSERT', member(1)));
    expectRefused(manual, 'INSERT', ecmpEntry(1, actionSet([1, 1])), Code.INVALID_ARGUMENT, /mixing/);
    expect(inside(manual)).toMatchObject({ members: 1, groups: 0 });
  });

  it('refuses bad sets and leaves nothing behind', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', ecmpEntry(1, actionSet([1, 0])), Code.INVALID_ARGUMENT, /weight/);
    expectRefused(device, 'INSERT', ecmpEntry(1, actionSet([1, -2])), Code.INVALID_ARGUMENT, /weight/);
    expectRefused(device, 'INSERT', ecmpEntry(1, { action_profile_action_set: { action_profile_actions: [{ action: { action_id: DROP }, weight: 1 }] } }), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', ecmpEntry(1, { action_profile_action_set: { action_profile_actions: [{ weight: 1 }] } }), Code.INVALID_ARGUMENT, /no action/);
    // max_group_size 4, sum_of_weights (the default semantics): weights 3 + 2 exceed it.
    expectRefused(device, 'INSERT', ecmpEntry(1, actionSet([1, 3], [2, 2])), Code.INVALID_ARGUMENT, /max_group_size/);
    // As BMv2: an empty set is UNIMPLEMENTED; watch ports are UNIMPLEMENTED here (no port status).
    expectRefused(device, 'INSERT', ecmpEntry(1, { action_profile_action_set: {} }), Code.UNIMPLEMENTED, /empty/);
    expectRefused(device, 'INSERT', ecmpEntry(1, { action_profile_action_set: { action_profile_actions: [{ action: nhop(1), weight: 1, watch_port: b(3) }] } }), Code.UNIMPLEMENTED, /watch/);
    // A direct table takes no action set.
    expectRefused(device, 'INSERT', { table_entry: { table_id: id.table('ingress.ipv4_lpm'), match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }], action: actionSet([1, 1]) } }, Code.INVALID_ARGUMENT, /direct/);
    expect(inside(device)).toEqual({ members: 0, groups: 0, slots: [] });
  });

  it('counts each action as a member of the profile (size 8): RESOURCE_EXHAUSTED past it, a MODIFY frees the old set first', () => {
    const device = committedDevice();
    for (let dst = 1; dst <= 4; dst++) expectOk(write1(device, 'INSERT', ecmpEntry(dst, actionSet([dst, 1], [dst + 10, 1]))));
    expect(inside(device)).toMatchObject({ members: 8, groups: 4 });
    expectRefused(device, 'INSERT', ecmpEntry(5, actionSet([5, 1])), Code.RESOURCE_EXHAUSTED, /full/);
    expectOk(write1(device, 'MODIFY', ecmpEntry(4, actionSet([7, 1], [8, 1]))));
    expectRefused(device, 'MODIFY', ecmpEntry(4, actionSet([7, 1], [8, 1], [9, 1])), Code.RESOURCE_EXHAUSTED, /full/);
    expect(inside(device)).toMatchObject({ members: 8, groups: 4 });
  });

  it('undoes the hidden members and group with a rolled-back batch', () => {
    const device = committedDevice();
    const result = writeAll(device, [update('INSERT', ecmpEntry(1, actionSet([1, 1], [2, 1]))), update('INSERT', ecmpEntry(1, actionSet([3, 1])))], 'ROLLBACK_ON_ERROR');
    expect(result.map((s) => s.code)).toEqual([Code.ABORTED, Code.ALREADY_EXISTS]);
    expect(inside(device)).toEqual({ members: 0, groups: 0, slots: [] });
    expect(read(device, { table_entry: { table_id: ECMP } })).toEqual([]);
  });

  it('follows selector_size_semantics sum_of_members: at most max_group_size actions, each weight at most max_member_weight', () => {
    const device = deviceWithSelector((s) => {
      s.max_group_size = 2;
      s.sum_of_members = { max_member_weight: 3 };
    });
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 3], [2, 3]))));
    expectRefused(device, 'INSERT', ecmpEntry(2, actionSet([1, 1], [2, 1], [3, 1])), Code.INVALID_ARGUMENT, /max_group_size/);
    expectRefused(device, 'INSERT', ecmpEntry(2, actionSet([1, 4])), Code.INVALID_ARGUMENT, /max_member_weight/);
  });

  it('refuses weights other than 1 when the selector disallows weights', () => {
    const device = deviceWithSelector((s) => {
      s.weights_disallowed = true;
    });
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 1], [2, 1]))));
    expectRefused(device, 'INSERT', ecmpEntry(2, actionSet([1, 2])), Code.INVALID_ARGUMENT, /weights_disallowed/);
  });

  it('carries one-shot entries over a RECONCILE_AND_COMMIT', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', ecmpEntry(1, actionSet([1, 1], [2, 2]))));
    const before = read(device, { table_entry: { table_id: ECMP } });
    expect(device.setPipeline('RECONCILE_AND_COMMIT', pipelineConfig()).code).toBe(Code.OK);
    expect(read(device, { table_entry: { table_id: ECMP } })).toEqual(before);
    expect(inside(device)).toMatchObject({ members: 2, groups: 1 });
  });
});
