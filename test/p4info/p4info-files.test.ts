import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { encodeMessage } from '../../src/proto/codec.js';
import type * as p4i from '../../src/proto/p4i.js';
import {
  formatP4Info,
  loadSchema,
  P4InfoError,
  P4InfoErrorCode,
  p4infoFormatForPath,
  parseJsonProto,
  parseP4Info,
  readP4InfoFile,
  TextFormatError,
  TextFormatErrorCode,
  writeP4InfoFile,
  type P4InfoFormat,
} from '../../src/p4info/index.js';
import { kitchenSinkP4Info } from '../helpers/p4info-builder.js';
import { FIXTURES, fixturePath, fixtureText } from './fixtures.js';

const scratch = mkdtempSync(join(tmpdir(), 'p4ina-p4info-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function malformed(run: () => unknown): P4InfoError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(P4InfoError);
    expect((error as P4InfoError).code).toBe(P4InfoErrorCode.MALFORMED);
    return error as P4InfoError;
  }
  throw new Error('expected a P4InfoError');
}

const samples: [string, p4i.P4Info__Output][] = [
  ...FIXTURES.map((name): [string, p4i.P4Info__Output] => [name, parseP4Info(fixtureText(name), 'text', name)]),
  ['kitchen sink', kitchenSinkP4Info()],
];

describe('text, JSON and binary decode to the same P4Info', () => {
  test.each(samples)('%s: text -> JSON -> binary -> text', (_name, info) => {
    const json = parseP4Info(formatP4Info(info, 'json'), 'json');
    expect(json).toEqual(info);
    const binary = parseP4Info(formatP4Info(json, 'binary'), 'binary');
    expect(binary).toEqual(info);
    const text = parseP4Info(formatP4Info(binary, 'text'), 'text');
    expect(text).toEqual(info);
  });

  test.each(FIXTURES)('%s: formatP4Info(text) reproduces the fixture file', (name) => {
    expect(formatP4Info(parseP4Info(fixtureText(name), 'text'), 'text')).toBe(fixtureText(name));
  });
});

describe('JSON as p4c writes it', () => {
  const counter = parseP4Info(fixtureText('counter'), 'text');
  const json = formatP4Info(counter, 'json');

  test('lowerCamelCase names, int64 as strings, bytes in base64, enums by name, one-space indentation', () => {
    expect(json.startsWith('{\n "pkgInfo": {\n  "arch": "v1model"\n },\n "tables": [\n  {\n   "preamble": {\n    "id": 36975771,\n')).toBe(true);
    expect(json).toContain('\n   "matchFields": [\n');
    expect(json).toContain('"matchType": "EXACT"');
    const classify = counter.tables[0]!;
    const withDefault = { ...counter, tables: [{ ...classify, initial_default_action: { action_id: 17755228, arguments: [{ param_id: 1, value: Buffer.from([0, 7]) }] } }] };
    expect(formatP4Info(withDefault, 'json')).toContain('"initialDefaultAction": {\n    "actionId": 17755228,\n    "arguments": [\n     {\n      "paramId": 1,\n      "value": "AAc="\n     }\n    ]\n   },');
    expect(json).toContain('"directResourceIds": [\n    321265700\n   ],\n   "size": "128"\n');
    expect(json).toContain('"spec": {\n    "unit": "BOTH"\n   },\n   "size": "512"');
    expect(json.endsWith('\n "typeInfo": {}\n}\n')).toBe(true);
  });

  test('defaults are left out, empty messages kept', () => {
    expect(json).not.toContain('isConstTable');
    expect(json).not.toContain('"annotations"');
    expect(JSON.parse(json).typeInfo).toEqual({});
  });

  test('the reader takes the original snake_case names too, and mixes of both', () => {
    const snake = { pkg_info: { arch: 'v1model' }, tables: [{ preamble: { id: 7, name: 't' }, matchFields: [{ id: 1, match_type: 'LPM' }], size: 10 }] };
    const info = parseP4Info(JSON.stringify(snake), 'json');
    expect(info.pkg_info?.arch).toBe('v1model');
    expect(info.tables[0]).toMatchObject({ size: '10', match_fields: [{ id: 1, match_type: 'LPM' }] });
  });

  test('unknown fields and unknown enum names are skipped (P4Info from a newer p4c)', () => {
    const newer = {
      pkgInfo: { arch: 'v1model', futureField: { x: 1 } },
      tables: [{ preamble: { id: 7 }, actionRefs: [{ id: 1, scope: 'GROUP_ACTION' }], someNewFlag: true }],
      brandNewTopLevel: [1, 2, 3],
    };
    const info = parseP4Info(JSON.stringify(newer), 'json');
    expect(info.pkg_info?.arch).toBe('v1model');
    expect(info.tables[0]!.action_refs[0]).toMatchObject({ id: 1, scope: 'TABLE_AND_DEFAULT' });
  });

  test('null means not set; 64-bit integers as numbers; url-safe base64', () => {
    const info = parseP4Info('{"pkgInfo": null, "tables": [{"size": 4096, "initialDefaultAction": {"arguments": [{"value": "_-8"}]}}]}', 'json');
    expect(info.pkg_info).toBeNull();
    expect(info.tables[0]!.size).toBe('4096');
    expect(info.tables[0]!.initial_default_action!.arguments[0]!.value).toEqual(Buffer.from([0xff, 0xef]));
  });

  test('google.protobuf.Any with "@type"', () => {
    const any = { '@type': 'type.googleapis.com/p4.config.v1.Preamble', id: 3, name: 'x' };
    const info = parseP4Info(JSON.stringify({ externs: [{ instances: [{ info: any }] }] }), 'json');
    expect(info.externs[0]!.instances[0]!.info!.type_url).toBe(any['@type']);
    expect(JSON.parse(formatP4Info(info, 'json')).externs[0].instances[0].info).toEqual(any);
    const unknown = { ...info, externs: [{ instances: [{ info: { type_url: 'type.googleapis.com/x.Y', value: Buffer.from([1]) } }] }] };
    expect(malformed(() => formatP4Info(unknown, 'json')).message).toContain('x.Y');
  });

  test('an Any of a type p4ina does not know is skipped on reading, like an unknown field', () => {
    const vendor = { externs: [{ externTypeName: 'Vendor', instances: [{ preamble: { id: 9 }, info: { '@type': 'type.googleapis.com/vendor.Extern', x: 1 } }] }] };
    const info = parseP4Info(JSON.stringify(vendor), 'json');
    expect(info.externs[0]!.extern_type_name).toBe('Vendor');
    expect(info.externs[0]!.instances[0]!.preamble!.id).toBe(9);
    expect(info.externs[0]!.instances[0]!.info).toBeNull();
    expect(malformed(() => parseJsonProto('google.protobuf.Any', '{"@type": "type.googleapis.com/vendor.Extern"}')).message).toContain('vendor.Extern');
  });

  test('malformed JSON says where: line and column, or the path of the bad value', () => {
    expect(malformed(() => parseP4Info('{\n "tables": [\n  {]\n}', 'json', 'p.json')).message).toMatch(/^p\.json:3:4: not valid JSON/);
    expect(malformed(() => parseP4Info('{"tables": [{"size": "big"}]}', 'json', 'p.json')).message).toBe('p.json: tables[0].size: expected an integer (int64)');
    expect(malformed(() => parseP4Info('{"tables": {"size": 1}}', 'json')).message).toContain('tables: expected an array');
    expect(malformed(() => parseP4Info('[]', 'json')).message).toContain('(top level): expected an object');
    expect(malformed(() => parseP4Info('{"tables": [{"preamble": {"id": -1}}]}', 'json')).message).toContain('outside the range of uint32');
    expect(malformed(() => parseP4Info('{"tables": [{"matchFields": [{"matchType": "EXACT", "otherMatchType": "x"}]}]}', 'json')).message).toContain('oneof match');
    expect(malformed(() => parseP4Info('{"tables": [{"initialDefaultAction": {"arguments": [{"value": "%%"}]}}]}', 'json')).message).toContain('base64');
  });
});

describe('binary', () => {
  test('unknown fields are skipped', () => {
    const known = Buffer.from(encodeMessage('p4.config.v1.P4Info', { pkg_info: { arch: 'v1model' } }));
    // Field 999, wire type 0 (varint), value 1: a field from some future P4Info.
    const unknownField = Buffer.from([0xb8, 0x3e, 0x01]);
    expect(parseP4Info(Buffer.concat([known, unknownField]), 'binary').pkg_info?.arch).toBe('v1model');
  });

  test('bytes that are not a P4Info are a P4InfoError, never another exception', () => {
    expect(malformed(() => parseP4Info(Buffer.from([0x12, 0xff, 0x01]), 'binary', 'x.bin')).message).toMatch(/^x\.bin: not a binary P4Info/);
    expect(malformed(() => parseP4Info(Buffer.from([0x0f]), 'binary')).code).toBe(P4InfoErrorCode.MALFORMED);
  });
});

describe('files', () => {
  test('the format comes from the suffix, as p4c --p4runtime-files chooses it', () => {
    const cases: [string, P4InfoFormat][] = [
      ['a.p4info.txtpb', 'text'],
      ['a.txt', 'text'],
      ['a.json', 'json'],
      ['a.bin', 'binary'],
      ['a.pb', 'binary'],
      ['A.JSON', 'json'],
    ];
    for (const [path, format] of cases) expect(p4infoFormatForPath(path)).toBe(format);
    expect(malformed(() => p4infoFormatForPath('p4info.yaml')).message).toContain('.txtpb');
    malformed(() => p4infoFormatForPath('p4info'));
  });

  test.each(['txtpb', 'json', 'bin'])('write then read a .%s file', (suffix) => {
    const path = join(scratch, `kitchen.${suffix}`);
    writeP4InfoFile(path, kitchenSinkP4Info());
    expect(readP4InfoFile(path)).toEqual(kitchenSinkP4Info());
  });

  test('a text file with a byte-order mark still reads', () => {
    const path = join(scratch, 'bom.txtpb');
    writeFileSync(path, '\ufeff' + fixtureText('acl'));
    expect(readP4InfoFile(path).tables[0]!.preamble!.name).toBe('MyIngress.acl');
  });

  test('text errors keep their position and their specific cause', () => {
    const path = join(scratch, 'bad.txtpb');
    writeFileSync(path, 'pkg_info {\n  arch: "v1model"\n  color: blue\n}\n');
    const error = malformed(() => readP4InfoFile(path));
    expect(error.message).toBe(`${path}:3:3: message p4.config.v1.PkgInfo has no field "color"`);
    expect(error.cause).toBeInstanceOf(TextFormatError);
    expect((error.cause as TextFormatError).code).toBe(TextFormatErrorCode.UNKNOWN_FIELD);
  });

  test('a missing file is a P4InfoError', () => {
    expect(malformed(() => readP4InfoFile(join(scratch, 'absent.json'))).message).toContain('cannot read P4Info file');
  });

  test('loadSchema indexes a P4Info file', () => {
    const schema = loadSchema(fixturePath('forwarding'));
    expect(schema.tables.get('l2_exact').id).toBe(35992994);
    expect(schema.arch).toBe('v1model');
  });
});
