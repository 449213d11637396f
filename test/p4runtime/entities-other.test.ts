import { describe, expect, it } from 'vitest';
import { P4Schema } from '../../src/p4info/index.js';
import type * as p4i from '../../src/proto/p4i.js';
import type * as p4r from '../../src/proto/p4r.js';
import { decodeMessage, encodeMessage } from '../../src/proto/codec.js';
import {
  action,
  actionProfileGroup,
  actionProfileMember,
  actionSet,
  cloneSession,
  CloneSessionEntry,
  counter,
  CounterEntry,
  decodeEntity,
  decodeP4Data,
  digestEntry,
  DigestEntry,
  directCounter,
  DirectCounterEntry,
  directMeter,
  DirectMeterEntry,
  encodeP4Data,
  groupRef,
  memberRef,
  meter,
  MeterEntry,
  multicastGroup,
  MulticastGroupEntry,
  RawP4Data,
  register,
  RegisterEntry,
  table,
  TableEntry,
} from '../../src/p4runtime/index.js';
import { buildP4Info, kitchenSinkP4Info } from '../helpers/p4info-builder.js';
import { codeOf, roundTrip, throughWire } from './helpers/round-trip.js';

const schema = new P4Schema(kitchenSinkP4Info());

/** The kitchen sink plus an ECMP table whose actions come from an action selector. */
function withActionProfile(): P4Schema {
  const info = buildP4Info({
    actions: [{ name: 'ingress.set_nhop', params: [['dmac', 48], ['port', 9]] }, { name: 'ingress.drop' }],
    tables: [{ name: 'ingress.ecmp', keys: [['hdr.ipv4.dst_addr', 'LPM', 32]], actions: ['ingress.set_nhop', 'ingress.drop'] }],
  }) as p4i.P4Info__Output;
  const profileId = (0x11 << 24) | 0x123;
  info.action_profiles.push({
    preamble: { id: profileId, name: 'ingress.ecmp_selector', alias: 'ecmp_selector', annotations: [] },
    table_ids: [info.tables[0]!.preamble!.id],
    with_selector: true,
    size: '128',
    max_group_size: 4,
  } as unknown as p4i.ActionProfile__Output);
  info.tables[0]!.implementation_id = profileId;
  return new P4Schema(decodeMessage<p4i.P4Info__Output>('p4.config.v1.P4Info', encodeMessage('p4.config.v1.P4Info', info)));
}

describe('PRE entries', () => {
  it('multicast groups round trip with ports as canonical bytes', () => {
    const g = roundTrip(multicastGroup(1, [{ port: 1, instance: 0 }, { port: 2, instance: 1 }]), schema, 'insert');
    expect(g).toEqual(new MulticastGroupEntry(1, [{ port: 1, instance: 0 }, { port: 2, instance: 1 }]));
    const replicas = throughWire(g, schema).packet_replication_engine_entry!.multicast_group_entry!.replicas;
    expect(replicas.map((r) => r.port)).toEqual([Buffer.from([1]), Buffer.from([2])]);
    const withExtras = roundTrip(multicastGroup(9, [{ port: 300, backups: [{ port: 4, instance: 2 }] }], { metadata: Buffer.from([7]) }), schema, 'modify');
    expect(withExtras).toEqual(new MulticastGroupEntry(9, [{ port: 300, instance: 0, backups: [{ port: 4, instance: 2 }] }], Buffer.from([7])));
    expect(roundTrip(multicastGroup(), schema)).toEqual(new MulticastGroupEntry(0, []));
  });

  it('a deprecated egress_port replica decodes to its port', () => {
    const msg = throughWire(multicastGroup(3, [{ port: 5 }]), schema);
    msg.packet_replication_engine_entry!.multicast_group_entry!.replicas[0] = { egress_port: 6, port_kind: 'egress_port', instance: 1, backup_replicas: [] };
    expect(decodeEntity(msg, schema)).toEqual(new MulticastGroupEntry(3, [{ port: 6, instance: 1 }]));
  });

  it('clone sessions round trip', () => {
    const s = roundTrip(cloneSession(5, [{ port: 3 }], { classOfService: 2, packetLengthBytes: 64 }), schema, 'insert');
    expect(s).toEqual(new CloneSessionEntry(5, [{ port: 3, instance: 0 }], { classOfService: 2, packetLengthBytes: 64 }));
  });

  it.each([
    ['group 0 in a write', () => multicastGroup(0, [{ port: 1 }]).encode(schema, 'insert'), 'ENTITY_BAD_ID'],
    ['duplicate replica', () => multicastGroup(1, [{ port: 1 }, { port: 1 }]).encode(schema, 'insert'), 'ENTITY_DUPLICATE_REPLICA'],
    ['port too wide', () => multicastGroup(1, [{ port: 2n ** 32n }]).encode(schema, 'insert'), 'VALUE_TOO_WIDE'],
    ['negative session', () => cloneSession(-1).encode(schema), 'ENTITY_BAD_ID'],
  ])('%s', (_n, fn, code) => expect(codeOf(fn)).toBe(code));
});

describe('registers, counters and meters', () => {
  it('register cells carry P4Data bitstrings of the register width', () => {
    const r = roundTrip(register('ingress.slots', { index: 3, value: 42 }), schema, 'modify');
    expect(r).toEqual(new RegisterEntry({ register: 'ingress.slots', index: 3, value: 42 }));
    expect(throughWire(r, schema).register_entry!.data).toMatchObject({ bitstring: Buffer.from([42]), data: 'bitstring' });
    expect(roundTrip(register('slots', { index: 0, value: Buffer.from([0, 0, 1, 0]) }), schema, 'modify').value).toBe(256);
    expect(roundTrip(register('slots'), schema)).toEqual(new RegisterEntry({ register: 'ingress.slots' }));
    expect(roundTrip(register('*'), schema)).toEqual(new RegisterEntry({ register: undefined }));
  });

  it('indirect counters and meters round trip', () => {
    expect(roundTrip(counter('port_packets', { index: 7, data: { packetCount: 3 } }), schema, 'modify')).toEqual(
      new CounterEntry({ counter: 'ingress.port_packets', index: 7, data: { byteCount: 0n, packetCount: 3n } }),
    );
    expect(roundTrip(counter('*'), schema)).toEqual(new CounterEntry({ counter: undefined }));
    const m = roundTrip(meter('port_meter', { index: 1, config: { cir: 1000, cburst: 100, pir: 2000, pburst: 200, eburst: 5 } }), schema, 'modify');
    expect(m).toEqual(new MeterEntry({ meter: 'ingress.port_meter', index: 1, config: { cir: 1000n, cburst: 100n, pir: 2000n, pburst: 200n, eburst: 5n } }));
    expect(roundTrip(meter('port_meter', { index: 2 }), schema, 'modify')).toEqual(new MeterEntry({ meter: 'ingress.port_meter', index: 2 }));
  });

  it('direct counters and meters are addressed by the entry key only', () => {
    const key = table('l2', { dst_addr: 'aa:bb:cc:dd:ee:ff' }, action('forward', { port: 1 }));
    const c = roundTrip(directCounter(key, { byteCount: 64, packetCount: 1 }), schema, 'modify');
    expect(c).toEqual(new DirectCounterEntry(new TableEntry({ table: 'ingress.l2', match: { 'hdr.ethernet.dst_addr': 0xaabbccddeeff } }), { byteCount: 64n, packetCount: 1n }));
    expect(throughWire(c, schema).direct_counter_entry!.table_entry!.action).toBeNull();
    expect(roundTrip(directCounter('ingress.l2'), schema)).toEqual(new DirectCounterEntry(new TableEntry({ table: 'ingress.l2' })));
    const m = roundTrip(directMeter(table('ipv4_lpm', { dst_addr: '10.0.0.0/8' }), { cir: 1, cburst: 1, pir: 2, pburst: 2 }), schema, 'modify');
    expect(m).toEqual(
      new DirectMeterEntry(new TableEntry({ table: 'ingress.ipv4_lpm', match: { 'hdr.ipv4.dst_addr': { value: 0x0a000000, prefixLen: 8 } } }), {
        cir: 1n,
        cburst: 1n,
        pir: 2n,
        pburst: 2n,
        eburst: 0n,
      }),
    );
  });

  it.each([
    ['register INSERT', () => register('slots', { index: 1, value: 1 }).encode(schema, 'insert'), 'ENTITY_UPDATE_NOT_ALLOWED'],
    ['register write without value', () => register('slots', { index: 1 }).encode(schema, 'modify'), 'ENTITY_MISSING_VALUE'],
    ['register value too wide', () => register('slots', { index: 1, value: 2 ** 32 }).encode(schema, 'modify'), 'VALUE_TOO_WIDE'],
    ['register index past the end', () => register('slots', { index: 64 }).encode(schema), 'ENTITY_BAD_INDEX'],
    ['negative counter index', () => counter('port_packets', { index: -1 }).encode(schema), 'ENTITY_BAD_INDEX'],
    ['counter DELETE', () => counter('port_packets', { index: 1 }).encode(schema, 'delete'), 'ENTITY_UPDATE_NOT_ALLOWED'],
    ['wildcard meter write', () => meter('*').encode(schema, 'modify'), 'ENTITY_WILDCARD_WRITE'],
    ['unknown register', () => register('nope').encode(schema), 'P4INFO_UNKNOWN'],
    ['direct counter of a table without one', () => directCounter('ipv4_lpm').encode(schema), 'ENTITY_NO_DIRECT_RESOURCE'],
    ['direct meter of a table without one', () => directMeter('l2').encode(schema), 'ENTITY_NO_DIRECT_RESOURCE'],
    ['direct counter write with a partial key', () => directCounter(table('l2', {}), {}).encode(schema, 'modify'), 'ENTITY_MISSING_MATCH'],
  ])('%s', (_n, fn, code) => expect(codeOf(fn)).toBe(code));
});

describe('digests and P4Data', () => {
  it('digest entries round trip', () => {
    const d = roundTrip(digestEntry('learn', { maxTimeoutNs: 1_000_000, maxListSize: 10, ackTimeoutNs: 1_000_000_000n }), schema, 'insert');
    expect(d).toEqual(new DigestEntry('learn', { maxTimeoutNs: 1_000_000n, maxListSize: 10, ackTimeoutNs: 1_000_000_000n }));
    expect(roundTrip(digestEntry('learn'), schema, 'delete')).toEqual(new DigestEntry('learn'));
    expect(codeOf(() => digestEntry('learn').encode(schema, 'insert'))).toBe('ENTITY_MISSING_VALUE');
  });

  it('structs use member names from the P4Info type info, other kinds stay raw', () => {
    const spec = schema.digests.get('learn').typeSpec;
    const data = encodeP4Data({ src_addr: 'aa:bb:cc:dd:ee:ff', port: 3 }, spec, schema);
    const wire = decodeMessage<p4r.P4Data__Output>('p4.v1.P4Data', encodeMessage('p4.v1.P4Data', data));
    expect(decodeP4Data(wire, spec, schema)).toEqual({ src_addr: 0xaabbccddeeff, port: 3 });
    expect(codeOf(() => encodeP4Data({ src_addr: 1 }, spec, schema))).toBe('ENTITY_MISSING_VALUE');
    const header = decodeMessage<p4r.P4Data__Output>('p4.v1.P4Data', encodeMessage('p4.v1.P4Data', { header: { is_valid: true, bitstrings: [Buffer.from([1])] } }));
    const raw = decodeP4Data(header, null, schema);
    expect(raw).toBeInstanceOf(RawP4Data);
    expect(encodeP4Data(raw, null, schema)).toBe((raw as RawP4Data).message);
    expect(decodeP4Data(decodeMessage('p4.v1.P4Data', encodeMessage('p4.v1.P4Data', encodeP4Data([true, 5], null, schema))), null, schema)).toEqual([true, 5]);
  });
});

describe('action profiles', () => {
  const ap = withActionProfile();
  it('members, groups and the table actions that point at them round trip', () => {
    const m = roundTrip(actionProfileMember('ecmp_selector', 1, action('set_nhop', { dmac: 1, port: 2 })), ap, 'insert');
    expect(m).toEqual(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.set_nhop', { dmac: 1, port: 2 })));
    const g = roundTrip(actionProfileGroup('ecmp_selector', 7, [{ memberId: 1 }, { memberId: 2, weight: 3, watchPort: 4 }]), ap, 'insert');
    expect(g).toEqual(actionProfileGroup('ingress.ecmp_selector', 7, [{ memberId: 1, weight: 1 }, { memberId: 2, weight: 3, watchPort: 4 }]));
    expect(roundTrip(table('ecmp', { dst_addr: '10.0.0.0/8' }, memberRef(1)), ap, 'insert').action).toEqual({ memberId: 1 });
    expect(roundTrip(table('ecmp', { dst_addr: '10.0.0.0/8' }, groupRef(7)), ap, 'insert').action).toEqual({ groupId: 7 });
    const set = roundTrip(table('ecmp', { dst_addr: '10.0.0.0/8' }, actionSet([{ action: action('drop') }, { action: action('set_nhop', { dmac: 1, port: 1 }), weight: 2 }])), ap, 'insert');
    expect(set.action).toEqual(actionSet([{ action: action('ingress.drop'), weight: 1 }, { action: action('ingress.set_nhop', { dmac: 1, port: 1 }), weight: 2 }]));
    expect(roundTrip(actionProfileMember('*'), ap)).toEqual(actionProfileMember('*'));
  });

  it.each([
    ['direct action for a profile table', () => table('ecmp', { dst_addr: '10.0.0.0/8' }, action('drop')).encode(ap, 'insert'), 'ENTITY_ACTION_KIND'],
    ['member without action', () => actionProfileMember('ecmp_selector', 1).encode(ap, 'insert'), 'ENTITY_ACTION_REQUIRED'],
    ['member id 0 in a write', () => actionProfileMember('ecmp_selector', 0, action('drop')).encode(ap, 'modify'), 'ENTITY_BAD_ID'],
    ['group larger than the profile allows', () => actionProfileGroup('ecmp_selector', 1, [1, 2, 3, 4, 5].map((memberId) => ({ memberId }))).encode(ap, 'insert'), 'ENTITY_GROUP_TOO_LARGE'],
  ])('%s', (_n, fn, code) => expect(codeOf(fn)).toBe(code));
});

describe('names', () => {
  it('an ambiguous suffix is refused with its own code', () => {
    const s = new P4Schema(buildP4Info({ actions: [{ name: 'a' }], tables: [{ name: 'x.t', keys: [], actions: ['a'] }, { name: 'y.t', keys: [], actions: ['a'] }] }));
    expect(codeOf(() => table('t').encode(s))).toBe('P4INFO_AMBIGUOUS');
  });

  it('decoding an unknown id or kind fails with a typed error', () => {
    const msg = throughWire(table('l2'), schema);
    msg.table_entry!.table_id = 0x02000001;
    expect(codeOf(() => decodeEntity(msg, schema))).toBe('P4INFO_UNKNOWN');
    expect(codeOf(() => decodeEntity({ entity: 'value_set_entry', value_set_entry: null } as p4r.Entity__Output, schema))).toBe('ENTITY_UNSUPPORTED_KIND');
  });
});
