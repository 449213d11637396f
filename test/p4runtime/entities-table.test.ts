import { describe, expect, it } from 'vitest';
import { P4Schema } from '../../src/p4info/index.js';
import { action, allTables, defaultEntry, memberRef, table, TableEntry, type MatchInput } from '../../src/p4runtime/index.js';
import { kitchenSinkP4Info } from '../helpers/p4info-builder.js';
import { codeOf, roundTrip, throughWire } from './helpers/round-trip.js';

const schema = new P4Schema(kitchenSinkP4Info());

describe('table entries: every match kind round trips', () => {
  it('exact, by full name and by suffix, MAC text to number', () => {
    const e = roundTrip(table('ingress.l2', { 'hdr.ethernet.dst_addr': 'aa:bb:cc:dd:ee:ff' }, action('ingress.forward', { port: 2 })), schema, 'insert');
    expect(e).toEqual(
      new TableEntry({ table: 'ingress.l2', match: { 'hdr.ethernet.dst_addr': 0xaabbccddeeff }, action: action('ingress.forward', { port: 2 }) }),
    );
    const bySuffix = roundTrip(table('l2', { dst_addr: 0xaabbccddeeff }, action('forward', { port: 2 })), schema, 'insert');
    expect(bySuffix).toEqual(e);
  });

  it('LPM as text, as an object and as a bare value (full prefix)', () => {
    const text = roundTrip(table('ingress.ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.0.0/8' }, action('ingress.drop')), schema, 'insert');
    expect(text.match).toEqual({ 'hdr.ipv4.dst_addr': { value: 0x0a000000, prefixLen: 8 } });
    const obj = roundTrip(table('ipv4_lpm', { dst_addr: { value: '10.1.0.0', prefixLen: 16 } }, action('drop')), schema, 'insert');
    expect(obj.match).toEqual({ 'hdr.ipv4.dst_addr': { value: 0x0a010000, prefixLen: 16 } });
    const host = roundTrip(table('ipv4_lpm', { dst_addr: '10.1.2.3' }, action('drop')), schema, 'insert');
    expect(host.match).toEqual({ 'hdr.ipv4.dst_addr': { value: 0x0a010203, prefixLen: 32 } });
  });

  it('LPM clears host bits; prefix 0 means "don\'t care"', () => {
    expect(roundTrip(table('ipv4_lpm', { dst_addr: '10.1.2.3/8' }), schema).match).toEqual({ 'hdr.ipv4.dst_addr': { value: 0x0a000000, prefixLen: 8 } });
    expect(throughWire(table('ipv4_lpm', { dst_addr: '0.0.0.0/0' }, action('drop')), schema, 'insert').table_entry!.match).toEqual([]);
  });

  it('ternary, range and optional with priority (the ACL example)', () => {
    const acl = table(
      'ingress.acl',
      {
        'hdr.ipv4.src_addr': { value: '10.0.0.1', mask: '255.255.255.0' },
        'hdr.udp.dst_port': { low: 1000, high: 2000 },
        'hdr.ipv4.protocol': { value: 17 },
        ingress_port: '0x3&&&0x1ff',
      },
      action('ingress.drop'),
      { priority: 10 },
    );
    const e = roundTrip(acl, schema, 'insert');
    expect(e.priority).toBe(10);
    expect(e.match).toEqual({
      'standard_metadata.ingress_port': { value: 3, mask: 0x1ff },
      'hdr.ipv4.src_addr': { value: 0x0a000000, mask: 0xffffff00 },
      'hdr.ipv4.protocol': { value: 17 },
      'hdr.udp.dst_port': { low: 1000, high: 2000 },
    });
  });

  it('range text, bare ternary and bare range values', () => {
    const e = roundTrip(table('acl', { dst_port: '80..443', src_addr: '192.168.0.1', ingress_port: 5 }, action('drop'), { priority: 1 }), schema, 'insert');
    expect(e.match).toEqual({
      'standard_metadata.ingress_port': { value: 5, mask: 0x1ff },
      'hdr.ipv4.src_addr': { value: 0xc0a80001, mask: 0xffffffff },
      'hdr.udp.dst_port': { low: 80, high: 443 },
    });
    expect(roundTrip(table('acl', { dst_port: 53 }, action('drop'), { priority: 1 }), schema).match).toEqual({ 'hdr.udp.dst_port': { low: 53, high: 53 } });
  });

  it('mask 0 and full range mean "don\'t care" and are left out', () => {
    const msg = throughWire(table('acl', { src_addr: { value: 1, mask: 0 }, dst_port: { low: 0, high: 0xffff } }, action('drop'), { priority: 1 }), schema, 'insert');
    expect(msg.table_entry!.match).toEqual([]);
  });

  it('padded inputs come back canonical', () => {
    const padded = Buffer.from([0, 0, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]);
    const e = roundTrip(table('l2', { dst_addr: padded }, action('forward', { port: Buffer.from([0, 0, 2]) })), schema, 'insert');
    expect(e.match).toEqual({ 'hdr.ethernet.dst_addr': 0xaabbccddeeff });
    expect((e.action as ReturnType<typeof action>).params).toEqual({ port: 2 });
    const fm = throughWire(e, schema).table_entry!.match[0]!;
    expect(fm.exact!.value).toEqual(Buffer.from([0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]));
    const zero = throughWire(table('l2', { dst_addr: Buffer.from([0, 0, 0]) }), schema).table_entry!.match[0]!;
    expect(zero.exact!.value).toEqual(Buffer.from([0]));
  });

  it('padded bytes from a switch decode to canonical values and re-encode canonically', () => {
    const msg = throughWire(table('acl', { src_addr: '10.0.0.0&&&255.0.0.0' }, action('drop'), { priority: 3 }), schema);
    const tern = msg.table_entry!.match[0]!.ternary!;
    tern.value = Buffer.from([0, 0, 0, 0x0a, 0, 0, 0]);
    tern.mask = Buffer.from([0, 0xff, 0, 0, 0]);
    const decoded = TableEntry.decode(msg, schema);
    expect(decoded.match).toEqual({ 'hdr.ipv4.src_addr': { value: 0x0a000000, mask: 0xff000000 } });
    expect(throughWire(decoded, schema).table_entry!.match[0]!.ternary).toEqual({ value: Buffer.from([0x0a, 0, 0, 0]), mask: Buffer.from([0xff, 0, 0, 0]) });
  });

  it('default entries, wildcards and entry extras', () => {
    const d = roundTrip(defaultEntry('ingress.l2', action('NoAction')), schema, 'modify');
    expect(d).toEqual(new TableEntry({ table: 'ingress.l2', isDefault: true, action: action('NoAction') }));
    expect(roundTrip(defaultEntry('l2'), schema, 'modify')).toEqual(new TableEntry({ table: 'ingress.l2', isDefault: true }));
    expect(roundTrip(table('ingress.l2'), schema)).toEqual(new TableEntry({ table: 'ingress.l2' }));
    expect(roundTrip(allTables(), schema)).toEqual(new TableEntry({ table: undefined }));
    expect(throughWire(table('*'), schema).table_entry!.table_id).toBe(0);
    const extras = roundTrip(
      table('l2', { dst_addr: 1 }, action('forward', { port: 1 }), {
        metadata: Buffer.from('cookie'),
        idleTimeoutNs: 5_000_000_000,
        counterData: { byteCount: 100, packetCount: 2n },
        meterConfig: { cir: 1, cburst: 2, pir: 3, pburst: 4 },
        meterCounterData: { green: { packetCount: 1 } },
        timeSinceLastHitNs: 7,
        isConst: false,
      }),
      schema,
    );
    expect(extras).toEqual(
      new TableEntry({
        table: 'ingress.l2',
        match: { 'hdr.ethernet.dst_addr': 1 },
        action: action('ingress.forward', { port: 1 }),
        metadata: Buffer.from('cookie'),
        idleTimeoutNs: 5_000_000_000n,
        counterData: { byteCount: 100n, packetCount: 2n },
        meterConfig: { cir: 1n, cburst: 2n, pir: 3n, pburst: 4n, eburst: 0n },
        meterCounterData: { green: { byteCount: 0n, packetCount: 1n }, yellow: { byteCount: 0n, packetCount: 0n }, red: { byteCount: 0n, packetCount: 0n } },
        timeSinceLastHitNs: 7n,
      }),
    );
    // An empty counter_data in a read asks for the counters and stays present.
    expect(throughWire(table('l2', undefined, undefined, { counterData: {} }), schema).table_entry!.counter_data).toEqual({ byte_count: '0', packet_count: '0' });
  });

  it('IPv6 and 128-bit values stay bigints', () => {
    const wide = new P4Schema(
      (() => {
        const info = kitchenSinkP4Info();
        info.tables[1]!.match_fields[0]!.bitwidth = 128;
        return info;
      })(),
    );
    const e = roundTrip(table('ipv4_lpm', { dst_addr: '2001:db8::/32' }, action('drop')), wide, 'insert');
    expect(e.match).toEqual({ 'hdr.ipv4.dst_addr': { value: 0x20010db8n << 96n, prefixLen: 32 } });
  });
});

describe('table entries: encoding errors', () => {
  const drop = action('ingress.drop');
  const cases: [string, () => unknown, string][] = [
    ['unknown table', () => table('ingress.nope').encode(schema), 'P4INFO_UNKNOWN'],
    ['unknown field', () => table('l2', { nope: 1 }).encode(schema), 'P4INFO_UNKNOWN'],
    ['a name that is not a dotted suffix', () => table('acl', { addr: 1 }).encode(schema), 'P4INFO_UNKNOWN'],
    ['value too wide', () => table('l2', { dst_addr: 1n << 48n }).encode(schema), 'VALUE_TOO_WIDE'],
    ['malformed value', () => table('l2', { dst_addr: 'zz' }).encode(schema), 'VALUE_MALFORMED'],
    ['prefix too long', () => table('ipv4_lpm', { dst_addr: '10.0.0.0/33' }).encode(schema), 'ENTITY_BAD_MATCH'],
    ['bad prefix text', () => table('ipv4_lpm', { dst_addr: '10.0.0.0/x' }).encode(schema), 'ENTITY_BAD_MATCH'],
    ['object for exact', () => table('l2', { dst_addr: { value: 1, mask: 2 } as MatchInput }).encode(schema), 'ENTITY_BAD_MATCH'],
    ['mask too wide (bigint)', () => table('acl', { src_addr: { value: 1, mask: 1n << 40n } }).encode(schema), 'VALUE_TOO_WIDE'],
    ['inverted range', () => table('acl', { dst_port: '9..3' }).encode(schema), 'ENTITY_RANGE_INVERTED'],
    ['field twice', () => table('l2', { dst_addr: 1, 'hdr.ethernet.dst_addr': 2 }).encode(schema), 'ENTITY_DUPLICATE_NAME'],
    ['missing exact field', () => table('l2', {}, action('forward', { port: 1 })).encode(schema, 'insert'), 'ENTITY_MISSING_MATCH'],
    ['priority needed', () => table('acl', { dst_port: 1 }, drop).encode(schema, 'insert'), 'ENTITY_PRIORITY_REQUIRED'],
    ['priority not allowed', () => table('l2', { dst_addr: 1 }, drop, { priority: 3 }).encode(schema, 'insert'), 'ENTITY_PRIORITY_NOT_ALLOWED'],
    ['priority not an int32', () => table('acl', {}, drop, { priority: 2 ** 31 }).encode(schema, 'insert'), 'ENTITY_BAD_PRIORITY'],
    ['missing param', () => table('l2', { dst_addr: 1 }, action('forward')).encode(schema, 'insert'), 'ENTITY_MISSING_PARAM'],
    ['unknown param', () => table('l2', { dst_addr: 1 }, action('forward', { port: 1, vlan: 2 })).encode(schema, 'insert'), 'P4INFO_UNKNOWN'],
    ['param too wide', () => table('l2', { dst_addr: 1 }, action('forward', { port: 512 })).encode(schema, 'insert'), 'VALUE_TOO_WIDE'],
    ['action not in table', () => table('l2', { dst_addr: 1 }, action('set_nhop', { dmac: 1, port: 1 })).encode(schema, 'insert'), 'ENTITY_ACTION_NOT_IN_TABLE'],
    ['@defaultonly in an entry', () => table('l2', { dst_addr: 1 }, action('NoAction')).encode(schema, 'insert'), 'ENTITY_ACTION_SCOPE'],
    ['@tableonly as default', () => defaultEntry('acl', action('to_cpu')).encode(schema, 'modify'), 'ENTITY_ACTION_SCOPE'],
    ['insert without action', () => table('l2', { dst_addr: 1 }).encode(schema, 'insert'), 'ENTITY_ACTION_REQUIRED'],
    ['insert of a default entry', () => defaultEntry('l2', drop).encode(schema, 'insert'), 'ENTITY_UPDATE_NOT_ALLOWED'],
    ['const default action', () => defaultEntry('tiny', action('set_mark', { mark: 1 })).encode(schema, 'modify'), 'ENTITY_CONST_DEFAULT_ACTION'],
    ['const table', () => table('fixed', { 'hdr.ipv4.ttl': 1 }, drop).encode(schema, 'insert'), 'ENTITY_CONST_TABLE'],
    ['wildcard write', () => allTables().encode(schema, 'delete'), 'ENTITY_WILDCARD_WRITE'],
    ['member for a direct table', () => table('l2', { dst_addr: 1 }, memberRef(1)).encode(schema, 'insert'), 'ENTITY_ACTION_KIND'],
  ];
  it.each(cases)('%s', (_name, fn, code) => expect(codeOf(fn)).toBe(code));

  it('messages say where the problem is', () => {
    expect(() => table('l2', { dst_addr: 1n << 48n }).encode(schema)).toThrow(/table ingress.l2: match field hdr.ethernet.dst_addr: value .* needs 49 bits but the field has 48/);
    expect(() => table('l2', { dst_addr: 1 }, action('forward')).encode(schema, 'insert')).toThrow(/action ingress.forward: missing value for parameter port/);
  });

  it('reads skip write rules: no priority, partial keys, DELETE needs no action', () => {
    expect(() => table('acl', { dst_port: 1 }).encode(schema)).not.toThrow();
    expect(() => table('l2', { dst_addr: 1 }).encode(schema, 'delete')).not.toThrow();
  });
});
