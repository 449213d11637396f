// Table entries of every match kind, default entries, and the direct counters
// and meters attached to entries: written with the client, read back canonical
// (also after writing zero-padded bytestrings through the bare stub), modified
// and deleted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P4Schema } from '../../src/p4info/index.js';
import { action, defaultEntry, del, directCounter, directMeter, insert, modify, table, type P4RuntimeClient, type TableEntry } from '../../src/p4runtime/index.js';
import { editedP4Info, fixtureP4Info, idsOf, kitchenSink } from './helpers/programs.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { PRIMARY, b } from './helpers/entities.js';

const P4INFO = kitchenSink();
const SCHEMA = new P4Schema(P4INFO);
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

/** Canonical messages of entries, for comparing what was written with what was read. */
const messages = (entries: readonly TableEntry[]) => entries.map((e) => e.encode(SCHEMA));

describe('table entries of every match kind', () => {
  const l2 = table('ingress.l2', { 'hdr.ethernet.dst_addr': 'aa:bb:cc:dd:ee:01' }, action('ingress.forward', { port: 2 }));
  const lpm = table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.1.0.0/16' }, action('ingress.set_nhop', { dmac: '00:00:00:00:00:0a', port: 3 }));
  const acl = table(
    'ingress.acl',
    {
      'standard_metadata.ingress_port': { value: 1, mask: 0x1ff },
      'hdr.ipv4.src_addr': '10.0.0.0&&&255.255.255.0',
      'hdr.ipv4.protocol': { value: 17 },
      'hdr.udp.dst_port': '1000..2000',
    },
    action('ingress.set_mark', { mark: 9 }),
    { priority: 10 },
  );

  it('inserts exact, LPM, ternary, optional and range entries and reads them back as written', async () => {
    await client.write([insert(l2), insert(lpm), insert(acl)]);
    const [readL2] = await client.readAll(table('ingress.l2'));
    expect(readL2).toMatchObject({
      table: 'ingress.l2',
      match: { 'hdr.ethernet.dst_addr': 0xaabbccddee01 },
      action: { name: 'ingress.forward', params: { port: 2 } },
      priority: 0,
      isDefault: false,
    });
    const [readLpm] = await client.readAll(table('ingress.ipv4_lpm'));
    expect(readLpm).toMatchObject({ match: { 'hdr.ipv4.dst_addr': { value: 0x0a010000, prefixLen: 16 } }, action: { name: 'ingress.set_nhop', params: { dmac: 10, port: 3 } } });
    const [readAcl] = await client.readAll(table('ingress.acl'));
    expect(readAcl).toMatchObject({
      priority: 10,
      match: {
        'standard_metadata.ingress_port': { value: 1, mask: 0x1ff },
        'hdr.ipv4.src_addr': { value: 0x0a000000, mask: 0xffffff00 },
        'hdr.ipv4.protocol': { value: 17 },
        'hdr.udp.dst_port': { low: 1000, high: 2000 },
      },
    });
    expect(messages([readL2!, readLpm!, readAcl!])).toEqual(messages([l2, lpm, acl]));
  });

  it('modifies (the whole entry is replaced) and deletes by key', async () => {
    await client.write([insert(l2), insert(lpm), insert(acl)]);
    await client.write([
      modify(table('ingress.l2', { 'hdr.ethernet.dst_addr': 'aa:bb:cc:dd:ee:01' }, action('ingress.drop'))),
      modify(table('ingress.acl', acl.match, action('ingress.to_cpu'), { priority: 10, metadata: b(0xca, 0xfe) })),
    ]);
    expect(await client.readAll(table('ingress.l2'))).toMatchObject([{ action: { name: 'ingress.drop', params: {} } }]);
    const [readAcl] = await client.readAll(table('ingress.acl'));
    expect(readAcl).toMatchObject({ action: { name: 'ingress.to_cpu' } });
    expect(Buffer.from(readAcl!.metadata!)).toEqual(b(0xca, 0xfe));

    // DELETE reads only the key: the action may be left out.
    await client.write([del(table('ingress.l2', { 'hdr.ethernet.dst_addr': 'aa:bb:cc:dd:ee:01' })), del(table('ingress.acl', acl.match, undefined, { priority: 10 }))]);
    expect(messages(await client.readAll(table('*')))).toEqual(messages([lpm]));
    expect(await client.readAll(table('ingress.l2'))).toEqual([]);
    expect(await client.readAll(table('ingress.acl'))).toEqual([]);
    await client.write(del(lpm));
    expect(await client.readAll(table('*'))).toEqual([]);
  });

  it('keeps entries with the same ternary match apart by priority', async () => {
    const at = (priority: number, mark: number) => table('ingress.acl', { 'hdr.ipv4.protocol': { value: 6 } }, action('ingress.set_mark', { mark }), { priority });
    await client.write([insert(at(1, 1)), insert(at(2, 2))]);
    const read = await client.readAll(table('ingress.acl'));
    expect(read.map((e) => [e.priority, e.action])).toEqual([
      [1, { name: 'ingress.set_mark', params: { mark: 1 } }],
      [2, { name: 'ingress.set_mark', params: { mark: 2 } }],
    ]);
    expect(await client.readAll(table('ingress.acl', { 'hdr.ipv4.protocol': { value: 6 } }, undefined, { priority: 2 }))).toHaveLength(1);
  });

  it('accepts zero-padded bytestrings and always answers canonical ones', async () => {
    const forward = ids.action('ingress.forward');
    const setNhop = ids.action('ingress.set_nhop');
    const setMark = ids.action('ingress.set_mark');
    await sw.raw.write(
      [
        {
          type: 'INSERT',
          entity: { table_entry: { table_id: ids.table('ingress.l2'), match: [{ field_id: 1, exact: { value: b(0, 0, 0, 0, 0, 1) } }], action: { action: { action_id: forward, params: [{ param_id: 1, value: b(0, 2) }] } } } },
        },
        {
          type: 'INSERT',
          entity: {
            table_entry: {
              table_id: ids.table('ingress.ipv4_lpm'),
              match: [{ field_id: 1, lpm: { value: b(10, 0, 0, 0), prefix_len: 8 } }],
              action: { action: { action_id: setNhop, params: [{ param_id: 1, value: b(0, 0, 0, 0, 0, 0, 0, 5) }, { param_id: 2, value: b(0, 0, 0, 3) }] } },
            },
          },
        },
        {
          type: 'INSERT',
          entity: {
            table_entry: {
              table_id: ids.table('ingress.acl'),
              priority: 5,
              match: [
                { field_id: 1, ternary: { value: b(0, 1), mask: b(0, 0xff) } },
                { field_id: 3, optional: { value: b(0, 0, 6) } },
                { field_id: 4, range: { low: b(0, 0), high: b(0, 80) } },
              ],
              action: { action: { action_id: setMark, params: [{ param_id: 1, value: b(0, 0, 0, 7) }] } },
            },
          },
        },
      ],
      { electionId: PRIMARY },
    );
    const read = await sw.raw.read([{ table_entry: {} }]);
    const byTable = new Map(read.map((e) => [e.table_entry!.table_id, e.table_entry!]));
    const l2Entry = byTable.get(ids.table('ingress.l2'))!;
    expect(l2Entry.match[0]!.exact!.value).toEqual(b(1));
    expect(l2Entry.action!.action!.params[0]!.value).toEqual(b(2));
    const lpmEntry = byTable.get(ids.table('ingress.ipv4_lpm'))!;
    expect(lpmEntry.match[0]!.lpm).toMatchObject({ value: b(10, 0, 0, 0), prefix_len: 8 });
    expect(lpmEntry.action!.action!.params.map((p) => p.value)).toEqual([b(5), b(3)]);
    const aclEntry = byTable.get(ids.table('ingress.acl'))!;
    expect(aclEntry.match.map((m) => m.ternary ?? m.optional ?? m.range)).toEqual([
      { value: b(1), mask: b(0xff) },
      { value: b(6) },
      { low: b(0), high: b(80) },
    ]);
    expect(aclEntry.action!.action!.params[0]!.value).toEqual(b(7));
    // The client reads the same entries into the values that were meant.
    expect(await client.readAll(table('ingress.l2'))).toMatchObject([{ match: { 'hdr.ethernet.dst_addr': 1 }, action: { params: { port: 2 } } }]);
    // And an entry written padded is found by its canonical key.
    await client.write(del(table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 })));
    expect(await client.readAll(table('ingress.l2'))).toEqual([]);
  });
});

describe('default entries', () => {
  it("reads the program's default, changes it, and resets it with a MODIFY without action", async () => {
    expect(await client.readAll(defaultEntry('ingress.l2'))).toMatchObject([{ table: 'ingress.l2', isDefault: true, action: { name: 'NoAction', params: {} } }]);
    await client.write(modify(defaultEntry('ingress.l2', action('ingress.forward', { port: 7 }))));
    expect(await client.readAll(defaultEntry('ingress.l2'))).toMatchObject([{ isDefault: true, action: { name: 'ingress.forward', params: { port: 7 } } }]);
    // Default entries are not part of a wildcard read of entries.
    expect(await client.readAll(table('ingress.l2'))).toEqual([]);
    await client.write(modify(defaultEntry('ingress.l2')));
    expect(await client.readAll(defaultEntry('ingress.l2'))).toMatchObject([{ action: { name: 'NoAction' } }]);
  });

  it('reads default actions with arguments from the P4Info canonical (newer p4c writes them padded)', async () => {
    const other = await SwitchUnderTest.start();
    try {
      // p4c 1.2.4.8 writes no initial_default_action; newer p4c does, with the argument padded to the parameter's bytes.
      const counter = fixtureP4Info('counter');
      const withDefault = editedP4Info(counter, (plain) => {
        (plain.tables![0] as Record<string, unknown>).initial_default_action = { action_id: idsOf(counter).action('set_class'), arguments: [{ param_id: 1, value: Buffer.from([0, 7]) }] };
      });
      const c = await other.primaryWith(withDefault);
      expect(await c.readAll(defaultEntry('classify'))).toMatchObject([{ action: { name: 'MyIngress.set_class', params: { class_id: 7 } } }]);
      const [raw] = await other.raw.read([{ table_entry: { table_id: idsOf(counter).table('classify'), is_default_action: true } }]);
      expect(raw!.table_entry!.action!.action!.params[0]!.value).toEqual(b(7));
    } finally {
      await other.stop();
    }
  });
});

describe('direct counters and meters', () => {
  const entry = table('ingress.l2', { 'hdr.ethernet.dst_addr': 1 });
  const lpmEntry = table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' });

  it('starts a direct counter at zero, sets it, reads it per entry, per table and with the entry', async () => {
    await client.write([insert(table('ingress.l2', entry.match, action('ingress.drop'))), insert(table('ingress.l2', { 'hdr.ethernet.dst_addr': 2 }, action('ingress.drop')))]);
    expect(await client.readAll(directCounter(entry))).toMatchObject([{ data: { packetCount: 0n, byteCount: 0n } }]);
    await client.write(modify(directCounter(entry, { packetCount: 5, byteCount: 320 })));
    expect(await client.readAll(directCounter(entry))).toMatchObject([{ entry: { table: 'ingress.l2', match: { 'hdr.ethernet.dst_addr': 1 } }, data: { packetCount: 5n, byteCount: 320n } }]);
    const all = await client.readAll(directCounter('ingress.l2'));
    expect(all.map((c) => [c.entry.match['hdr.ethernet.dst_addr'], c.data?.packetCount])).toEqual([
      [1, 5n],
      [2, 0n],
    ]);
    const withCounters = await client.readAll(table('ingress.l2', undefined, undefined, { counterData: {} }));
    expect(withCounters.map((e) => e.counterData?.byteCount)).toEqual([320n, 0n]);
    // A MODIFY of the entry without counter_data keeps the counter.
    await client.write(modify(table('ingress.l2', entry.match, action('ingress.forward', { port: 1 }))));
    expect(await client.readAll(directCounter(entry))).toMatchObject([{ data: { packetCount: 5n } }]);
  });

  it("sets the default entry's direct counter", async () => {
    await client.write(modify(directCounter(defaultEntry('ingress.l2'), { packetCount: 3, byteCount: 3 })));
    const [raw] = await sw.raw.read([{ direct_counter_entry: { table_entry: { table_id: ids.table('ingress.l2'), is_default_action: true } } }]);
    expect(raw!.direct_counter_entry!.data).toMatchObject({ packet_count: '3', byte_count: '3' });
  });

  it('configures a direct meter, reads it back and resets it with an empty MODIFY', async () => {
    await client.write(insert(table('ingress.ipv4_lpm', lpmEntry.match, action('ingress.drop'))));
    expect(await client.readAll(directMeter(lpmEntry))).toMatchObject([{ config: undefined }]);
    const config = { cir: 1000, cburst: 100, pir: 2000, pburst: 200 };
    await client.write(modify(directMeter(lpmEntry, config)));
    expect(await client.readAll(directMeter(lpmEntry))).toMatchObject([{ config: { cir: 1000n, cburst: 100n, pir: 2000n, pburst: 200n, eburst: 0n } }]);
    expect(await client.readAll(table('ingress.ipv4_lpm', undefined, undefined, { meterConfig: { cir: 0, cburst: 0, pir: 0, pburst: 0 } }))).toMatchObject([
      { meterConfig: { cir: 1000n } },
    ]);
    await client.write(modify(directMeter(lpmEntry)));
    expect(await client.readAll(directMeter(lpmEntry))).toMatchObject([{ config: undefined }]);
  });

  it('answers NOT_FOUND for the direct counter of an entry that does not exist', async () => {
    const failures = await client.write(modify(directCounter(entry, { packetCount: 1 }))).catch((e: { failures?: { codeName: string }[] }) => e.failures);
    expect(failures?.map((f) => f.codeName)).toEqual(['NOT_FOUND']);
  });
});
