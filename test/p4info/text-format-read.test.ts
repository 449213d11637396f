import { describe, expect, test } from 'vitest';
import { decodeMessage } from '../../src/proto/codec.js';
import type * as p4i from '../../src/proto/p4i.js';
import type * as p4r from '../../src/proto/p4r.js';
import type * as rpc from '../../src/proto/rpc.js';
import { formatTextProto, parseTextProto } from '../../src/p4info/text-format/index.js';
import { FIXTURES, fixtureText } from './fixtures.js';
import { installSyntheticTypes } from './synthetic-types.js';

const P4INFO = 'p4.config.v1.P4Info';
const parseInfo = (text: string): p4i.P4Info__Output => parseTextProto<p4i.P4Info__Output>(P4INFO, text, 't');
const parseTable = (text: string): p4i.Table__Output => parseTextProto<p4i.Table__Output>('p4.config.v1.Table', text);

interface Scalars {
  d: number;
  f: number;
  s32: number;
  f64: string;
  u64: string;
  sf32: number;
  by_number: Record<string, string>;
  by_flag: Record<string, string>;
  kind: string | number;
  kinds: (string | number)[];
  child: Scalars | null;
  b: Buffer;
  names: string[];
  counts: Record<string, number>;
}
const parseScalars = (text: string): Scalars => {
  installSyntheticTypes();
  return parseTextProto<Scalars>('p4ina_test.Scalars', text);
};

describe('p4c fixtures', () => {
  test.each(FIXTURES)('%s: parse then format gives back the file byte for byte', (name) => {
    const text = fixtureText(name);
    const parsed = parseTextProto<p4i.P4Info__Output>(P4INFO, text, `${name}.p4info.txtpb`);
    expect(formatTextProto(P4INFO, parsed, { header: true })).toBe(text);
  });

  test('the decoded shape is the one p4ina uses everywhere', () => {
    const info = parseInfo(fixtureText('counter'));
    const table = info.tables[0]!;
    expect(table.preamble).toEqual({ id: 36975771, name: 'MyIngress.classify', alias: 'classify', annotations: [], annotation_locations: [], doc: null, structured_annotations: [] });
    expect(table.size).toBe('128');
    expect(table.match_fields[0]).toMatchObject({ match: 'match_type', match_type: 'EXACT', bitwidth: 16 });
    expect(table.initial_default_action).toBeNull();
    expect(info.actions.find((a) => a.preamble!.name === 'MyIngress.set_class')!.params[0]).toMatchObject({ id: 1, name: 'class_id', bitwidth: 16 });
    expect(info.type_info).not.toBeNull();
    expect(info.pkg_info?.arch).toBe('v1model');
  });
});

describe('syntax that protoc, p4c and people write', () => {
  test('comments, ";" and "," separators, angle brackets, optional colon before a message', () => {
    const info = parseInfo(`# leading comment
      pkg_info: < arch: "v1model"; name: "x", >  # trailing comment
      tables { preamble: { id: 1 } size: 3; }
      tables < preamble < id: 2 > >`);
    expect(info.pkg_info).toMatchObject({ arch: 'v1model', name: 'x' });
    expect(info.tables.map((t) => t.preamble?.id)).toEqual([1, 2]);
    expect(info.tables[0]!.size).toBe('3');
  });

  test('repeated fields as repeated lines and as [lists], scalar and message', () => {
    const table = parseTable(`direct_resource_ids: 1 direct_resource_ids: [2, 0x3] direct_resource_ids: []
      action_refs: [{ id: 7 }, < id: 8 >] action_refs { id: 9 }`);
    expect(table.direct_resource_ids).toEqual([1, 2, 3]);
    expect(table.action_refs.map((r) => r.id)).toEqual([7, 8, 9]);
  });

  test('strings: both quotes, C escapes, octal, hex, \\u, adjacent literals joined', () => {
    const pre = parseTextProto<p4i.Preamble__Output>(
      'p4.config.v1.Preamble',
      String.raw`name: 'it''s' " \"q\" \\ \n\t\r\a\b\f\v\? \101\x42\x4a \u00e9" annotations: '@x("y")'`,
    );
    expect(pre.name).toBe('its "q" \\ \n\t\r\x07\b\f\v? ABJ é');
    expect(pre.annotations).toEqual(['@x("y")']);
  });

  test('bytes fields take escaped strings', () => {
    const arg = parseTextProto<p4i._p4_config_v1_TableActionCall_Argument__Output>('p4.config.v1.TableActionCall.Argument', String.raw`value: "\000\007\377*" "\x10"`);
    expect(arg.value).toEqual(Buffer.from([0, 7, 0xff, 0x2a, 0x10]));
  });

  test('integers in decimal, hex, octal, with sign, up to the limits of their type', () => {
    expect(parseTextProto<p4i.Register__Output>('p4.config.v1.Register', 'size: -0x10').size).toBe(-16);
    expect(parseTextProto<p4i.Register__Output>('p4.config.v1.Register', 'size: 017').size).toBe(15);
    expect(parseTextProto<p4i.Register__Output>('p4.config.v1.Register', 'size: -2147483648').size).toBe(-2147483648);
    expect(parseTable('preamble { id: 4294967295 }').preamble?.id).toBe(4294967295);
    expect(parseTable('size: 9223372036854775807').size).toBe('9223372036854775807');
    expect(parseTable('size: -9223372036854775808').size).toBe('-9223372036854775808');
    const u128 = parseTextProto<p4r.Uint128__Output>('p4.v1.Uint128', 'high: 18446744073709551615 low: 0xFFFFFFFFFFFFFFFF');
    expect(u128).toEqual({ high: '18446744073709551615', low: '18446744073709551615' });
    const s = parseScalars('s32: -7 f64: 18446744073709551615 sf32: -1 u64: 0');
    expect([s.s32, s.f64, s.sf32, s.u64]).toEqual([-7, '18446744073709551615', -1, '0']);
  });

  test('booleans as true/false/True/False/t/f/1/0', () => {
    const read = (v: string): boolean => parseTextProto<p4i.ActionProfile__Output>('p4.config.v1.ActionProfile', `with_selector: ${v}`).with_selector;
    expect(['true', 'True', 't', '1'].map(read)).toEqual([true, true, true, true]);
    expect(['false', 'False', 'f', '0'].map(read)).toEqual([false, false, false, false]);
  });

  test('enums by name or number; numbers without a name are kept (proto3 enums are open)', () => {
    const field = parseTextProto<p4i.MatchField__Output>('p4.config.v1.MatchField', 'match_type: 3');
    expect(field.match_type).toBe('LPM');
    expect(parseTextProto<p4i.ActionRef__Output>('p4.config.v1.ActionRef', 'scope: DEFAULT_ONLY').scope).toBe('DEFAULT_ONLY');
    expect(parseTextProto<p4i.ActionRef__Output>('p4.config.v1.ActionRef', 'scope: 9').scope).toBe(9);
    expect(parseScalars('kinds: [ONE, 2, ZERO]').kinds).toEqual(['ONE', 'TWO', 'ZERO']);
  });

  test('floats: decimal, exponent, f suffix, integers, inf and nan', () => {
    expect(parseScalars('d: 1.5').d).toBe(1.5);
    expect(parseScalars('d: -2.5e3').d).toBe(-2500);
    expect(parseScalars('d: .25').d).toBe(0.25);
    expect(parseScalars('d: 7').d).toBe(7);
    expect(parseScalars('d: -inf').d).toBe(-Infinity);
    expect(parseScalars('d: Infinity').d).toBe(Infinity);
    expect(parseScalars('d: nan').d).toBeNaN();
    expect(parseScalars('f: 0.1f').f).toBe(Math.fround(0.1));
  });

  test('map fields as repeated { key value } entries, with default key and value when left out', () => {
    const s = parseScalars(`by_number { key: -5 value: "minus five" } by_number { key: 0x10 value: "sixteen" }
      by_flag { key: true value: ONE } by_flag { value: TWO } counts { key: "a" } counts: [{ key: "b" value: 2 }]`);
    expect(s.by_number).toEqual({ '-5': 'minus five', '16': 'sixteen' });
    expect(s.by_flag).toEqual({ true: 'ONE', false: 'TWO' });
    expect(s.counts).toEqual({ a: 0, b: 2 });
    const info = parseInfo('type_info { structs { key: "s_t" value { members { name: "f" } } } structs { key: "empty_t" } }');
    expect(Object.keys(info.type_info!.structs)).toEqual(['s_t', 'empty_t']);
    expect(info.type_info!.structs.empty_t!.members).toEqual([]);
  });

  test('google.protobuf.Any in expanded form [type URL] { ... }', () => {
    const status = parseTextProto<rpc.Status__Output>(
      'google.rpc.Status',
      'code: 2 details { [type.googleapis.com/p4.v1.Error] { canonical_code: 5 message: "no entry" } } details { type_url: "x/y" value: "\\001" }',
    );
    expect(status.details[0]!.type_url).toBe('type.googleapis.com/p4.v1.Error');
    const error = decodeMessage<p4r.Error__Output>('p4.v1.Error', status.details[0]!.value);
    expect(error).toMatchObject({ canonical_code: 5, message: 'no entry' });
    expect(status.details[1]).toEqual({ type_url: 'x/y', value: Buffer.from([1]) });
  });

  test('oneof members keep their presence, even at a default value', () => {
    const field = parseTextProto<p4i.MatchField__Output>('p4.config.v1.MatchField', 'other_match_type: ""');
    expect(field.match).toBe('other_match_type');
    expect(field.other_match_type).toBe('');
    expect(parseTextProto<p4i.MatchField__Output>('p4.config.v1.MatchField', 'id: 1').match).toBeUndefined();
  });

  test('an empty text is the empty message', () => {
    expect(parseInfo('  # nothing\n').tables).toEqual([]);
  });

  test('lines may end in CRLF', () => {
    expect(parseInfo('pkg_info {\r\n  arch: "v1model"\r\n}\r\n').pkg_info?.arch).toBe('v1model');
  });
});
