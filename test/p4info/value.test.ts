import { describe, expect, test } from 'vitest';
import { decodeNumber, decodeValue, encodeValue, formatValue, P4ValueError, parseValue, ValueErrorCode } from '../../src/p4info/index.js';

const hex = (b: Buffer): string => b.toString('hex');

function valueError(run: () => unknown): P4ValueError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(P4ValueError);
    return error as P4ValueError;
  }
  throw new Error('expected a P4ValueError');
}

describe('encodeValue: every input form to a canonical bytestring', () => {
  test('numbers, bigints, decimal, hex and binary strings', () => {
    expect(hex(encodeValue(0, 8))).toBe('00');
    expect(hex(encodeValue(10, 32))).toBe('0a');
    expect(hex(encodeValue(0x1234, 16))).toBe('1234');
    expect(hex(encodeValue(2n ** 100n, 128))).toBe('10' + '00'.repeat(12));
    expect(hex(encodeValue('4096', 16))).toBe('1000');
    expect(hex(encodeValue(' 0x1F ', 8))).toBe('1f');
    expect(hex(encodeValue('0XaB', 8))).toBe('ab');
    expect(hex(encodeValue('0b101', 3))).toBe('05');
    expect(hex(encodeValue(Number.MAX_SAFE_INTEGER, 53))).toBe('1fffffffffffff');
  });

  test('IPv4 and MAC addresses, MAC with ":" or "-"', () => {
    expect(hex(encodeValue('10.0.0.1', 32))).toBe('0a000001');
    expect(hex(encodeValue('0.0.0.0', 32))).toBe('00');
    expect(hex(encodeValue('aa:bb:cc:dd:ee:ff', 48))).toBe('aabbccddeeff');
    expect(hex(encodeValue('00-00-00-00-00-01', 48))).toBe('01');
    expect(hex(encodeValue('AA-BB-CC-DD-EE-FF', 48))).toBe('aabbccddeeff');
  });

  test('IPv6: full, with "::" anywhere, with an embedded IPv4 tail', () => {
    expect(hex(encodeValue('2001:db8:0:0:0:0:0:1', 128))).toBe('20010db8' + '0'.repeat(22) + '01');
    expect(hex(encodeValue('2001:db8::1', 128))).toBe('20010db8' + '0'.repeat(22) + '01');
    expect(hex(encodeValue('::1', 128))).toBe('01');
    expect(hex(encodeValue('::', 128))).toBe('00');
    expect(hex(encodeValue('fe80::', 128))).toBe('fe80' + '00'.repeat(14));
    expect(hex(encodeValue('::ffff:10.0.0.1', 128))).toBe('ffff0a000001');
    expect(hex(encodeValue('64:ff9b::192.0.2.33', 128))).toBe('64ff9b' + '00'.repeat(8) + 'c0000221');
    expect(hex(encodeValue('1:2:3:4:5:6:1.2.3.4', 128))).toBe('010002000300040005000601020304');
  });

  test('raw bytes: padded input is accepted and made canonical', () => {
    expect(hex(encodeValue(Buffer.from([0, 0, 0, 5]), 9))).toBe('05');
    expect(hex(encodeValue(new Uint8Array([0, 0]), 8))).toBe('00');
    expect(hex(encodeValue(Buffer.from([1, 0xff]), 9))).toBe('01ff');
  });

  test('widths exactly at the limit fit; one bit over does not', () => {
    expect(hex(encodeValue(255, 8))).toBe('ff');
    expect(valueError(() => encodeValue(256, 8)).code).toBe(ValueErrorCode.TOO_WIDE);
    expect(hex(encodeValue(511, 9))).toBe('01ff');
    expect(valueError(() => encodeValue(512, 9)).message).toBe('value 512 needs 10 bits but the field has 9');
    expect(hex(encodeValue('255.255.255.255', 32))).toBe('ffffffff');
    expect(valueError(() => encodeValue('255.255.255.255', 31)).code).toBe(ValueErrorCode.TOO_WIDE);
    expect(hex(encodeValue('ff:ff:ff:ff:ff:ff', 48))).toBe('ffffffffffff');
    expect(valueError(() => encodeValue('ff:ff:ff:ff:ff:ff', 47)).code).toBe(ValueErrorCode.TOO_WIDE);
    expect(valueError(() => encodeValue('ffff::', 127)).code).toBe(ValueErrorCode.TOO_WIDE);
    expect(valueError(() => encodeValue(Buffer.from([0, 2]), 1)).message).toBe('value 0x0002 needs 2 bits but the field has 1');
    expect(hex(encodeValue(1, 1))).toBe('01');
  });

  test('errors and their codes', () => {
    expect(valueError(() => encodeValue(-1, 8)).code).toBe(ValueErrorCode.NEGATIVE);
    expect(valueError(() => encodeValue(-1n, 8)).code).toBe(ValueErrorCode.NEGATIVE);
    expect(valueError(() => encodeValue('-5', 8)).code).toBe(ValueErrorCode.NEGATIVE);
    expect(valueError(() => encodeValue('-0x5', 8)).code).toBe(ValueErrorCode.NEGATIVE);
    expect(valueError(() => encodeValue(1.5, 8)).code).toBe(ValueErrorCode.MALFORMED);
    expect(valueError(() => encodeValue(2 ** 53, 64)).code).toBe(ValueErrorCode.MALFORMED);
    expect(valueError(() => encodeValue(new Uint8Array(), 8)).code).toBe(ValueErrorCode.EMPTY);
    expect(valueError(() => encodeValue('10.0.0.256', 32)).message).toContain('IPv4 octet above 255');
    expect(valueError(() => encodeValue('hello', 8)).code).toBe(ValueErrorCode.MALFORMED);
    expect(valueError(() => encodeValue('0xfg', 8)).code).toBe(ValueErrorCode.MALFORMED);
    expect(valueError(() => encodeValue('aa:bb:cc:dd:ee', 48)).code).toBe(ValueErrorCode.MALFORMED);
    expect(valueError(() => encodeValue('1:2:3:4:5:6:7:8:9', 128)).code).toBe(ValueErrorCode.MALFORMED);
    expect(valueError(() => encodeValue('fe80::1%eth0', 128)).message).toContain('zone');
    expect(valueError(() => encodeValue('', 8)).code).toBe(ValueErrorCode.MALFORMED);
  });

  test('parseValue without a width', () => {
    expect(parseValue('10.0.0.1')).toBe(0x0a000001n);
    expect(parseValue(new Uint8Array([1, 0]))).toBe(256n);
  });
});

describe('decoding and formatting', () => {
  test('decodeValue and decodeNumber', () => {
    expect(decodeValue(Buffer.from([1, 0, 0]))).toBe(65536n);
    expect(decodeNumber(Buffer.from([0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => decodeNumber(Buffer.from([0x20, 0, 0, 0, 0, 0, 0]))).toThrow(RangeError);
  });

  test('formatValue in each format', () => {
    const b = (h: string): Buffer => Buffer.from(h, 'hex');
    expect(formatValue(b('0a000001'))).toBe('167772161');
    expect(formatValue(b('0a000001'), 'hex')).toBe('0xa000001');
    expect(formatValue(b('0a000001'), 'ipv4')).toBe('10.0.0.1');
    expect(formatValue(b('01'), 'mac')).toBe('00:00:00:00:00:01');
    expect(formatValue(b('aabbccddeeff'), 'mac')).toBe('aa:bb:cc:dd:ee:ff');
  });

  test('formatValue ipv6 writes RFC 5952 text: the longest zero run becomes "::"', () => {
    const v6 = (text: string): string => formatValue(encodeValue(text, 128), 'ipv6');
    expect(v6('::')).toBe('::');
    expect(v6('::1')).toBe('::1');
    expect(v6('fe80::')).toBe('fe80::');
    expect(v6('2001:db8::1')).toBe('2001:db8::1');
    expect(v6('1:0:0:2:0:0:0:3')).toBe('1:0:0:2::3');
    expect(v6('1:0:0:2:3:0:0:4')).toBe('1::2:3:0:0:4');
    expect(v6('1:0:2:3:4:5:6:7')).toBe('1:0:2:3:4:5:6:7');
    expect(v6('1:2:3:4:5:6:7:8')).toBe('1:2:3:4:5:6:7:8');
  });

  test('encode then format gives back the text', () => {
    for (const text of ['10.1.2.3', '0.0.0.0']) expect(formatValue(encodeValue(text, 32), 'ipv4')).toBe(text);
    for (const text of ['02:00:00:00:00:01', 'ff:ff:ff:ff:ff:ff']) expect(formatValue(encodeValue(text, 48), 'mac')).toBe(text);
  });
});
