import { afterEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { hex, rig, type Rig } from './harness.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.device.stop();
  r = undefined;
});

const ECMP = `
#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct headers { eth_t eth; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  action_selector(HashAlgorithm.crc16, 32w64, 32w8) sel;
  action set_port(bit<9> port) { sm.egress_spec = port; }
  action drop() { mark_to_drop(sm); }
  table ecmp {
    key = { h.eth.dst: exact; h.eth.src: selector; }
    actions = { set_port; drop; }
    implementation = sel;
    size = 64;
  }
  apply { if (!ecmp.apply().hit) { drop(); } }
}
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;

/**
 * CRC-16/ARC, bit by bit from its catalogue entry (poly 0x8005 reflected =
 * 0xa001, init 0, reflected in and out, xorout 0): BMv2's crc16. Written here
 * so the member a flow goes to is derived without the emulator's hash code.
 */
function crc16Arc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

describe('action selectors', () => {
  it('a member entry runs its member; a group entry spreads flows over its members by the selector hash, each flow sticking to one', () => {
    r = rig('ecmp', [0, 1, 2, 3], { text: ECMP });
    const s = r.program.schema;
    const profileId = s.actionProfiles.get('I.sel').id;
    const tableId = s.tables.get('I.ecmp').id;
    const setPort = s.actions.get('I.set_port');
    const member = (id: number, port: number): p4r.Update => ({
      type: 'INSERT',
      entity: { action_profile_member: { action_profile_id: profileId, member_id: id, action: { action_id: setPort.id, params: [{ param_id: 1, value: Buffer.from([port]) }] } } },
    });
    const entry = (dst: string, action: p4r.TableAction): p4r.Update => ({
      type: 'INSERT',
      entity: { table_entry: { table_id: tableId, match: [{ field_id: 1, exact: { value: hex(dst) } }], action } },
    });
    r.write([
      member(1, 1),
      member(2, 2),
      member(3, 3),
      { type: 'INSERT', entity: { action_profile_group: { action_profile_id: profileId, group_id: 10, members: [{ member_id: 2, weight: 1 }, { member_id: 3, weight: 1 }], max_size: 8 } } },
      entry('0a', { action_profile_member_id: 1 }),
      entry('0b', { action_profile_group_id: 10 }),
    ]);
    const frame = (dst: string, src: number): Buffer => Buffer.concat([hex(`0000000000${dst}`), Buffer.from([0, 0, 0, 0, src >> 8, src & 0xff]), hex('1234')]);
    r.send(0, frame('0a', 1));
    expect(Object.keys(r.take())).toEqual(['1']);
    const portOf = new Map<number, string>();
    for (let src = 0; src < 64; src++) {
      r.send(0, frame('0b', src));
      const out = r.take();
      expect(Object.keys(out)).toHaveLength(1);
      portOf.set(src, Object.keys(out)[0]!);
    }
    expect(new Set(portOf.values())).toEqual(new Set(['2', '3']));
    // Which member, flow by flow, as BMv2 picks it: crc16 over the selector key
    // (the 48-bit source MAC, 6 bytes) mod the group's 2 slots, members in the
    // order the group lists them (2 on port 2, then 3 on port 3).
    expect(crc16Arc(Buffer.from('123456789'))).toBe(0xbb3d); // the catalogue's check value
    const byHand = new Map<number, string>();
    for (let src = 0; src < 64; src++) byHand.set(src, crc16Arc(Buffer.from([0, 0, 0, 0, src >> 8, src & 0xff])) % 2 === 0 ? '2' : '3');
    expect(portOf).toEqual(byHand);
    for (let src = 0; src < 64; src++) {
      r.send(0, frame('0b', src));
      expect(Object.keys(r.take())).toEqual([portOf.get(src)]);
    }
    // An unknown destination misses and is dropped.
    r.send(0, frame('0c', 1));
    expect(r.take()).toEqual({});
  });
});
