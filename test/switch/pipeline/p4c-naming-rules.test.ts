// The programs of test/fixtures/p4info that show two of p4c's P4Info rules
// (test/p4c/p4info-p4c-rules.test.ts) run on the switch, programmed by the
// names p4c gives: action profiles constructed in a table's `implementation`
// property (named by the property's @name), and a control instantiated
// twice (one table and set of actions per instance). What each packet must
// do is read from the programs' P4 source.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { REPO_ROOT } from '../../helpers/p4c-outputs.js';
import { hex, rig, tableEntry, type Rig } from './harness.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.device.stop();
  r = undefined;
});

const source = (name: string): string => readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'p4info', `${name}.p4`), 'utf8');

describe('an action profile and a selector constructed in their tables (test/fixtures/p4info/table_implementation.p4)', () => {
  it('are programmed through the names ap and ap_ws: members, a group, and entries pointing at them', () => {
    r = rig('table_implementation', [0, 1, 2, 3, 4], { text: source('table_implementation') });
    const s = r.program.schema;
    const setPort = s.actions.get('IngressI.set_port');
    const member = (profile: string, id: number, port: number): p4r.Update => ({
      type: 'INSERT',
      entity: { action_profile_member: { action_profile_id: s.actionProfiles.get(profile).id, member_id: id, action: { action_id: setPort.id, params: [{ param_id: 1, value: Buffer.from([port]) }] } } },
    });
    const entry = (table: string, key: Buffer, action: p4r.TableAction): p4r.Update => ({
      type: 'INSERT',
      entity: { table_entry: { table_id: s.tables.get(table).id, match: [{ field_id: 1, exact: { value: key } }], action } },
    });
    r.write([
      member('ap', 1, 1),
      member('IngressI.declared', 1, 2),
      member('ap_ws', 1, 3),
      member('ap_ws', 2, 4),
      { type: 'INSERT', entity: { action_profile_group: { action_profile_id: s.actionProfiles.get('ap_ws').id, group_id: 7, members: [{ member_id: 1, weight: 1 }, { member_id: 2, weight: 1 }], max_size: 4 } } },
      entry('IngressI.indirect', hex('0a'), { action_profile_member_id: 1 }),
      entry('IngressI.by_name', hex('88b5'), { action_profile_member_id: 1 }),
      entry('IngressI.indirect_ws', hex('0c'), { action_profile_group_id: 7 }),
    ]);
    const frame = (dst: string, type: string): Buffer => Buffer.concat([hex(`0000000000${dst}`), hex('000000000001'), hex(type)]);
    // indirect hits (dst 0a): ap's member 1, port 1.
    r.send(0, frame('0a', '0800'));
    expect(Object.keys(r.take())).toEqual(['1']);
    // indirect misses, by_name hits (EtherType 0x88b5): the declared profile's member, port 2.
    r.send(0, frame('0b', '88b5'));
    expect(Object.keys(r.take())).toEqual(['2']);
    // Both miss, indirect_ws hits (dst 0c): ap_ws's group, one of its members' ports.
    r.send(0, frame('0c', '0800'));
    const out = Object.keys(r.take());
    expect(out).toHaveLength(1);
    expect(['3', '4']).toContain(out[0]);
  });
});

describe('a control instantiated twice (test/fixtures/p4info/control_instances.p4)', () => {
  it("runs each instance's table with its own entries and actions", () => {
    r = rig('control_instances', [0, 1, 2, 3], { text: source('control_instances') });
    const p = r.program;
    r.write([
      // first: pair.a 0x01 → rewrite it to 0x11; second: pair.b 0x02 → port 3.
      tableEntry(p, 'IngressI.first.lookup', { v: { exact: Buffer.from([0x01]) } }, 'IngressI.first.rewrite', { value: Buffer.from([0x11]) }),
      tableEntry(p, 'IngressI.second.lookup', { v: { exact: Buffer.from([0x02]) } }, 'IngressI.second.to_port', { port: Buffer.from([3]) }),
    ]);
    // Frames are at least 14 bytes: the pair header, then payload the program leaves alone.
    const payload = '00'.repeat(12);
    r.send(0, hex(`0102${payload}`));
    expect(r.take()).toEqual({ 3: [`1102${payload}`] });
    // An entry of one instance is not seen by the other: a = 0x02 misses in first, b = 0x01 misses in second.
    r.send(0, hex(`0201${payload}`));
    expect(r.take()).toEqual({ 0: [`0201${payload}`] });
  });
});
