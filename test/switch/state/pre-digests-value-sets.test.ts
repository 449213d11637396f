import { describe, expect, it } from 'vitest';
import { Code } from '../../../src/switch/state/status.js';
import { b, committedDevice, expectOk, expectRefused, id, read, readStatus, write1 } from './helpers.js';

const mcast = (groupId: number, replicas: object[], metadata: Buffer = b()): object => ({
  packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: groupId, replicas, metadata } },
});
const clone = (sessionId: number, replicas: object[], extra: object = {}): object => ({
  packet_replication_engine_entry: { clone_session_entry: { session_id: sessionId, replicas, ...extra } },
});

describe('multicast groups', () => {
  it('inserts, reads back, modifies and deletes, keeping the port form of each replica', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', mcast(1, [{ port: b(0, 1), instance: 1 }, { egress_port: 2, instance: 1 }, { port: b(1), instance: 2 }], b(7))));
    expect(read(device, { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1 } } })).toMatchObject([
      {
        packet_replication_engine_entry: {
          multicast_group_entry: {
            multicast_group_id: 1,
            replicas: [
              { port: b(1), instance: 1, port_kind: 'port' },
              { egress_port: 2, instance: 1, port_kind: 'egress_port' },
              { port: b(1), instance: 2, port_kind: 'port' },
            ],
            metadata: b(7),
          },
        },
      },
    ]);
    expect(device.forwarding!.pre.multicastGroups.get(1)!.replicas.map((r) => [r.port, r.instance])).toEqual([
      [1, 1],
      [2, 1],
      [1, 2],
    ]);
    expectOk(write1(device, 'INSERT', mcast(2, [])));
    expect(read(device, { packet_replication_engine_entry: { multicast_group_entry: {} } })).toHaveLength(2);
    expectOk(write1(device, 'MODIFY', mcast(1, [{ port: b(3), instance: 0 }])));
    expect(device.forwarding!.pre.multicastGroups.get(1)!.replicas).toEqual([{ port: 3, instance: 0, portForm: 'port' }]);
    expectOk(write1(device, 'DELETE', mcast(1, [])));
    expect(read(device, { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1 } } })).toEqual([]);
  });

  it('refuses id 0, duplicate pairs, backup replicas, missing ports and wrong update types', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', mcast(1, [{ port: b(1), instance: 1 }])));
    expectRefused(device, 'INSERT', mcast(0, []), Code.INVALID_ARGUMENT, /0/);
    expectRefused(device, 'INSERT', mcast(1, []), Code.ALREADY_EXISTS);
    expectRefused(device, 'MODIFY', mcast(5, []), Code.NOT_FOUND);
    expectRefused(device, 'DELETE', mcast(5, []), Code.NOT_FOUND);
    expectRefused(device, 'INSERT', mcast(2, [{ port: b(1), instance: 1 }, { egress_port: 1, instance: 1 }]), Code.INVALID_ARGUMENT, /twice/);
    expectRefused(device, 'INSERT', mcast(2, [{ port: b(1), instance: 1, backup_replicas: [{ port: b(2), instance: 1 }] }]), Code.UNIMPLEMENTED);
    expectRefused(device, 'INSERT', mcast(2, [{ instance: 1 }]), Code.INVALID_ARGUMENT, /no port/);
    expectRefused(device, 'INSERT', mcast(2, [{ port: b(), instance: 1 }]), Code.INVALID_ARGUMENT, /empty/);
    expectRefused(device, 'INSERT', mcast(2, [{ port: b(1), instance: 70000 }]), Code.INVALID_ARGUMENT, /16-bit/);
  });
});

describe('clone sessions', () => {
  it('round-trips class_of_service and packet_length_bytes', () => {
    const device = committedDevice();
    expectOk(write1(device, 'INSERT', clone(100, [{ port: b(0xff, 0xff, 0xff, 0xfd), instance: 1 }], { class_of_service: 2, packet_length_bytes: 4096 })));
    expect(read(device, { packet_replication_engine_entry: { clone_session_entry: { session_id: 100 } } })).toMatchObject([
      { packet_replication_engine_entry: { clone_session_entry: { session_id: 100, replicas: [{ port: b(0xff, 0xff, 0xff, 0xfd), instance: 1 }], class_of_service: 2, packet_length_bytes: 4096 } } },
    ]);
    expect(device.forwarding!.pre.cloneSessions.get(100)).toEqual({ replicas: [{ port: 0xfffffffd, instance: 1, portForm: 'port' }], classOfService: 2, packetLengthBytes: 4096 });
    // An empty PRE entry reads both kinds.
    expectOk(write1(device, 'INSERT', mcast(1, [])));
    expect(read(device, { packet_replication_engine_entry: {} })).toHaveLength(2);
    expectOk(write1(device, 'DELETE', clone(100, [])));
    expect(device.forwarding!.pre.cloneSessions.size).toBe(0);
  });

  it('refuses id 0, negative lengths and ports wider than 32 bits', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', clone(0, []), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', clone(1, [], { packet_length_bytes: -1 }), Code.INVALID_ARGUMENT, /negative/);
    expectRefused(device, 'INSERT', clone(1, [{ port: b(1, 0, 0, 0, 0), instance: 0 }]), Code.INVALID_ARGUMENT);
    expectRefused(device, 'INSERT', { packet_replication_engine_entry: {} }, Code.INVALID_ARGUMENT);
  });
});

describe('digests', () => {
  const LEARN = id.digest('learn');
  const entry = (config?: object): object => ({ digest_entry: { digest_id: LEARN, ...(config ? { config } : {}) } });
  const config = { max_timeout_ns: 1000000, max_list_size: 10, ack_timeout_ns: 5000000 };

  it('INSERT enables, MODIFY changes, DELETE disables; the stream side reads the config', () => {
    const device = committedDevice();
    expect(device.digestConfig(LEARN)).toBeUndefined();
    expectOk(write1(device, 'INSERT', entry(config)));
    expect(device.digestConfig(LEARN)).toEqual({ maxTimeoutNs: 1000000n, maxListSize: 10, ackTimeoutNs: 5000000n });
    expect(read(device, { digest_entry: {} })).toEqual([
      { digest_entry: { digest_id: LEARN, config: { max_timeout_ns: '1000000', max_list_size: 10, ack_timeout_ns: '5000000' } }, entity: 'digest_entry' },
    ]);
    expectOk(write1(device, 'MODIFY', entry({ ...config, max_list_size: 1 })));
    expect(device.digestConfig(LEARN)?.maxListSize).toBe(1);
    expectOk(write1(device, 'DELETE', entry()));
    expect(device.digestConfig(LEARN)).toBeUndefined();
    expect(read(device, { digest_entry: { digest_id: LEARN } })).toEqual([]);
  });

  it('refuses duplicates, missing digests, missing configs and negative values', () => {
    const device = committedDevice();
    expectRefused(device, 'MODIFY', entry(config), Code.NOT_FOUND);
    expectRefused(device, 'DELETE', entry(), Code.NOT_FOUND);
    expectRefused(device, 'INSERT', entry(), Code.INVALID_ARGUMENT, /config/);
    expectRefused(device, 'INSERT', entry({ ...config, max_timeout_ns: -1 }), Code.INVALID_ARGUMENT, /negative/);
    expectRefused(device, 'INSERT', entry({ ...config, max_list_size: -1 }), Code.INVALID_ARGUMENT, /negative/);
    expectRefused(device, 'INSERT', { digest_entry: { digest_id: 0x17000bad, config } }, Code.NOT_FOUND);
    expectOk(write1(device, 'INSERT', entry(config)));
    expectRefused(device, 'INSERT', entry(config), Code.ALREADY_EXISTS);
    expect(readStatus(device, { digest_entry: { digest_id: 0x17000bad } }).code).toBe(Code.NOT_FOUND);
  });
});

describe('value sets', () => {
  const SET = id.valueSet('parser.trill_types');
  const member = (etherType: number, flags?: [number, number]): object => ({
    match: [{ field_id: 1, exact: { value: b(etherType >> 8, etherType & 0xff) } }, ...(flags ? [{ field_id: 2, ternary: { value: b(flags[0]), mask: b(flags[1]) } }] : [])],
  });

  it('MODIFY replaces the members; an empty list empties the set', () => {
    const device = committedDevice();
    expectOk(write1(device, 'MODIFY', { value_set_entry: { value_set_id: SET, members: [member(0x22f3), member(0x893b, [1, 1])] } }));
    expect(read(device, { value_set_entry: { value_set_id: SET } })).toMatchObject([
      {
        value_set_entry: {
          value_set_id: SET,
          members: [
            { match: [{ field_id: 1, exact: { value: b(0x22, 0xf3) } }] },
            { match: [{ field_id: 1, exact: { value: b(0x89, 0x3b) } }, { field_id: 2, ternary: { value: b(1), mask: b(1) } }] },
          ],
        },
      },
    ]);
    expect(device.forwarding!.valueSets.find(SET)!.members[1]!.fields[1]).toEqual({ kind: 'ternary', value: b(1), mask: b(1) });
    expectOk(write1(device, 'MODIFY', { value_set_entry: { value_set_id: SET, members: [] } }));
    expect(read(device, { value_set_entry: {} })[0]!.value_set_entry!.members).toEqual([]);
  });

  it('refuses INSERT/DELETE, duplicates, too many members and malformed matches', () => {
    const device = committedDevice();
    const vs = (members: object[]): object => ({ value_set_entry: { value_set_id: SET, members } });
    expectRefused(device, 'INSERT', vs([member(1)]), Code.INVALID_ARGUMENT);
    expectRefused(device, 'DELETE', vs([]), Code.INVALID_ARGUMENT);
    expectRefused(device, 'MODIFY', vs([member(1), member(1)]), Code.ALREADY_EXISTS);
    expectRefused(device, 'MODIFY', vs([member(1), member(2), member(3), member(4)]), Code.RESOURCE_EXHAUSTED);
    expectRefused(device, 'MODIFY', vs([member(1, [3, 1])]), Code.INVALID_ARGUMENT, /outside mask/);
    expectRefused(device, 'MODIFY', { value_set_entry: { value_set_id: 0x03000bad, members: [] } }, Code.NOT_FOUND);
  });
});

describe('extern entries and empty entities', () => {
  it('refuses writes, reads nothing for an extern wildcard, and refuses an empty entity', () => {
    const device = committedDevice();
    expectRefused(device, 'INSERT', { extern_entry: { extern_type_id: 0x81, extern_id: 1 } }, Code.UNIMPLEMENTED);
    expectRefused(device, 'INSERT', {}, Code.INVALID_ARGUMENT);
    expect(read(device, { extern_entry: {} })).toEqual([]);
    expect(readStatus(device, {}).code).toBe(Code.INVALID_ARGUMENT);
  });
});
