// What a controller does after a restart: read everything, write it back, and
// tear it down with the entities exactly as they were read. Entities read from
// the switch must be writable as they are (decode and encode are symmetric),
// writing them back must change nothing, and deleting them must leave the
// switch empty.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  action,
  actionProfileGroup,
  actionProfileMember,
  cloneSession,
  counter,
  defaultEntry,
  del,
  digestEntry,
  directCounter,
  directMeter,
  groupRef,
  insert,
  meter,
  modify,
  multicastGroup,
  register,
  table,
  type P4RuntimeClient,
} from '../../src/p4runtime/index.js';
import { kitchenSinkWithProfiles } from './helpers/programs.js';
import { matchEntries, snapshot } from './helpers/state-snapshot.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';

const P4INFO = kitchenSinkWithProfiles();
const TABLES = P4INFO.tables.map((t) => t.preamble!.name).filter((name) => name !== 'ingress.fixed' && name !== 'ingress.ecmp');

let sw: SwitchUnderTest;
let client: P4RuntimeClient;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  client = await sw.primaryWith(P4INFO);
  await client.write([
    insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 }, action('ingress.forward', { port: 1 }), { metadata: Buffer.from('cookie'), counterData: { packetCount: 4, byteCount: 256 } })),
    insert(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' }, action('ingress.set_nhop', { dmac: 2, port: 2 }), { meterConfig: { cir: 10, cburst: 10, pir: 20, pburst: 20 } })),
    insert(table('ingress.acl', { 'standard_metadata.ingress_port': '1&&&0x1ff', 'hdr.udp.dst_port': '53..53' }, action('ingress.to_cpu'), { priority: 3 })),
    insert(table('ingress.tiny', { 'hdr.ethernet.ether_type': 0x86dd }, action('ingress.set_mark', { mark: 6 }))),
    modify(defaultEntry('ingress.l2', action('ingress.drop'))),
    modify(defaultEntry('ingress.acl', action('ingress.set_mark', { mark: 0 }))),
    insert(multicastGroup(1, [{ port: 1 }, { port: 2, instance: 7 }], { metadata: Buffer.from([9]) })),
    insert(cloneSession(2, [{ port: 3 }], { classOfService: 1, packetLengthBytes: 64 })),
    modify(register('ingress.slots', { index: 1, value: 11 })),
    modify(counter('ingress.port_packets', { index: 2, data: { packetCount: 22, byteCount: 0 } })),
    modify(meter('ingress.port_meter', { index: 3, config: { cir: 30, cburst: 30, pir: 60, pburst: 60 } })),
    insert(digestEntry('learn', { maxTimeoutNs: 1000, maxListSize: 8, ackTimeoutNs: 2000 })),
    insert(actionProfileMember('ingress.ecmp_selector', 1, action('ingress.set_nhop', { dmac: 1, port: 1 }))),
    insert(actionProfileMember('ingress.ecmp_selector', 2, action('ingress.drop'))),
    insert(actionProfileGroup('ingress.ecmp_selector', 5, [{ memberId: 1, weight: 2 }, { memberId: 2 }], { maxSize: 4 })),
  ]);
  await client.write(insert(table('ingress.ecmp', { 'hdr.ipv4.dst_addr': '10.9.9.9' }, groupRef(5))));
});
afterEach(async () => {
  await sw.stop();
});

async function readEverything() {
  return {
    entries: await client.readAll(table('*', undefined, undefined, { counterData: {} })),
    defaults: (await Promise.all(TABLES.map((t) => client.readAll(defaultEntry(t))))).flat(),
    directCounters: await client.readAll(directCounter('ingress.l2')),
    directMeters: await client.readAll(directMeter('ingress.ipv4_lpm')),
    groups: await client.readAll(multicastGroup()),
    sessions: await client.readAll(cloneSession()),
    registers: await client.readAll(register('*')),
    counters: await client.readAll(counter('*')),
    meters: await client.readAll(meter('*')),
    digests: await client.readAll(digestEntry('*')),
    members: await client.readAll(actionProfileMember('ingress.ecmp_selector')),
    profileGroups: await client.readAll(actionProfileGroup('ingress.ecmp_selector')),
  };
}

describe('entities as read are entities to write', () => {
  it('writing everything back as read (MODIFY) changes nothing', async () => {
    const before = await snapshot(sw.raw);
    const all = await readEverything();
    await client.write([
      ...all.entries.map((e) => modify(e)),
      ...all.defaults.filter((d) => d.table !== 'ingress.tiny').map((d) => modify(d)),
      ...all.directCounters.map((c) => modify(c)),
      ...all.directMeters.map((m) => modify(m)),
      ...all.groups.map((g) => modify(g)),
      ...all.sessions.map((s) => modify(s)),
      ...all.registers.map((r) => modify(r)),
      ...all.counters.map((c) => modify(c)),
      ...all.meters.map((m) => modify(m)),
      ...all.digests.map((d) => modify(d)),
      ...all.members.map((m) => modify(m)),
      ...all.profileGroups.map((g) => modify(g)),
    ]);
    expect(await snapshot(sw.raw)).toEqual(before);
  });

  it('deleting everything as read, dependents first, leaves no entries', async () => {
    const all = await readEverything();
    await client.write(all.entries.map((e) => del(e)));
    await client.write([...all.profileGroups.map((g) => del(g)), ...all.groups.map((g) => del(g)), ...all.sessions.map((s) => del(s)), ...all.digests.map((d) => del(d))]);
    await client.write(all.members.map((m) => del(m)));
    const after = await snapshot(sw.raw);
    expect(matchEntries(after)).toEqual([]);
    const kinds = new Set(after.entities.map(({ entity }) => entity.packet_replication_engine_entry?.type ?? entity.entity));
    // What exists for the pipeline's lifetime stays: default entries, indexed arrays, the (empty) value set.
    expect([...kinds].sort()).toEqual(['counter_entry', 'meter_entry', 'register_entry', 'table_entry', 'value_set_entry']);
  });
});
