import { describe, expect, it } from 'vitest';
import { P4inaError } from '../../../src/errors/p4ina-error.js';
import { parsePortSpec, parsePortSpecs } from '../../../src/switch/ports/port-spec.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (P4inaError.is(err)) return err.code;
    throw err;
  }
  return undefined;
}

describe('parsing -i PORT@SPEC', () => {
  it('reads UDP wires, IPv4 and bracketed IPv6, with canonical addresses', () => {
    expect(parsePortSpec('1@udp:127.0.0.1:40001:127.0.0.1:40002')).toEqual({
      kind: 'udp',
      number: 1,
      text: '1@udp:127.0.0.1:40001:127.0.0.1:40002',
      localAddress: '127.0.0.1',
      localPort: 40001,
      peerAddress: '127.0.0.1',
      peerPort: 40002,
    });
    expect(parsePortSpec('0@udp:[0:0:0:0:0:0:0:1]:0:[::1]:9')).toMatchObject({ number: 0, localAddress: '::1', localPort: 0, peerAddress: '::1', peerPort: 9 });
    expect(parsePortSpec('510@udp:127.0.0.5:1:127.0.0.6:2')).toMatchObject({ number: 510, localAddress: '127.0.0.5' });
  });

  it('reads in-memory wires and interfaces', () => {
    expect(parsePortSpec('3@mem:h1-left')).toEqual({ kind: 'memory', number: 3, text: '3@mem:h1-left', wire: 'h1-left' });
    expect(parsePortSpec('2@s1-eth2')).toEqual({ kind: 'iface', number: 2, text: '2@s1-eth2', iface: 's1-eth2' });
  });

  it('refuses non-loopback UDP addresses unless allowed', () => {
    const text = '1@udp:10.0.0.1:4000:10.0.0.2:4000';
    expect(() => parsePortSpec(text)).toThrow(/not a loopback address/);
    expect(codeOf(() => parsePortSpec(text))).toBe('PORT_NOT_LOOPBACK');
    expect(codeOf(() => parsePortSpec('1@udp:127.0.0.1:4000:192.168.1.1:4000'))).toBe('PORT_NOT_LOOPBACK');
    expect(parsePortSpec(text, { allowNonLoopback: true })).toMatchObject({ localAddress: '10.0.0.1', peerAddress: '10.0.0.2' });
  });

  it.each([
    ['udp:127.0.0.1:1:127.0.0.1:2', 'PORT_SPEC_SYNTAX'], // no number
    ['x@s1-eth1', 'PORT_SPEC_SYNTAX'],
    ['-1@s1-eth1', 'PORT_SPEC_SYNTAX'],
    ['511@s1-eth1', 'PORT_DROP_PORT'],
    ['512@s1-eth1', 'PORT_NUMBER_RANGE'],
    ['1@udp:127.0.0.1:1:127.0.0.1', 'PORT_SPEC_SYNTAX'],
    ['1@udp:localhost:1:127.0.0.1:2', 'PORT_BAD_ADDRESS'],
    ['1@udp:127.000.0.1:1:127.0.0.1:2', 'PORT_BAD_ADDRESS'], // leading zeros read as octal by some tools: refused
    ['1@udp:127.0.0.1:1:[::1]:2', 'PORT_BAD_ADDRESS'], // mixed families
    ['1@udp:127.0.0.1:70000:127.0.0.1:2', 'PORT_BAD_UDP_PORT'],
    ['1@udp:127.0.0.1:1:127.0.0.1:0', 'PORT_BAD_UDP_PORT'], // the peer needs a real port
    ['1@udp:127.0.0.1:x:127.0.0.1:2', 'PORT_BAD_UDP_PORT'],
    ['1@tcp:127.0.0.1:1', 'PORT_SPEC_SYNTAX'],
    ['1@mem:', 'PORT_SPEC_SYNTAX'],
    ['1@mem:a/b', 'PORT_SPEC_SYNTAX'],
    ['1@', 'PORT_SPEC_SYNTAX'],
    ['1@a-very-long-interface-name', 'PORT_SPEC_SYNTAX'],
  ])('refuses %s with %s', (text, code) => {
    expect(codeOf(() => parsePortSpec(text))).toBe(code);
  });

  it('says what to fix', () => {
    expect(() => parsePortSpec('511@veth0')).toThrow(/drop port.*0\.\.510/);
    expect(() => parsePortSpec('1@udp:127.0.0.1:1')).toThrow(/PORT@udp:LOCALADDR:LOCALPORT:PEERADDR:PEERPORT/);
  });

  it('refuses a port number given twice', () => {
    expect(parsePortSpecs(['1@mem:a', '2@mem:b']).map((s) => s.number)).toEqual([1, 2]);
    expect(codeOf(() => parsePortSpecs(['1@mem:a', '1@s1-eth1']))).toBe('PORT_DUPLICATE');
    expect(() => parsePortSpecs(['1@mem:a', '1@s1-eth1'])).toThrow(/port 1 is given twice/);
  });
});
