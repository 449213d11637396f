import { describe, expect, test } from 'vitest';
import { packAny } from '../../src/proto/codec.js';
import { formatTextProto, parseTextProto } from '../../src/p4info/text-format/index.js';
import { kitchenSinkP4Info } from '../helpers/p4info-builder.js';
import { installSyntheticTypes } from './synthetic-types.js';

const scalars = (value: object): string => {
  installSyntheticTypes();
  return formatTextProto('p4ina_test.Scalars', value);
};

describe('printing as protobuf C++ TextFormat does for p4c', () => {
  test('header lines, two-space indentation, "name {" and "}" for messages', () => {
    const text = formatTextProto('p4.config.v1.P4Info', { pkg_info: { arch: 'v1model' }, tables: [{ preamble: { id: 1, name: 't' } }] }, { header: true });
    expect(text).toBe(
      '# proto-file: p4/config/v1/p4info.proto\n# proto-message: p4.config.v1.P4Info\n\n' +
        'pkg_info {\n  arch: "v1model"\n}\ntables {\n  preamble {\n    id: 1\n    name: "t"\n  }\n}\n',
    );
  });

  test('fields in field-number order, not declaration order (ActionRef: annotations = 2 before scope = 3)', () => {
    const text = formatTextProto('p4.config.v1.ActionRef', { scope: 'DEFAULT_ONLY', annotations: ['@defaultonly'], id: 5 });
    expect(text).toBe('id: 5\nannotations: "@defaultonly"\nscope: DEFAULT_ONLY\n');
  });

  test('proto3 defaults are left out; a present message prints even when empty', () => {
    expect(formatTextProto('p4.config.v1.Table', { size: '0', is_const_table: false, preamble: { id: 0, name: '' } })).toBe('preamble {\n}\n');
    expect(formatTextProto('p4.config.v1.P4Info', { type_info: {} })).toBe('type_info {\n}\n');
    expect(formatTextProto('p4.config.v1.P4Info', {})).toBe('');
  });

  test('a oneof member prints whenever it is the one set, default or not', () => {
    expect(formatTextProto('p4.config.v1.MatchField', { id: 1, other_match_type: '' })).toBe('id: 1\nother_match_type: ""\n');
    expect(formatTextProto('p4.config.v1.MatchField', { match_type: 'UNSPECIFIED' })).toBe('match_type: UNSPECIFIED\n');
  });

  test('strings and bytes C-escaped, non-printable bytes in 3-digit octal', () => {
    const text = formatTextProto('p4.config.v1.Preamble', { name: 'a"b\'c\\d\ne\tf\rg\x01h\x7fé', annotations: ['@noWarn("unused")'] });
    expect(text).toBe(String.raw`name: "a\"b\'c\\d\ne\tf\rg\001h\177\303\251"` + '\n' + String.raw`annotations: "@noWarn(\"unused\")"` + '\n');
    const arg = formatTextProto('p4.config.v1.TableActionCall.Argument', { param_id: 1, value: Buffer.from([0, 0, 0, 10, 0x2a, 0x1c]) });
    expect(arg).toBe(String.raw`param_id: 1` + '\n' + String.raw`value: "\000\000\000\n*\034"` + '\n');
  });

  test('enums by name (numbers when the enum has no name for them), 64-bit integers as plain numbers', () => {
    expect(formatTextProto('p4.config.v1.ActionRef', { scope: 1 })).toBe('scope: TABLE_ONLY\n');
    expect(formatTextProto('p4.config.v1.ActionRef', { scope: 7 })).toBe('scope: 7\n');
    expect(formatTextProto('p4.config.v1.Table', { size: 65536 })).toBe('size: 65536\n');
    expect(formatTextProto('p4.config.v1.Table', { size: '-9223372036854775808' })).toBe('size: -9223372036854775808\n');
    expect(formatTextProto('p4.v1.Uint128', { high: '18446744073709551615' })).toBe('high: 18446744073709551615\n');
  });

  test('map entries sorted by key, key and value always printed', () => {
    const text = formatTextProto('p4.config.v1.P4TypeInfo', { structs: { b_t: { members: [{ name: 'x' }] }, a_t: {}, B_t: {} } });
    expect(text).toBe(
      'structs {\n  key: "B_t"\n  value {\n  }\n}\n' +
        'structs {\n  key: "a_t"\n  value {\n  }\n}\n' +
        'structs {\n  key: "b_t"\n  value {\n    members {\n      name: "x"\n    }\n  }\n}\n',
    );
    expect(scalars({ by_number: { '10': 'ten', '-2': 'minus', '9': '' } })).toBe(
      'by_number {\n  key: -2\n  value: "minus"\n}\nby_number {\n  key: 9\n  value: ""\n}\nby_number {\n  key: 10\n  value: "ten"\n}\n',
    );
    expect(scalars({ by_flag: { true: 'ONE', false: 'ZERO' } })).toBe('by_flag {\n  key: false\n  value: ZERO\n}\nby_flag {\n  key: true\n  value: ONE\n}\n');
  });

  test('Any expanded when its type is known, left as type_url and value when not', () => {
    const known = formatTextProto('google.rpc.Status', { code: 2, details: [packAny('p4.v1.Error', { canonical_code: 5, message: 'm' })] });
    expect(known).toBe('code: 2\ndetails {\n  [type.googleapis.com/p4.v1.Error] {\n    canonical_code: 5\n    message: "m"\n  }\n}\n');
    expect(parseTextProto('google.rpc.Status', known)).toEqual(parseTextProto('google.rpc.Status', known.replace(/\n/g, ' ')));
    const unknown = formatTextProto('google.rpc.Status', { details: [{ type_url: 'type.googleapis.com/x.Y', value: Buffer.from([1]) }] });
    expect(unknown).toBe('details {\n  type_url: "type.googleapis.com/x.Y"\n  value: "\\001"\n}\n');
  });

  test('floats as SimpleDtoa/SimpleFtoa write them', () => {
    const d = (v: number): string => scalars({ d: v });
    expect([1.5, 0.1, 1e21, 1e-5, 123456789012345680, 2 / 3, -0, NaN, Infinity, -Infinity].map(d)).toEqual([
      'd: 1.5\n',
      'd: 0.1\n',
      'd: 1e+21\n',
      'd: 1e-05\n',
      'd: 1.2345678901234568e+17\n',
      'd: 0.66666666666666663\n',
      'd: -0\n',
      'd: nan\n',
      'd: inf\n',
      'd: -inf\n',
    ]);
    expect(scalars({ f: Math.fround(0.1) })).toBe('f: 0.1\n');
    expect(scalars({ f: Math.fround(16777217) })).toBe('f: 16777216\n');
    expect(scalars({ f: Math.fround(1 / 3) })).toBe('f: 0.333333343\n');
  });

  test('the looser input shape prints like the decoded one', () => {
    const decoded = parseTextProto<object>('p4.config.v1.P4Info', formatTextProto('p4.config.v1.P4Info', kitchenSinkP4Info()));
    expect(formatTextProto('p4.config.v1.P4Info', decoded)).toBe(formatTextProto('p4.config.v1.P4Info', kitchenSinkP4Info()));
  });

  test('format then parse gives back the same object (synthetic scalar types)', () => {
    installSyntheticTypes();
    const value = {
      d: -1.25,
      f: Math.fround(3.5),
      s32: -9,
      f64: '18446744073709551615',
      sf32: -3,
      u64: '42',
      kind: 'TWO',
      kinds: ['ONE', 'ZERO'],
      b: Buffer.from([0, 255, 10]),
      names: ['a', '', 'ü'],
      counts: { x: 1, y: -1 },
      by_number: { '5': 'five' },
      by_flag: { true: 'ONE' },
      child: { kind: 'ONE', child: { names: ['deep'] } },
    };
    const text = formatTextProto('p4ina_test.Scalars', value);
    const back = parseTextProto<Record<string, unknown>>('p4ina_test.Scalars', text);
    expect(back).toMatchObject({ ...value, child: { kind: 'ONE', child: { names: ['deep'] } } });
    expect(formatTextProto('p4ina_test.Scalars', back)).toBe(text);
  });
});
