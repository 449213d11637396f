// Values at the edges of the bytestring rules: 128-bit IPv6 keys and
// parameters, 64-bit keys and registers (past JS numbers), 33-bit and 1-bit
// fields, zero, and the widest value of each width. Written with the client,
// read back as the same values; written padded through the bare stub, read
// back canonical.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { action, insert, modify, register, table, type P4RuntimeClient } from '../../src/p4runtime/index.js';
import { buildP4Info } from '../helpers/p4info-builder.js';
import { idsOf } from './helpers/programs.js';
import { rawItemCodes } from './helpers/outcomes.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { PRIMARY, b } from './helpers/entities.js';

const P4INFO = buildP4Info({
  actions: [{ name: 'NoAction' }, { name: 'ingress.set_v6', params: [['addr', 128]] }, { name: 'ingress.set_flag', params: [['flag', 1], ['tag', 33]] }],
  tables: [
    { name: 'ingress.v6_lpm', keys: [['hdr.ipv6.dst_addr', 'LPM', 128]], actions: ['ingress.set_v6', 'NoAction'] },
    { name: 'ingress.v6_acl', keys: [['hdr.ipv6.src_addr', 'TERNARY', 128], ['meta.flow_id', 'RANGE', 64]], actions: ['ingress.set_flag', 'NoAction'] },
    { name: 'ingress.flows', keys: [['meta.flow_id', 'EXACT', 64], ['meta.flag', 'EXACT', 1]], actions: ['ingress.set_flag', 'NoAction'] },
  ],
  registers: [
    { name: 'ingress.wide', size: 4, bitwidth: 64 },
    { name: 'ingress.odd', size: 2, bitwidth: 33 },
    { name: 'ingress.bit', size: 2, bitwidth: 1 },
  ],
});
const ids = idsOf(P4INFO);
const MAX64 = (1n << 64n) - 1n;
const MAX128 = (1n << 128n) - 1n;

let sw: SwitchUnderTest;
let client: P4RuntimeClient;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  client = await sw.primaryWith(P4INFO, { electionId: PRIMARY });
});
afterEach(async () => {
  await sw.stop();
});

describe('wide and odd-sized values', () => {
  it('128-bit LPM keys and parameters read back as bigints', async () => {
    await client.write([
      insert(table('ingress.v6_lpm', { 'hdr.ipv6.dst_addr': '2001:db8::/32' }, action('ingress.set_v6', { addr: '2001:db8::1' }))),
      insert(table('ingress.v6_lpm', { 'hdr.ipv6.dst_addr': { value: MAX128, prefixLen: 128 } }, action('ingress.set_v6', { addr: MAX128 }))),
      insert(table('ingress.v6_lpm', { 'hdr.ipv6.dst_addr': '::/1' }, action('ingress.set_v6', { addr: 0 }))),
    ]);
    const read = await client.readAll(table('ingress.v6_lpm'));
    expect(read.map((e) => [e.match['hdr.ipv6.dst_addr'], e.action])).toEqual([
      [{ value: 0x20010db8n << 96n, prefixLen: 32 }, { name: 'ingress.set_v6', params: { addr: (0x20010db8n << 96n) | 1n } }],
      [{ value: MAX128, prefixLen: 128 }, { name: 'ingress.set_v6', params: { addr: MAX128 } }],
      [{ value: 0n, prefixLen: 1 }, { name: 'ingress.set_v6', params: { addr: 0n } }],
    ]);
  });

  it('128-bit ternary and 64-bit range keys, 1-bit and 33-bit parameters', async () => {
    const entry = table(
      'ingress.v6_acl',
      { 'hdr.ipv6.src_addr': { value: 'fe80::', mask: 'ffff::' }, 'meta.flow_id': { low: 1n << 40n, high: MAX64 } },
      action('ingress.set_flag', { flag: 1, tag: 2 ** 33 - 1 }),
      { priority: 7 },
    );
    await client.write(insert(entry));
    expect(await client.readAll(table('ingress.v6_acl'))).toMatchObject([
      {
        priority: 7,
        match: { 'hdr.ipv6.src_addr': { value: 0xfe80n << 112n, mask: 0xffffn << 112n }, 'meta.flow_id': { low: 1n << 40n, high: MAX64 } },
        action: { params: { flag: 1, tag: 2 ** 33 - 1 } },
      },
    ]);
  });

  it('64-bit and 1-bit exact keys, including zero and the widest values', async () => {
    await client.write([
      insert(table('ingress.flows', { 'meta.flow_id': MAX64, 'meta.flag': 1 }, action('ingress.set_flag', { flag: 0, tag: 0 }))),
      insert(table('ingress.flows', { 'meta.flow_id': 0, 'meta.flag': 0 }, action('NoAction'))),
    ]);
    expect((await client.readAll(table('ingress.flows'))).map((e) => e.match)).toEqual([
      { 'meta.flow_id': MAX64, 'meta.flag': 1 },
      { 'meta.flow_id': 0n, 'meta.flag': 0 },
    ]);
    const raw = await sw.raw.read([{ table_entry: { table_id: ids.table('ingress.flows') } }]);
    expect(raw.map((e) => e.table_entry!.match.map((m) => m.exact!.value))).toEqual([
      [Buffer.alloc(8, 0xff), b(1)],
      [b(0), b(0)],
    ]);
    expect(raw[0]!.table_entry!.action!.action!.params.map((p) => p.value)).toEqual([b(0), b(0)]);
  });

  it('registers of 64, 33 and 1 bits hold their widest values', async () => {
    await client.write([
      modify(register('ingress.wide', { index: 3, value: MAX64 })),
      modify(register('ingress.odd', { index: 1, value: 2 ** 33 - 1 })),
      modify(register('ingress.bit', { index: 0, value: 1 })),
    ]);
    expect((await client.readAll(register('ingress.wide'))).map((c) => c.value)).toEqual([0n, 0n, 0n, MAX64]);
    expect((await client.readAll(register('ingress.odd'))).map((c) => c.value)).toEqual([0, 2 ** 33 - 1]);
    expect((await client.readAll(register('ingress.bit'))).map((c) => c.value)).toEqual([1, 0]);
  });

  it('accepts padded values up to any length and refuses a bit too many (bare stub)', async () => {
    const wide = ids.register('ingress.wide');
    const bit = ids.register('ingress.bit');
    await sw.raw.write([{ type: 'MODIFY', entity: { register_entry: { register_id: wide, index: { index: 0 }, data: { bitstring: Buffer.concat([Buffer.alloc(12), b(0x80, 0, 0, 0, 0, 0, 0, 1)]) } } } }], {
      electionId: PRIMARY,
    });
    const [cell] = await sw.raw.read([{ register_entry: { register_id: wide, index: { index: 0 } } }]);
    expect(cell!.register_entry!.data!.bitstring).toEqual(b(0x80, 0, 0, 0, 0, 0, 0, 1));
    const codes = await rawItemCodes(
      sw.raw.write(
        [
          { type: 'MODIFY', entity: { register_entry: { register_id: bit, index: { index: 0 }, data: { bitstring: b(2) } } } },
          { type: 'MODIFY', entity: { register_entry: { register_id: wide, index: { index: 0 }, data: { bitstring: b(1, 0, 0, 0, 0, 0, 0, 0, 0) } } } },
          {
            type: 'INSERT',
            entity: {
              table_entry: {
                table_id: ids.table('ingress.v6_lpm'),
                match: [{ field_id: 1, lpm: { value: Buffer.concat([b(1), Buffer.alloc(16)]), prefix_len: 8 } }],
                action: { action: { action_id: ids.action('NoAction') } },
              },
            },
          },
        ],
        { electionId: PRIMARY },
      ),
    );
    expect(codes).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
  });
});
