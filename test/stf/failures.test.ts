// What the runner reports when a test does not hold or the STF file is wrong.
import { describe, expect, it } from 'vitest';
import { formatStfReport, stfExitCode } from '../../src/stf/index.js';
import { runText } from './helpers.js';

const PROGRAM = 'test/p4c/corpus/multicast.p4';
const FRAME = '000000000002 000000000001 9000 AABB';
const ROUTE = 'add mac_table dstAddr:0x000000000002 unicast(port:2)';

describe('failing STF tests', () => {
  it('a wrong expectation names its line, the port, expected and received hex; exit 1', () => {
    const result = runText(`${ROUTE}\npacket 1 ${FRAME}\nexpect 2 000000000002 000000000001 9000 AACC`, PROGRAM);
    expect(result.status).toBe('failed');
    expect(stfExitCode(result)).toBe(1);
    expect(result.failures).toEqual([
      {
        line: 3, kind: 'mismatch', port: 2,
        message: 'packet #1 on port 2 (from the packet at line 2) differs at byte 15 (hex digit 30): expected C, got B',
        expected: '0000000000020000000000019000AACC', received: '0000000000020000000000019000AABB',
      },
    ]);
    expect(formatStfReport(result)).toBe(
      'inline.stf:3: FAIL: packet #1 on port 2 (from the packet at line 2) differs at byte 15 (hex digit 30): expected C, got B\n' +
        '    expected: 0000000000020000000000019000AACC\n    received: 0000000000020000000000019000AABB\n' +
        'stf: inline.stf FAILED: 1 failure (1 packet in, 1 out, 1 expected packet, 0 checks)\n',
    );
  });

  it('an unexpected packet fails on the line of the packet that caused it', () => {
    const result = runText(`${ROUTE}\npacket 1 ${FRAME}\npacket 1 ${FRAME}\nexpect 2 ${FRAME}`, PROGRAM);
    expect(result.failures).toMatchObject([{ line: 3, kind: 'unexpected', port: 2, received: '0000000000020000000000019000AABB' }]);
  });

  it('a packet on a port the file never mentions is unexpected too; "expect PORT" without data accepts any', () => {
    expect(runText(`${ROUTE}\npacket 1 ${FRAME}`, PROGRAM).failures).toMatchObject([{ line: 2, kind: 'unexpected', port: 2, message: expect.stringContaining('no packet was expected there') }]);
    expect(runText(`${ROUTE}\npacket 1 ${FRAME}\nexpect 2`, PROGRAM).status).toBe('passed');
  });

  it('a missing packet fails on its expect line', () => {
    const result = runText(`packet 1 ${FRAME}\nexpect 5 ${FRAME}`, 'test/p4c/corpus/basic_forward.p4');
    expect(result.failures).toEqual([{ line: 2, kind: 'missing', port: 5, message: 'expected packet #1 on port 5, but the switch sent only 0 there', expected: '0000000000020000000000019000AABB' }]);
  });

  it('a shorter packet, and a longer one against "$", fail', () => {
    expect(runText(`${ROUTE}\npacket 1 ${FRAME}\nexpect 2 ${FRAME} CC`, PROGRAM).failures[0]?.message).toMatch(/packet too short: 16 bytes, expected at least 17/);
    expect(runText(`${ROUTE}\npacket 1 ${FRAME}\nexpect 2 000000000002 000000000001 9000 AA $`, PROGRAM).failures[0]?.message).toMatch(/packet too long: 16 bytes, expected exactly 15/);
  });

  it('the switch refusing a write fails the line, with the P4Runtime status (a duplicate entry)', () => {
    const result = runText(`${ROUTE}\n${ROUTE}`, PROGRAM);
    expect(result.status).toBe('failed');
    expect(result.failures).toMatchObject([{ line: 2, kind: 'refused', message: expect.stringMatching(/^the switch refused the entry for McIngress.mac_table: ALREADY_EXISTS: /) }]);
  });

  it('a failed check names the value it found', () => {
    const result = runText('register_write flow_packets 3 5\ncheck_register flow_packets(3) == 6', 'test/p4c/corpus/registers_counters.p4');
    expect(result.failures).toEqual([{ line: 2, kind: 'check', message: 'register StatsIngress.flow_packets[3] is 5 (0x5), expected == 6 (0x6)' }]);
  });
});

describe('errors in the STF file: file:line and what to fix, nothing run, exit 2', () => {
  it('unknown table, action, key field, parameter, a missing parameter and a malformed line are all reported', () => {
    const text = [
      'add no_such_table k:1 a()',
      'add mac_table dstAddr:1 teleport(port:1)',
      'add mac_table ethertype:1 unicast(port:1)',
      'add mac_table dstAddr:1 unicast(porrt:1)',
      'add mac_table dstAddr:1 unicast()',
      'packet 1 0x00',
      'add mac_table dstAddr:0x1000000000000 unicast(port:1)',
    ].join('\n');
    const result = runText(text, PROGRAM);
    expect(result.status).toBe('error');
    expect(stfExitCode(result)).toBe(2);
    expect(result.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '1: no table "no_such_table"; the program has: McIngress.mac_table',
      '2: no action "teleport" in table McIngress.mac_table; the program has: McIngress.unicast, McIngress.flood, McIngress.drop',
      '3: table McIngress.mac_table has no key field "ethertype"; its key fields are: hdr.ethernet.dstAddr',
      '4: action McIngress.unicast has no parameter "porrt"; its parameters are: port',
      '5: McIngress.unicast needs parameter port: write McIngress.unicast(port:VALUE)',
      '6: packet data may hold only hex digits and spaces, not "x"',
      expect.stringMatching(/^7: .*needs 49 bits but the field has 48/),
    ]);
    const report = formatStfReport(result);
    expect(report).toContain('inline.stf:2: error: no action "teleport"');
    expect(report).not.toMatch(/\bat .*\.ts:\d+/);
    expect(report.trimEnd().split('\n').at(-1)).toBe('stf: inline.stf: not run (7 errors)');
  });

  it('a table with ternary keys needs a priority', () => {
    const result = runText('add classifier dstAddr:0x01 value:* kind:* drop()', 'test/stf/programs/classifier.p4');
    expect(result.errors[0]?.message).toMatch(/^table ClassIngress.classifier has ternary, range or optional fields: give a priority after the table name/);
  });

  it('a program that does not compile, and a missing file, are reported without running', () => {
    const bad = runText('wait', 'test/p4c/corpus/basic_forward.p4', { programText: 'control c() { apply { x = 1; } }' });
    expect(bad.status).toBe('error');
    expect(bad.compileDiagnostics).toMatch(/error/);
    const missing = runText('', 'test/p4c/corpus/basic_forward.p4', { stfText: undefined, stf: '/nonexistent/t.stf' });
    expect(missing.errors).toEqual([{ line: 0, code: 'STF_INPUT', message: 'cannot read the STF file /nonexistent/t.stf: no such file' }]);
  });
});
