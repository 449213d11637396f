// The lexer: every literal form, the tricky operators, comments, positions,
// and the token stream's lookahead.
import { describe, expect, it } from 'vitest';
import { formatIntegerLiteral, lex, TokenKind, TokenStream, tokenKindName, type Token } from '../../src/p4c/lexer/index.js';

const kinds = (text: string): string[] =>
  lex(text, 't.p4')
    .filter((t) => t.kind !== TokenKind.EndOfFile)
    .map((t) => tokenKindName(t.kind));
const only = (text: string): Token => {
  const tokens = lex(text, 't.p4');
  expect(tokens).toHaveLength(2);
  return tokens[0]!;
};

describe('integer literals', () => {
  it.each([
    ['42', 42n, null, false, 10],
    ['0', 0n, null, false, 10],
    ['1_000_000', 1000000n, null, false, 10],
    ['0x2A', 42n, null, false, 16],
    ['0X2a', 42n, null, false, 16],
    ['0b101', 5n, null, false, 2],
    ['0B1_0', 2n, null, false, 2],
    ['0o17', 15n, null, false, 8],
    ['0O17', 15n, null, false, 8],
    ['0d99', 99n, null, false, 10],
    ['8w255', 255n, 8, false, 10],
    ['8w0xff', 255n, 8, false, 16],
    ['16s5', 5n, 16, true, 10],
    ['4s0b1010', 10n, 4, true, 2],
    ['32w0xffff_ffff', 0xffffffffn, 32, false, 16],
    ['8s0o7', 7n, 8, true, 8],
    ['128w0xffffffffffffffffffffffffffffffff', (1n << 128n) - 1n, 128, false, 16],
  ])('%s', (text, value, width, signed, base) => {
    const token = only(text);
    expect(token.kind).toBe(TokenKind.IntegerLiteral);
    expect(token.problem).toBeUndefined();
    expect(token.integer).toEqual({ value, width, signed, base });
    expect(token.text).toBe(text);
  });

  it('prints literals back in their base, without separators', () => {
    expect(formatIntegerLiteral(only('32w0xffff_ffff').integer!)).toBe('32w0xffffffff');
    expect(formatIntegerLiteral(only('4s0b1010').integer!)).toBe('4s0b1010');
    expect(formatIntegerLiteral(only('0o17').integer!)).toBe('0o17');
    expect(formatIntegerLiteral(only('0d99').integer!)).toBe('99');
  });

  it('a sign is not part of a literal', () => {
    expect(kinds('-8s3')).toEqual(["'-'", 'an integer']);
  });

  it.each([
    ['123abc', 'unexpected characters after the digits'],
    ['0x', 'unexpected characters after the digits'],
    ['8w', 'unexpected characters after the digits'],
    ['0s5', 'a signed literal needs a width of at least 1'],
    ['0b102', 'unexpected characters after the digits'],
  ])('%s is malformed: %s', (text, why) => {
    const token = only(text);
    expect(token.kind).toBe(TokenKind.IntegerLiteral);
    expect(token.problem).toEqual({ id: 'InvalidIntegerLiteral', args: [text, why] });
  });

  it('ranges lex as integer, .., integer', () => {
    expect(kinds('0..5')).toEqual(['an integer', "'..'", 'an integer']);
    expect(kinds('0x10..0x1f')).toEqual(['an integer', "'..'", 'an integer']);
  });
});

describe('operators and punctuation', () => {
  it('matches the longest operator', () => {
    expect(kinds('a &&& b && c & d')).toEqual(['a name', "'&&&'", 'a name', "'&&'", 'a name', "'&'", 'a name']);
    expect(kinds('a |+| b |-| c || d | e')).toEqual(
      ['a name', "'|+|'", 'a name', "'|-|'", 'a name', "'||'", 'a name', "'|'", 'a name'],
    );
    expect(kinds('a ++ b + c')).toEqual(['a name', "'++'", 'a name', "'+'", 'a name']);
    expect(kinds('<= >= == != << = ! ~ ^ % / * ? : ; , . @')).toEqual(
      ["'<='", "'>='", "'=='", "'!='", "'<<'", "'='", "'!'", "'~'", "'^'", "'%'", "'/'", "'*'", "'?'", "':'", "';'", "','", "'.'", "'@'"],
    );
  });

  it('never makes a >> token, so bit<8>> closes two angle brackets', () => {
    const tokens = lex('register<bit<8>>', 't.p4');
    expect(tokens.map((t) => t.text)).toEqual(['register', '<', 'bit', '<', '8', '>', '>', '']);
    expect(tokens[6]!.spaceBefore).toBe(false);
    const spaced = lex('a > > b', 't.p4');
    expect(spaced[2]!.spaceBefore).toBe(true);
  });

  it('lexes an annotation as @, name and a parenthesised body', () => {
    expect(kinds('@name("ingress.t")')).toEqual(["'@'", 'a name', "'('", 'a string', "')'"]);
  });
});

describe('keywords, names and strings', () => {
  it('tells keywords from names', () => {
    expect(kinds('header_union value_set match_kind _ _pad header2')).toEqual(
      ["'header_union'", "'value_set'", "'match_kind'", "'_'", 'a name', 'a name'],
    );
  });

  it('keeps string escapes as written', () => {
    const token = only('"a\\"b\\\\"');
    expect(token.kind).toBe(TokenKind.StringLiteral);
    expect(token.stringValue).toBe('a\\"b\\\\');
  });

  it('reports an unterminated string', () => {
    const token = only('"abc');
    expect(token.problem?.id).toBe('UnterminatedString');
  });

  it('turns stray characters into invalid tokens', () => {
    const tokens = lex('a $ b', 't.p4');
    expect(tokens[1]!.kind).toBe(TokenKind.Invalid);
    expect(tokens[1]!.problem).toEqual({ id: 'InvalidCharacter', args: ['$'] });
  });
});

describe('comments, whitespace and positions', () => {
  it('skips comments and tracks lines and columns', () => {
    const tokens = lex('a // one\n/* two\n three */ b\n\tc', 'f.p4');
    expect(tokens.map((t) => [t.text, t.span.start.line, t.span.start.column])).toEqual([
      ['a', 1, 1],
      ['b', 3, 11],
      ['c', 4, 2],
      ['', 4, 3],
    ]);
    expect(tokens[1]!.span).toMatchObject({ file: 'f.p4', start: { offset: 26 }, end: { line: 3, column: 12, offset: 27 } });
  });

  it('reports an unterminated block comment as an invalid token', () => {
    const tokens = lex('a /* never closed', 't.p4');
    expect(tokens[1]!.kind).toBe(TokenKind.Invalid);
    expect(tokens[1]!.problem?.id).toBe('UnterminatedComment');
  });

  it('marks the first token of each line; a continued line is not a new line', () => {
    const tokens = lex('#define X \\\n  1\ny', 't.p4');
    expect(tokens.map((t) => [t.text, t.lineStart])).toEqual([
      ['#', true],
      ['define', false],
      ['X', false],
      ['1', false],
      ['y', true],
      ['', true],
    ]);
  });
});

describe('TokenStream', () => {
  it('peeks, consumes, marks and resets', () => {
    const stream = new TokenStream(lex('a b c', 't.p4'));
    expect(stream.peek().text).toBe('a');
    expect(stream.peek(2).text).toBe('c');
    expect(stream.peek(10).kind).toBe(TokenKind.EndOfFile);
    const mark = stream.mark();
    expect(stream.next().text).toBe('a');
    expect(stream.previous()?.text).toBe('a');
    stream.reset(mark);
    expect(stream.next().text).toBe('a');
    stream.next();
    stream.next();
    expect(stream.atEnd()).toBe(true);
    expect(stream.next().kind).toBe(TokenKind.EndOfFile);
    expect(stream.next().kind).toBe(TokenKind.EndOfFile);
  });

  it('insists on an EndOfFile token', () => {
    expect(() => new TokenStream([])).toThrow(RangeError);
  });
});
