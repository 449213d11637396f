import { describe, expect, test } from 'vitest';
import {
  BROADCAST_MAC,
  ipv4FromText,
  ipv4ToBytes,
  ipv4ToText,
  macFromText,
  macToBytes,
  macToText,
  readIpv4Address,
  readMac,
  WireFormatError,
  WireTextErrorCode,
  writeIpv4Address,
  writeMac,
} from '../../src/wire/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WireFormatError);
    return (error as WireFormatError).code;
  }
  throw new Error('expected a WireFormatError');
}

describe('MAC addresses', () => {
  test('text ↔ number ↔ bytes', () => {
    expect(macFromText('02:00:00:00:00:01')).toBe(0x020000000001);
    expect(macFromText('AA-BB-CC-DD-EE-FF')).toBe(0xaabbccddeeff);
    expect(macFromText(' ff:ff:ff:ff:ff:ff ')).toBe(BROADCAST_MAC);
    expect(macToText(0xaabbccddeeff)).toBe('aa:bb:cc:dd:ee:ff');
    expect(macToText(1)).toBe('00:00:00:00:00:01');
    expect(macToBytes(0x0a0b0c0d0e0f).toString('hex')).toBe('0a0b0c0d0e0f');
  });

  test('seeded round trips through bytes and text, the top bit included', () => {
    const rng = new SeededRandom('wire-mac');
    const buf = Buffer.alloc(8);
    for (let i = 0; i < 200; i++) {
      const mac = rng.nextInt(0x10000) * 0x1_0000_0000 + rng.nextUint32();
      expect(writeMac(buf, 1, mac)).toBe(7);
      expect(readMac(buf, 1)).toBe(mac);
      expect(macFromText(macToText(mac))).toBe(mac);
    }
  });

  test('bad text is a WireFormatError with a stable code', () => {
    for (const bad of ['', '02:00:00:00:00', '02:00:00:00:00:01:02', '02-00:00:00:00:01', '2:0:0:0:0:1', 'gg:00:00:00:00:01']) {
      expect(codeOf(() => macFromText(bad))).toBe(WireTextErrorCode.BAD_MAC_TEXT);
    }
  });

  test('numbers outside 48 bits and short buffers are programming errors', () => {
    expect(() => writeMac(Buffer.alloc(6), 0, 2 ** 48)).toThrow(RangeError);
    expect(() => writeMac(Buffer.alloc(6), 0, -1)).toThrow(RangeError);
    expect(() => writeMac(Buffer.alloc(5), 0, 1)).toThrow(RangeError);
    expect(() => macToText(1.5)).toThrow(RangeError);
  });
});

describe('IPv4 addresses', () => {
  test('text ↔ number ↔ bytes', () => {
    expect(ipv4FromText('10.0.0.1')).toBe(0x0a000001);
    expect(ipv4FromText('255.255.255.255')).toBe(0xffffffff);
    expect(ipv4FromText('0.0.0.0')).toBe(0);
    expect(ipv4ToText(0xc0a800c7)).toBe('192.168.0.199');
    expect(ipv4ToBytes(0x0a0000fe).toString('hex')).toBe('0a0000fe');
  });

  test('seeded round trips through bytes and text', () => {
    const rng = new SeededRandom('wire-ipv4');
    const buf = Buffer.alloc(4);
    for (let i = 0; i < 200; i++) {
      const ip = rng.nextUint32();
      writeIpv4Address(buf, 0, ip);
      expect(readIpv4Address(buf, 0)).toBe(ip);
      expect(ipv4FromText(ipv4ToText(ip))).toBe(ip);
    }
  });

  test('bad text is a WireFormatError with a stable code', () => {
    for (const bad of ['', '10.0.0', '10.0.0.256', '10.0.0.01', '10.0.0.1.2', '10.0.0.-1', 'a.b.c.d', '1e1.0.0.1']) {
      expect(codeOf(() => ipv4FromText(bad))).toBe(WireTextErrorCode.BAD_IPV4_TEXT);
    }
  });

  test('numbers outside 32 bits and short buffers are programming errors', () => {
    expect(() => writeIpv4Address(Buffer.alloc(4), 0, 2 ** 32)).toThrow(RangeError);
    expect(() => writeIpv4Address(Buffer.alloc(4), 1, 1)).toThrow(RangeError);
    expect(() => ipv4ToText(-1)).toThrow(RangeError);
  });
});
