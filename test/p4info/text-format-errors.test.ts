import { describe, expect, test } from 'vitest';
import { P4inaError } from '../../src/errors/p4ina-error.js';
import { parseTextProto, TextFormatError, TextFormatErrorCode } from '../../src/p4info/text-format/index.js';
import { installSyntheticTypes } from './synthetic-types.js';

/** The TextFormatError that parsing `text` as `type` throws. */
function failure(text: string, type = 'p4.config.v1.P4Info'): TextFormatError {
  try {
    parseTextProto(type, text, 'in.txtpb');
  } catch (error) {
    if (error instanceof TextFormatError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

/** Code, line, column and the message's `source:line:col:` prefix together. */
function expectError(text: string, code: string, line: number, column: number, type?: string): TextFormatError {
  const error = failure(text, type);
  expect({ code: error.code, line: error.line, column: error.column }).toEqual({ code, line, column });
  expect(error.message.startsWith(`in.txtpb:${line}:${column}: `)).toBe(true);
  expect(P4inaError.is(error)).toBe(true);
  expect(error.source).toBe('in.txtpb');
  return error;
}

describe('errors name what is wrong and where', () => {
  test('unknown field: names the field and the message type', () => {
    const error = expectError('tables {\n  preamble { id: 1 }\n  sizes: 4\n}', TextFormatErrorCode.UNKNOWN_FIELD, 3, 3);
    expect(error.message).toBe('in.txtpb:3:3: message p4.config.v1.Table has no field "sizes"');
    expect(error.detail).toBe('message p4.config.v1.Table has no field "sizes"');
  });

  test('unknown field written in JSON style suggests the text-format name', () => {
    const error = expectError('tables { matchFields { id: 1 } }', TextFormatErrorCode.UNKNOWN_FIELD, 1, 10);
    expect(error.message).toContain('did you mean "match_fields"?');
  });

  test('bad enum: names the enum and its values', () => {
    const error = expectError('tables {\n  match_fields { match_type: FUZZY }\n}', TextFormatErrorCode.UNKNOWN_ENUM, 2, 30);
    expect(error.message).toContain('p4.config.v1.MatchField.MatchType has no value FUZZY');
    expect(error.message).toContain('EXACT');
  });

  test('unterminated string: at the opening quote', () => {
    expectError('pkg_info {\n  arch: "v1model\n}', TextFormatErrorCode.SYNTAX, 2, 9);
    expectError("pkg_info { arch: 'v1model", TextFormatErrorCode.SYNTAX, 1, 18);
  });

  test('wrong type: a string for a number, a scalar for a message, a message for a scalar', () => {
    expectError('tables { size: "big" }', TextFormatErrorCode.WRONG_TYPE, 1, 16);
    expectError('tables { preamble: 5 }', TextFormatErrorCode.WRONG_TYPE, 1, 20);
    expectError('tables { size { } }', TextFormatErrorCode.WRONG_TYPE, 1, 15);
    expectError('tables { size: 1.5 }', TextFormatErrorCode.WRONG_TYPE, 1, 16);
    expectError('pkg_info { arch: 7 }', TextFormatErrorCode.WRONG_TYPE, 1, 18);
    expectError('tables { is_const_table: yes }', TextFormatErrorCode.WRONG_TYPE, 1, 26);
    expectError('tables { size: [1, 2] }', TextFormatErrorCode.WRONG_TYPE, 1, 16);
  });

  test('missing brace: at the end, naming where the message opened', () => {
    const error = expectError('tables {\n  preamble {\n    id: 1\n  }\n', TextFormatErrorCode.SYNTAX, 5, 1);
    expect(error.message).toContain('missing "}" to close the message opened at 1:8');
    expectError('tables { preamble { id: 1 > }', TextFormatErrorCode.SYNTAX, 1, 27);
    expectError('tables { preamble { id: 1 } } }', TextFormatErrorCode.SYNTAX, 1, 31);
  });

  test('missing colon before a scalar', () => {
    expectError('tables { size 4 }', TextFormatErrorCode.SYNTAX, 1, 15);
  });

  test('numbers out of range for their field', () => {
    expectError('tables { preamble { id: 4294967296 } }', TextFormatErrorCode.OUT_OF_RANGE, 1, 25);
    expectError('tables { preamble { id: -1 } }', TextFormatErrorCode.OUT_OF_RANGE, 1, 25);
    expectError('tables { size: 9223372036854775808 }', TextFormatErrorCode.OUT_OF_RANGE, 1, 16);
    expectError('registers { size: 2147483648 }', TextFormatErrorCode.OUT_OF_RANGE, 1, 19);
  });

  test('malformed numbers', () => {
    expectError('tables { size: 12abc }', TextFormatErrorCode.SYNTAX, 1, 16);
    expectError('tables { size: 08 }', TextFormatErrorCode.SYNTAX, 1, 16);
    expectError('tables { size: 0x }', TextFormatErrorCode.SYNTAX, 1, 16);
    expectError('tables { size: 1e }', TextFormatErrorCode.SYNTAX, 1, 16);
  });

  test('a field given twice, and two members of one oneof', () => {
    const error = expectError('pkg_info { arch: "a"\n arch: "b" }', TextFormatErrorCode.DUPLICATE_FIELD, 2, 2);
    expect(error.message).toContain('also set at 1:12');
    expectError('pkg_info { } pkg_info { }', TextFormatErrorCode.DUPLICATE_FIELD, 1, 14);
    expectError('tables { match_fields { match_type: EXACT other_match_type: "x" } }', TextFormatErrorCode.DUPLICATE_FIELD, 1, 43);
  });

  test('bad escapes and invalid UTF-8 in a string field', () => {
    expectError(String.raw`pkg_info { arch: "a\qb" }`, TextFormatErrorCode.SYNTAX, 1, 20);
    expectError(String.raw`pkg_info { arch: "\400" }`, TextFormatErrorCode.SYNTAX, 1, 19);
    expectError(String.raw`pkg_info { arch: "\xzz" }`, TextFormatErrorCode.SYNTAX, 1, 19);
    expectError(String.raw`pkg_info { arch: "\ud800" }`, TextFormatErrorCode.SYNTAX, 1, 19);
    expectError(String.raw`pkg_info { arch: "\377" }`, TextFormatErrorCode.INVALID_UTF8, 1, 18);
  });

  test('unexpected characters and tokens', () => {
    expectError('pkg_info { arch: "x" } @', TextFormatErrorCode.SYNTAX, 1, 24);
    expectError('pkg_info { arch: "x" } 5', TextFormatErrorCode.SYNTAX, 1, 24);
    expectError('tables { action_refs: [{ id: 1 } { id: 2 }] }', TextFormatErrorCode.SYNTAX, 1, 34);
  });

  test('extensions, and Any of a type p4ina does not know', () => {
    expectError('[foo.bar]: 1', TextFormatErrorCode.UNKNOWN_FIELD, 1, 1);
    expectError('details { [type.googleapis.com/no.Such] { } }', TextFormatErrorCode.UNKNOWN_TYPE, 1, 11, 'google.rpc.Status');
    expectError('details { type_url: "a/b" [type.googleapis.com/p4.v1.Error] { } }', TextFormatErrorCode.DUPLICATE_FIELD, 1, 27, 'google.rpc.Status');
  });

  test('nesting deeper than 100 messages', () => {
    const deep = 'tuple { members { '.repeat(60) + '}}'.repeat(60);
    expectError(deep, TextFormatErrorCode.TOO_DEEP, 1, 1 + 'tuple { members { '.length * 50 + 6, 'p4.config.v1.P4DataTypeSpec');
  });

  test('errors in synthetic scalar types', () => {
    installSyntheticTypes();
    expectError('kind: SEVEN', TextFormatErrorCode.UNKNOWN_ENUM, 1, 7, 'p4ina_test.Scalars');
    expectError('kind: "ONE"', TextFormatErrorCode.WRONG_TYPE, 1, 7, 'p4ina_test.Scalars');
    expectError('d: "1"', TextFormatErrorCode.WRONG_TYPE, 1, 4, 'p4ina_test.Scalars');
    expectError('u64: -1', TextFormatErrorCode.OUT_OF_RANGE, 1, 6, 'p4ina_test.Scalars');
  });
});
