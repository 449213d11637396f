import { describe, expect, it } from 'vitest';
import { comparePacket, parseExpectPattern, parseStf } from '../../src/stf/index.js';

describe('parseStf', () => {
  it('reads add with priority, keys, action arguments and a handle; comments and blank lines are skipped', () => {
    const { commands, errors } = parseStf('# c\n\nADD acl 10 hdr.ip.src : 0x0a**** port:1->5 deny(rule:3, why : 0x1) = h1  # tail\n');
    expect(errors).toEqual([]);
    expect(commands).toEqual([
      {
        kind: 'add', line: 3, table: 'acl', priority: 10, handle: 'h1',
        keys: [{ name: 'hdr.ip.src', value: '0x0a****' }, { name: 'port', value: '1->5' }],
        action: { name: 'deny', args: [{ name: 'rule', value: '3' }, { name: 'why', value: '0x1' }] },
      },
    ]);
  });

  it('reads packet and expect data with spaces, wildcards and $', () => {
    const { commands, errors } = parseStf('packet 2 00 11 aa\nexpect 3 00 1* A$\nexpect 4\n');
    expect(errors).toEqual([]);
    expect(commands[0]).toMatchObject({ kind: 'packet', port: 2, data: Buffer.from('0011aa', 'hex') });
    expect(commands[1]).toMatchObject({ kind: 'expect', port: 3, pattern: { nibbles: '001*A', exactLength: true } });
    expect(commands[2]).toMatchObject({ kind: 'expect', port: 4, pattern: undefined });
  });

  it('reads the PRE, register and counter commands', () => {
    const text = [
      'mc_mgrp_create 1', 'mc_node_create 5 1 2 3', 'mc_node_associate 1 0', 'mirroring_add 5 9',
      'register_write r 3 0x2a', 'register_read r 3', 'register_reset r', 'check_register r(3) == 42',
      'counter_read c 1', 'counter_write c 1 2 3', 'counter_reset c', 'check_counter c(1) bytes >= 64', 'check_counter d($h1) packets == 2', 'wait',
    ].join('\n');
    const { commands, errors } = parseStf(text);
    expect(errors).toEqual([]);
    expect(commands.map((c) => c.kind)).toEqual([
      'mc_mgrp_create', 'mc_node_create', 'mc_node_associate', 'mirroring_add', 'register_write', 'register_read', 'register_reset',
      'check_register', 'counter_read', 'counter_write', 'counter_reset', 'check_counter', 'check_counter', 'wait',
    ]);
    expect(commands[1]).toMatchObject({ rid: 5, ports: [1, 2, 3] });
    expect(commands[11]).toMatchObject({ cell: { name: 'c', index: 1 }, field: 'bytes', op: '>=', value: 64n });
    expect(commands[12]).toMatchObject({ cell: { name: 'd', index: { handle: 'h1' } }, field: 'packets' });
  });

  it('reports every malformed line with its number and what to write, and keeps the good ones', () => {
    const { commands, errors } = parseStf(['packet 0 0g', 'packet 0 abc', 'expect 1 00$11', 'add t k:1', 'frobnicate 3', 'packet 600 00', 'meter_set_rates m 1 1:1', 'setdefault t a(x 1)', 'wait'].join('\n'));
    expect(commands.map((c) => c.kind)).toEqual(['wait']);
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [1, 'packet data may hold only hex digits and spaces, not "g"'],
      [2, 'packet data has an odd number of hex digits (3): a byte is two digits'],
      [3, 'expect data: "$" may only end the data'],
      [4, 'add needs an action: add TABLE [PRIORITY] FIELD:VALUE ... ACTION(PARAM:VALUE, ...)'],
      [5, expect.stringContaining('unknown command "frobnicate"; STF commands are add, setdefault')],
      [6, 'port 600 is above 510'],
      [7, expect.stringContaining('meter_set_rates: meters are not configurable')],
      [8, 'argument "x 1" of a must be written PARAM:VALUE, separated by commas'],
    ]);
  });
});

describe('comparePacket', () => {
  const pkt = Buffer.from('0011223344', 'hex');
  it('matches with * nibbles and allows extra bytes unless the pattern ends in $', () => {
    expect(comparePacket(parseExpectPattern('00 1* 22'), pkt)).toBeUndefined();
    expect(comparePacket(parseExpectPattern('001122$'), pkt)).toEqual({ kind: 'too-long', expectedNibbles: 6, receivedNibbles: 10 });
    expect(comparePacket(parseExpectPattern('0011223344$'), pkt)).toBeUndefined();
  });
  it('reports the first differing nibble, and a packet shorter than the pattern', () => {
    expect(comparePacket(parseExpectPattern('0012'), pkt)).toEqual({ kind: 'differs', nibble: 3, expected: '2', received: '1' });
    expect(comparePacket(parseExpectPattern('001122334455'), pkt)).toEqual({ kind: 'too-short', expectedNibbles: 12, receivedNibbles: 10 });
  });
});
