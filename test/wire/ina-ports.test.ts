import { describe, expect, test } from 'vitest';
import {
  ATP_PORTS,
  inaProtocolForPort,
  MAX_POOL_SLOTS,
  OMNIREDUCE_PORTS,
  packPoolIndex,
  RINA_PORTS,
  setOfPoolIndex,
  slotOfPoolIndex,
  SWITCHML_PORTS,
} from '../../src/wire/index.js';

describe('INA port blocks', () => {
  test('SwitchML keeps its own 0xBEE0–0xBEEF; the blocks do not overlap', () => {
    expect(SWITCHML_PORTS).toEqual({ first: 0xbee0, last: 0xbeef });
    const blocks = [SWITCHML_PORTS, OMNIREDUCE_PORTS, ATP_PORTS, RINA_PORTS].sort((a, b) => a.first - b.first);
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]!.first).toBeGreaterThan(blocks[i - 1]!.last);
  });

  test('a port names its protocol, or none', () => {
    expect(inaProtocolForPort(0xbee0)).toBe('switchml');
    expect(inaProtocolForPort(0xbeef)).toBe('switchml');
    expect(inaProtocolForPort(0xbef0)).toBe('omnireduce');
    expect(inaProtocolForPort(ATP_PORTS.last)).toBe('atp');
    expect(inaProtocolForPort(RINA_PORTS.first)).toBe('rina');
    expect(inaProtocolForPort(53)).toBeUndefined();
    expect(inaProtocolForPort(RINA_PORTS.last + 1)).toBeUndefined();
  });
});

describe('pool index', () => {
  test('the set is the most significant bit', () => {
    expect(packPoolIndex(5, 1)).toBe(0x8005);
    expect(packPoolIndex(MAX_POOL_SLOTS - 1, 0)).toBe(0x7fff);
    expect(slotOfPoolIndex(0x8005)).toBe(5);
    expect(setOfPoolIndex(0x8005)).toBe(1);
    expect(setOfPoolIndex(0x7fff)).toBe(0);
  });

  test('out-of-range slots and sets are programming errors', () => {
    expect(() => packPoolIndex(MAX_POOL_SLOTS, 0)).toThrow(RangeError);
    expect(() => packPoolIndex(0, 2 as 0)).toThrow(RangeError);
  });
});
