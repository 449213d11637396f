// The entities beside table entries: indirect counters and meters, registers
// (read and written, which BMv2 cannot do), multicast groups, clone sessions,
// digest entries, action profile members and groups, and parser value sets
// (through the bare stub: the client does not model them). Each is written,
// read back canonical, modified and deleted or reset.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  action,
  actionProfileGroup,
  actionProfileMember,
  cloneSession,
  counter,
  del,
  digestEntry,
  groupRef,
  insert,
  memberRef,
  meter,
  modify,
  multicastGroup,
  register,
  table,
  type P4RuntimeClient,
} from '../../src/p4runtime/index.js';
import { fixtureP4Info, idsOf, kitchenSinkWithProfiles } from './helpers/programs.js';
import { rawItemCodes } from './helpers/outcomes.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { PRIMARY, b } from './helpers/entities.js';

const P4INFO = kitchenSinkWithProfiles();
const ids = idsOf(P4INFO);

let sw: SwitchUnderTest;
let client: P4RuntimeClient;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  client = await sw.primaryWith(P4INFO, { electionId: PRIMARY });
});
afterEach(async () => {
  await sw.stop();
});

describe('indirect counters and meters', () => {
  it('sets one counter cell and reads it, and reads the whole array', async () => {
    await client.write(modify(counter('ingress.port_packets', { index: 3, data: { packetCount: 12, byteCount: 0 } })));
    expect(await client.readAll(counter('ingress.port_packets', { index: 3 }))).toMatchObject([{ counter: 'ingress.port_packets', index: 3, data: { packetCount: 12n, byteCount: 0n } }]);
    const cells = await client.readAll(counter('ingress.port_packets'));
    expect(cells).toHaveLength(512);
    expect(cells.map((c) => c.index)).toEqual([...Array(512).keys()]);
    expect(cells.filter((c) => c.data!.packetCount !== 0n).map((c) => c.index)).toEqual([3]);
    // No index writes every cell.
    await client.write(modify(counter('ingress.port_packets', { data: { packetCount: 0, byteCount: 0 } })));
    expect((await client.readAll(counter('ingress.port_packets'))).every((c) => c.data!.packetCount === 0n)).toBe(true);
  });

  it('configures a meter cell, reads it back, and resets it with a MODIFY without config', async () => {
    const config = { cir: 125_000, cburst: 10_000, pir: 250_000, pburst: 20_000 };
    await client.write(modify(meter('ingress.port_meter', { index: 1, config })));
    expect(await client.readAll(meter('ingress.port_meter', { index: 1 }))).toMatchObject([{ meter: 'ingress.port_meter', index: 1, config: { cir: 125_000n, pburst: 20_000n, eburst: 0n } }]);
    expect(await client.readAll(meter('ingress.port_meter', { index: 2 }))).toMatchObject([{ index: 2, config: undefined }]);
    await client.write(modify(meter('ingress.port_meter', { index: 1 })));
    expect(await client.readAll(meter('ingress.port_meter', { index: 1 }))).toMatchObject([{ config: undefined }]);
    expect(await client.readAll(meter('ingress.port_meter'))).toHaveLength(64);
  });
});

describe('registers', () => {
  it('writes and reads single cells and whole arrays', async () => {
    await client.write([modify(register('ingress.slots', { index: 5, value: 42 })), modify(register('ingress.slots', { index: 63, value: 0xffffffff }))]);
    expect(await client.readAll(register('ingress.slots', { index: 5 }))).toEqual([expect.objectContaining({ register: 'ingress.slots', index: 5, value: 42 })]);
    const cells = await client.readAll(register('ingress.slots'));
    expect(cells.map((c) => c.value)).toEqual([...Array(64)].map((_, i) => (i === 5 ? 42 : i === 63 ? 0xffffffff : 0)));
    await client.write(modify(register('ingress.slots', { value: 7 })));
    expect((await client.readAll(register('ingress.slots'))).every((c) => c.value === 7)).toBe(true);
  });

  it('reads back canonical values written padded, and refuses values wider than the cell', async () => {
    const slots = ids.register('ingress.slots');
    await sw.raw.write([{ type: 'MODIFY', entity: { register_entry: { register_id: slots, index: { index: 2 }, data: { bitstring: b(0, 0, 0, 9) } } } }], { electionId: PRIMARY });
    const [cell] = await sw.raw.read([{ register_entry: { register_id: slots, index: { index: 2 } } }]);
    expect(cell!.register_entry!.data!.bitstring).toEqual(b(9));
    const codes = await rawItemCodes(
      sw.raw.write([{ type: 'MODIFY', entity: { register_entry: { register_id: slots, index: { index: 2 }, data: { bitstring: b(1, 0, 0, 0, 0) } } } }], { electionId: PRIMARY }),
    );
    expect(codes).toEqual(['INVALID_ARGUMENT']);
  });

  it('serves the register of the hand-written fixture (1024 cells of bit<32>)', async () => {
    const other = await SwitchUnderTest.start();
    try {
      const c = await other.primaryWith(fixtureP4Info('register'));
      await c.write(modify(register('slot_values', { index: 1023, value: 123456 })));
      const cells = await c.readAll(register('slot_values'));
      expect(cells).toHaveLength(1024);
      expect(cells[1023]).toMatchObject({ register: 'MyIngress.slot_values', index: 1023, value: 123456 });
    } finally {
      await other.stop();
    }
  });
});

describe('multicast groups and clone sessions', () => {
  it('inserts, reads (one and all), modifies and deletes multicast groups', async () => {
    await client.write([insert(multicastGroup(1, [{ port: 1 }, { port: 2 }, { port: 2, instance: 1 }])), insert(multicastGroup(2, [{ port: 3 }], { metadata: b(1, 2) }))]);
    expect(await client.readAll(multicastGroup(1))).toMatchObject([
      {
        groupId: 1,
        replicas: [
          { port: 1, instance: 0 },
          { port: 2, instance: 0 },
          { port: 2, instance: 1 },
        ],
      },
    ]);
    const all = await client.readAll(multicastGroup());
    expect(all.map((g) => g.groupId)).toEqual([1, 2]);
    expect(Buffer.from(all[1]!.metadata!)).toEqual(b(1, 2));
    await client.write(modify(multicastGroup(1, [{ port: 4 }])));
    expect(await client.readAll(multicastGroup(1))).toMatchObject([{ replicas: [{ port: 4, instance: 0 }] }]);
    await client.write(del(multicastGroup(1)));
    expect((await client.readAll(multicastGroup())).map((g) => g.groupId)).toEqual([2]);
  });

  it('reads replica ports canonical when they were written padded', async () => {
    await sw.raw.write(
      [{ type: 'INSERT', entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 9, replicas: [{ port: b(0, 0, 0, 5), instance: 2 }] } } } }],
      { electionId: PRIMARY },
    );
    const [read] = await sw.raw.read([{ packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 9 } } }]);
    expect(read!.packet_replication_engine_entry!.multicast_group_entry!.replicas).toMatchObject([{ port: b(5), instance: 2 }]);
  });

  it('takes the deprecated egress_port replicas, and reads them back in that form', async () => {
    await sw.raw.write(
      [{ type: 'INSERT', entity: { packet_replication_engine_entry: { clone_session_entry: { session_id: 8, replicas: [{ egress_port: 6, instance: 1 }] } } } }],
      { electionId: PRIMARY },
    );
    const [read] = await sw.raw.read([{ packet_replication_engine_entry: { clone_session_entry: { session_id: 8 } } }]);
    expect(read!.packet_replication_engine_entry!.clone_session_entry!.replicas).toMatchObject([{ port_kind: 'egress_port', egress_port: 6, instance: 1 }]);
    expect(await client.readAll(cloneSession(8))).toMatchObject([{ replicas: [{ port: 6, instance: 1 }] }]);
  });

  it('inserts, reads, modifies and deletes clone sessions', async () => {
    await client.write(insert(cloneSession(5, [{ port: 255 }], { classOfService: 2, packetLengthBytes: 128 })));
    expect(await client.readAll(cloneSession(5))).toMatchObject([{ sessionId: 5, replicas: [{ port: 255, instance: 0 }], classOfService: 2, packetLengthBytes: 128 }]);
    await client.write(modify(cloneSession(5, [{ port: 254, instance: 3 }])));
    expect(await client.readAll(cloneSession())).toMatchObject([{ sessionId: 5, replicas: [{ port: 254, instance: 3 }], classOfService: 0, packetLengthBytes: 0 }]);
    await client.write(del(cloneSession(5)));
    expect(await client.readAll(cloneSession())).toEqual([]);
  });
});

describe('digest entries', () => {
  it('enables a digest with INSERT, changes its config with MODIFY and disables it with DELETE', async () => {
    await client.write(insert(digestEntry('learn', { maxTimeoutNs: 1_000_000, maxListSize: 10, ackTimeoutNs: 5_000_000_000 })));
    expect(await client.readAll(digestEntry('learn'))).toMatchObject([{ digest: 'learn', config: { maxTimeoutNs: 1_000_000n, maxListSize: 10, ackTimeoutNs: 5_000_000_000n } }]);
    await client.write(modify(digestEntry('learn', { maxListSize: 1 })));
    expect(await client.readAll(digestEntry('*'))).toMatchObject([{ digest: 'learn', config: { maxTimeoutNs: 0n, maxListSize: 1, ackTimeoutNs: 0n } }]);
    await client.write(del(digestEntry('learn')));
    expect(await client.readAll(digestEntry('*'))).toEqual([]);
  });
});

describe('action profile members and groups', () => {
  const nhop = (port: number) => action('ingress.set_nhop', { dmac: port, port });

  it('builds members and a group, points an indirect entry at them, and takes them apart in order', async () => {
    await client.write([
      insert(actionProfileMember('ingress.ecmp_selector', 1, nhop(1))),
      insert(actionProfileMember('ingress.ecmp_selector', 2, nhop(2))),
      insert(actionProfileGroup('ingress.ecmp_selector', 10, [{ memberId: 1 }, { memberId: 2, weight: 3 }])),
    ]);
    await client.write(insert(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': '10.0.0.1' }, groupRef(10))));
    expect(await client.readAll(actionProfileMember('ingress.ecmp_selector'))).toMatchObject([
      { memberId: 1, action: { name: 'ingress.set_nhop', params: { dmac: 1, port: 1 } } },
      { memberId: 2, action: { params: { port: 2 } } },
    ]);
    expect(await client.readAll(actionProfileGroup('ingress.ecmp_selector', 10))).toMatchObject([
      {
        groupId: 10,
        members: [
          { memberId: 1, weight: 1 },
          { memberId: 2, weight: 3 },
        ],
      },
    ]);
    expect(await client.readAll(table('ingress.ecmp'))).toMatchObject([{ action: { groupId: 10 } }]);
    await client.write(modify(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': '10.0.0.1' }, memberRef(2))));
    await client.write([del(actionProfileGroup('ingress.ecmp_selector', 10)), del(actionProfileMember('ingress.ecmp_selector', 1))]);
    await client.write(del(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': '10.0.0.1' })));
    await client.write(del(actionProfileMember('ingress.ecmp_selector', 2)));
    expect(await client.readAll([actionProfileMember('ingress.ecmp_selector'), actionProfileGroup('ingress.ecmp_selector')])).toEqual([]);
  });
});

describe('parser value sets (bare stub: the client does not model them)', () => {
  it('replaces the members with MODIFY, reads them canonical, and empties the set', async () => {
    const tpids = ids.valueSet('parser.tpids');
    const member = (tpid: number[], pcp: number[], mask: number[]) => ({
      match: [
        { field_id: 1, exact: { value: b(...tpid) } },
        { field_id: 2, ternary: { value: b(...pcp), mask: b(...mask) } },
      ],
    });
    await sw.raw.write([{ type: 'MODIFY', entity: { value_set_entry: { value_set_id: tpids, members: [member([0x81, 0], [0, 3], [0, 7]), member([0x88, 0xa8], [0], [4])] } } }], {
      electionId: PRIMARY,
    });
    const [read] = await sw.raw.read([{ value_set_entry: { value_set_id: tpids } }]);
    expect(read!.value_set_entry!.members.map((m) => m.match.map((f) => f.exact ?? f.ternary))).toEqual([
      [{ value: b(0x81, 0) }, { value: b(3), mask: b(7) }],
      [{ value: b(0x88, 0xa8) }, { value: b(0), mask: b(4) }],
    ]);
    const tooMany = [member([1], [0], [1]), member([2], [0], [1]), member([3], [0], [1]), member([4], [0], [1])];
    expect(await rawItemCodes(sw.raw.write([{ type: 'MODIFY', entity: { value_set_entry: { value_set_id: tpids, members: tooMany } } }], { electionId: PRIMARY }))).toEqual([
      'RESOURCE_EXHAUSTED',
    ]);
    expect(await rawItemCodes(sw.raw.write([{ type: 'INSERT', entity: { value_set_entry: { value_set_id: tpids, members: [] } } }], { electionId: PRIMARY }))).toEqual([
      'INVALID_ARGUMENT',
    ]);
    await sw.raw.write([{ type: 'MODIFY', entity: { value_set_entry: { value_set_id: tpids, members: [] } } }], { electionId: PRIMARY });
    const [empty] = await sw.raw.read([{ value_set_entry: { value_set_id: tpids } }]);
    expect(empty!.value_set_entry!.members).toEqual([]);
  });
});
