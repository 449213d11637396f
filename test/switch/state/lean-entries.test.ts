// Stored entries keep their match only as their key (table-store.ts's
// KeyedEntryRecord), and entries with the same action data share one stored
// action: reads must give back exactly what was written (in canonical form,
// spec §8.3), across MODIFY, direct-resource writes, every match kind and
// more distinct actions than the sharing cache holds.
import { describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';
import { Code } from '../../../src/switch/state/status.js';
import { buildP4Info } from '../../helpers/p4info-builder.js';
import { decoded, pipelineConfig, quietLogger } from './helpers.js';

function setup(): { device: DeviceState; tableId: number; actionId: number } {
  const p4info = buildP4Info({
    actions: [{ name: 'NoAction' }, { name: 'ingress.forward', params: [['port', 16], ['mac', 48]] }],
    tables: [{ name: 'ingress.hosts', keys: [['hdr.eth.dst', 'EXACT', 48], ['hdr.vlan.vid', 'EXACT', 12]], actions: ['ingress.forward', 'NoAction'], size: 65536 }],
  });
  const device = new DeviceState({ logger: quietLogger() });
  expect(device.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info)).code).toBe(Code.OK);
  return { device, tableId: p4info.tables[0]!.preamble!.id, actionId: p4info.actions[1]!.preamble!.id };
}

const canonical = (n: number): Buffer => {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from(bytes.length ? bytes : [0]);
};

type Field = p4r.FieldMatch;

/** A table of every match kind (so entries take a priority), widths that are not whole bytes included. */
function mixedSetup(): { device: DeviceState; tableId: number; actionId: number } {
  const p4info = buildP4Info({
    actions: [{ name: 'NoAction' }, { name: 'ingress.mark', params: [['tag', 7]] }],
    tables: [
      {
        name: 'ingress.acl',
        keys: [
          ['hdr.vlan.vid', 'EXACT', 12],
          ['hdr.ipv4.dst', 'LPM', 20],
          ['hdr.ipv4.tos', 'TERNARY', 6],
          ['hdr.udp.dport', 'RANGE', 16],
          ['hdr.ipv4.proto', 'OPTIONAL', 8],
        ],
        actions: ['ingress.mark', 'NoAction'],
        size: 1024,
      },
    ],
  });
  const device = new DeviceState({ logger: quietLogger() });
  expect(device.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info)).code).toBe(Code.OK);
  return { device, tableId: p4info.tables[0]!.preamble!.id, actionId: p4info.actions[1]!.preamble!.id };
}

describe('lean exact entries and shared actions', () => {
  it('a VRF + route table (EXACT and LPM): duplicates refused (zero padding too), prefixes distinct, MODIFY and DELETE by match, reads canonical', () => {
    const p4info = buildP4Info({
      actions: [{ name: 'NoAction' }, { name: 'ingress.mark', params: [['tag', 7]] }],
      tables: [{ name: 'ingress.routes', keys: [['meta.vrf', 'EXACT', 12], ['hdr.ipv4.dst', 'LPM', 32]], actions: ['ingress.mark', 'NoAction'], size: 64 }],
    });
    const device = new DeviceState({ logger: quietLogger() });
    expect(device.setPipeline('VERIFY_AND_COMMIT', pipelineConfig(p4info)).code).toBe(Code.OK);
    const tableId = p4info.tables[0]!.preamble!.id;
    const actionId = p4info.actions[1]!.preamble!.id;
    const match = (vrf: number[], dst: number[], prefixLen: number): Field[] => [
      { field_id: 1, exact: { value: Buffer.from(vrf) } },
      { field_id: 2, lpm: { value: Buffer.from(dst), prefix_len: prefixLen } },
    ];
    const update = (type: 'INSERT' | 'MODIFY' | 'DELETE', m: Field[], tag: number): p4r.Update__Output =>
      decoded<p4r.Update__Output>('p4.v1.Update', {
        type,
        entity: { table_entry: { table_id: tableId, match: m, action: type === 'DELETE' ? undefined : { action: { action_id: actionId, params: [{ param_id: 1, value: canonical(tag) }] } } } },
      });
    const codes = (updates: p4r.Update__Output[]): number[] => (device.write(updates, 'CONTINUE_ON_ERROR') as { code: number }[]).map((s) => s.code);
    const a = match([1], [10, 0, 0, 0], 8);
    const b = match([1], [10, 0, 0, 0], 16); // same value, longer prefix: another entry
    const c = match([2], [10, 0, 0, 0], 8); // same prefix in another VRF
    const d = match([0, 1], [0, 10, 0, 0, 0], 8); // a, zero-padded: the same entry
    const e = match([0x0f, 0xff], [255, 255, 255, 255], 32);
    expect(codes([update('INSERT', a, 1), update('INSERT', b, 2), update('INSERT', c, 3), update('INSERT', d, 4), update('INSERT', e, 5)])).toEqual([
      Code.OK,
      Code.OK,
      Code.OK,
      Code.ALREADY_EXISTS,
      Code.OK,
    ]);
    expect(codes([update('MODIFY', d, 40), update('DELETE', c, 0), update('DELETE', c, 0)])).toEqual([Code.OK, Code.OK, Code.NOT_FOUND]);
    const read = [...(device.read([decoded<p4r.Entity__Output>('p4.v1.Entity', { table_entry: { table_id: tableId } })]) as Iterable<p4r.Entity>)];
    const got = read.map((x) => [x.table_entry!.match, x.table_entry!.action!.action!.params![0]!.value]);
    expect(got.sort((x, y) => (x[1] as Buffer)[0]! - (y[1] as Buffer)[0]!)).toEqual([
      [b, canonical(2)],
      [e, canonical(5)],
      [a, canonical(40)],
    ]);
  });

  it('every match kind reads back in canonical form; a full range reads back as written, a prefix as its length', () => {
    const { device, tableId, actionId } = mixedSetup();
    const b = (...bytes: number[]): Buffer => Buffer.from(bytes);
    // [as written, as the spec's canonical form reads it back]; fields left out are don't care.
    const cases: [Field[], Field[]][] = [
      [
        [{ field_id: 1, exact: { value: b(0, 5) } }, { field_id: 2, lpm: { value: b(0x0f, 0xf0, 0), prefix_len: 12 } }],
        [{ field_id: 1, exact: { value: b(5) } }, { field_id: 2, lpm: { value: b(0x0f, 0xf0, 0), prefix_len: 12 } }],
      ],
      [
        [{ field_id: 1, exact: { value: b(0x0f, 0xff) } }, { field_id: 2, lpm: { value: b(0x0f, 0xff, 0xff), prefix_len: 20 } }, { field_id: 3, ternary: { value: b(0, 0x21), mask: b(0x33) } }],
        [{ field_id: 1, exact: { value: b(0x0f, 0xff) } }, { field_id: 2, lpm: { value: b(0x0f, 0xff, 0xff), prefix_len: 20 } }, { field_id: 3, ternary: { value: b(0x21), mask: b(0x33) } }],
      ],
      [
        [{ field_id: 1, exact: { value: b(0) } }, { field_id: 2, lpm: { value: b(0x08, 0, 0), prefix_len: 1 } }, { field_id: 4, range: { low: b(0, 80), high: b(0x1f, 0x90) } }, { field_id: 5, optional: { value: b(17) } }],
        [{ field_id: 1, exact: { value: b(0) } }, { field_id: 2, lpm: { value: b(0x08, 0, 0), prefix_len: 1 } }, { field_id: 4, range: { low: b(80), high: b(0x1f, 0x90) } }, { field_id: 5, optional: { value: b(17) } }],
      ],
      // The full range is don't care: keyed like an omitted field, but read back as written (docs/p4runtime.md).
      [
        [{ field_id: 1, exact: { value: b(7) } }, { field_id: 4, range: { low: b(0), high: b(0xff, 0xff) } }, { field_id: 5, optional: { value: b(0) } }],
        [{ field_id: 1, exact: { value: b(7) } }, { field_id: 4, range: { low: b(0), high: b(0xff, 0xff) } }, { field_id: 5, optional: { value: b(0) } }],
      ],
    ];
    const update = (type: 'INSERT' | 'MODIFY', match: Field[], priority: number, tag: number): p4r.Update__Output =>
      decoded<p4r.Update__Output>('p4.v1.Update', {
        type,
        entity: { table_entry: { table_id: tableId, match, priority, action: { action: { action_id: actionId, params: [{ param_id: 1, value: canonical(tag) }] } } } },
      });
    const inserted = device.write(cases.map(([match], i) => update('INSERT', match, 10 + i, i)), 'CONTINUE_ON_ERROR');
    expect(Array.isArray(inserted) && inserted.map((s) => s.code)).toEqual(cases.map(() => Code.OK));
    // The same match at another priority is another entry; MODIFY finds each by match and priority.
    expect((device.write([update('INSERT', cases[0]![0], 99, 99)], 'CONTINUE_ON_ERROR') as { code: number }[])[0]!.code).toBe(Code.OK);
    expect((device.write([update('MODIFY', cases[1]![0], 11, 111)], 'CONTINUE_ON_ERROR') as { code: number }[])[0]!.code).toBe(Code.OK);

    const read = [...(device.read([decoded<p4r.Entity__Output>('p4.v1.Entity', { table_entry: { table_id: tableId } })]) as Iterable<p4r.Entity>)];
    const got = read.map((e) => [e.table_entry!.priority, e.table_entry!.match, e.table_entry!.action!.action!.params![0]!.value]);
    const want = [...cases.map(([, canon], i) => [10 + i, canon, canonical(i === 1 ? 111 : i)]), [99, cases[0]![1], canonical(99)]];
    const byPriority = (x: unknown[], y: unknown[]): number => (x[0] as number) - (y[0] as number);
    expect(got.sort(byPriority)).toEqual(want.sort(byPriority));
  });

  it('reads back every entry as written, with more distinct actions than the cache holds, after MODIFY too', () => {
    const { device, tableId, actionId } = setup();
    const entry = (n: number, type: 'INSERT' | 'MODIFY', port: number): p4r.Update__Output =>
      decoded<p4r.Update__Output>('p4.v1.Update', {
        type,
        entity: {
          table_entry: {
            table_id: tableId,
            match: [
              { field_id: 1, exact: { value: canonical(0x020000000000 + n) } },
              { field_id: 2, exact: { value: canonical(n % 4096) } },
            ],
            action: { action: { action_id: actionId, params: [{ param_id: 1, value: canonical(port) }, { param_id: 2, value: canonical(0x0a0000000000 + (n % 7)) }] } },
            controller_metadata: String(n),
          },
        },
      });
    const count = 6000;
    // Ports repeat every 5000 entries: both shared and distinct action data, past the 4,096 cache.
    const statuses = device.write(Array.from({ length: count }, (_, n) => entry(n, 'INSERT', n % 5000)), 'CONTINUE_ON_ERROR');
    expect(Array.isArray(statuses) && statuses.every((s) => s.code === Code.OK)).toBe(true);
    const modified = device.write([entry(17, 'MODIFY', 4242)], 'CONTINUE_ON_ERROR');
    expect(Array.isArray(modified) && modified.every((s) => s.code === Code.OK)).toBe(true);

    const all = [...(device.read([decoded<p4r.Entity__Output>('p4.v1.Entity', { table_entry: { table_id: tableId } })]) as Iterable<p4r.Entity>)];
    expect(all).toHaveLength(count);
    const byMetadata = new Map(all.map((e) => [e.table_entry!.controller_metadata, e.table_entry!]));
    for (const n of [0, 1, 17, 4095, 4096, 4097, 5000, 5999]) {
      const te = byMetadata.get(String(n))!;
      const port = n === 17 ? 4242 : n % 5000;
      expect(te.match).toEqual([
        { field_id: 1, exact: { value: canonical(0x020000000000 + n) } },
        { field_id: 2, exact: { value: canonical(n % 4096) } },
      ]);
      expect(te.action).toEqual({ action: { action_id: actionId, params: [{ param_id: 1, value: canonical(port) }, { param_id: 2, value: canonical(0x0a0000000000 + (n % 7)) }] } });
    }
  });
});
