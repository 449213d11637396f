import { describe, expect, it } from 'vitest';
import { Code } from '../../../src/switch/state/status.js';
import { b, committedDevice, expectOk, expectRefused, id, read, write1 } from './helpers.js';

const PROFILE = id.profile('ingress.ecmp_selector');
const ECMP = id.table('ingress.ecmp');
const SET_NHOP = id.action('ingress.set_nhop');
const DROP = id.action('ingress.drop');

const nhop = (port: number): object => ({ action_id: SET_NHOP, params: [{ param_id: 1, value: b(0xaa, 0, 0, 0, 0, port) }, { param_id: 2, value: b(port) }] });
const member = (memberId: number, port = memberId): object => ({ action_profile_member: { action_profile_id: PROFILE, member_id: memberId, action: nhop(port) } });
const group = (groupId: number, members: [number, number][], maxSize = 0): object => ({
  action_profile_group: { action_profile_id: PROFILE, group_id: groupId, members: members.map(([member_id, weight]) => ({ member_id, weight })), max_size: maxSize },
});
const ecmpEntry = (action: object): object => ({ table_entry: { table_id: ECMP, match: [{ field_id: 1, exact: { value: b(10, 0, 0, 1) } }], action } });

describe('action profile members and groups', () => {
  it('inserts members and groups, points table entries at them and reads everything back', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', member(1)));
    expectOk(write1(device, 'INSERT', member(2)));
    expectOk(write1(device, 'INSERT', group(10, [[1, 1], [2, 3]])));
    expectOk(write1(device, 'INSERT', ecmpEntry({ action_profile_group_id: 10 })));
    expect(read(device, { action_profile_member: { action_profile_id: PROFILE } }).map((e) => e.action_profile_member!.member_id)).toEqual([1, 2]);
    expect(read(device, { action_profile_group: {} })).toMatchObject([
      { action_profile_group: { action_profile_id: PROFILE, group_id: 10, members: [{ member_id: 1, weight: 1 }, { member_id: 2, weight: 3 }], max_size: 0 } },
    ]);
    expect(read(device, { table_entry: { table_id: ECMP } })[0]!.table_entry!.action).toMatchObject({ action_profile_group_id: 10 });
    // Still referenced: cannot be deleted.
    expectRefused(device, 'DELETE', group(10, []), Code.FAILED_PRECONDITION);
    expectRefused(device, 'DELETE', member(1), Code.FAILED_PRECONDITION);
    // Point the entry at a member instead, then the group can go, then member 2.
    expectOk(write1(device, 'MODIFY', ecmpEntry({ action_profile_member_id: 1 })));
    expectOk(write1(device, 'DELETE', group(10, [])));
    expectOk(write1(device, 'DELETE', member(2)));
    expectRefused(device, 'DELETE', member(1), Code.FAILED_PRECONDITION);
    expectOk(write1(device, 'DELETE', ecmpEntry({})));
    expectOk(write1(device, 'DELETE', member(1)));
  });

  it('refuses bad members, groups and indirect table entries', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', member(1)));
    expectRefused(device, 'INSERT', member(1), Code.ALREADY_EXISTS);
    expectRefused(device, 'MODIFY', member(9), Code.NOT_FOUND);
    expectRefused(device, 'INSERT', member(0), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', { action_profile_member: { action_profile_id: PROFILE, member_id: 3, action: { action_id: DROP } } }, Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', { action_profile_member: { action_profile_id: PROFILE, member_id: 3 } }, Code.INVALID_ARGUMENT, /no action/);
    expectRefused(device, 'INSERT', { action_profile_member: { action_profile_id: 0x11000bad, member_id: 3, action: nhop(1) } }, Code.NOT_FOUND);
    expectRefused(device, 'INSERT', group(10, [[9, 1]]), Code.NOT_FOUND);
    expectRefused(device, 'INSERT', group(10, [[1, 0]]), Code.INVALID_ARGUMENT, /weight/);
    expectRefused(device, 'INSERT', group(10, [[1, 1], [1, 2]]), Code.INVALID_ARGUMENT, /twice/);
    expectRefused(device, 'INSERT', group(10, [[1, 5]]), Code.RESOURCE_EXHAUSTED);
    expectRefused(device, 'INSERT', group(10, [[1, 1]], 9), Code.INVALID_ARGUMENT, /max_group_size/);
    expectRefused(device, 'INSERT', group(0, [[1, 1]]), Code.INVALID_ARGUMENT);
    expectRefused(
      device,
      'INSERT',
      { action_profile_group: { action_profile_id: PROFILE, group_id: 10, members: [{ member_id: 1, weight: 1, watch_port: b(3) }] } },
      Code.UNIMPLEMENTED,
    );
    expectOk(write1(device, 'INSERT', group(10, [[1, 1]], 2)));
    expectRefused(device, 'MODIFY', group(10, [[1, 1]], 3), Code.INVALID_ARGUMENT, /max_size/);
    expectRefused(device, 'INSERT', ecmpEntry({ action_profile_member_id: 5 }), Code.NOT_FOUND);
    expectRefused(device, 'INSERT', ecmpEntry({ action_profile_group_id: 5 }), Code.NOT_FOUND);
    expectRefused(device, 'INSERT', ecmpEntry({ action: nhop(1) }), Code.INVALID_ARGUMENT, /indirect/);
    // The selector has members: a one-shot action set would mix the two programming styles (one-shot.test.ts).
    expectRefused(device, 'INSERT', ecmpEntry({ action_profile_action_set: { action_profile_actions: [{ action: nhop(1), weight: 1 }] } }), Code.INVALID_ARGUMENT, /mixing/);
  });

  it('limits the number of members to the profile size', () => {
    const device = committedDevice();
    for (let m = 1; m <= 8; m++) expectOk(write1(device, 'INSERT', member(m)));
    expectRefused(device, 'INSERT', member(9), Code.RESOURCE_EXHAUSTED);
  });
});
