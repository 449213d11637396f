// atp.p4's headers and parser agree with docs/wire.md §5 and src/wire: the
// ATP header field by field (each field read at its P4 bit offset out of a
// header src/wire encoded), the ATP port block, one extract per value for
// any ATP_VALUES and only at the matching UDP length, the deparser's order.
import { describe, expect, it } from 'vitest';
import { ATP_HEADER_LENGTH, ATP_PORTS, encodeAtpHeader, inaProtocolForPort } from '../../../src/wire/index.js';
import { ATP_P4, compiled } from '../helpers.js';
import { readBits } from '../support/bits.js';
import { parserState, text } from '../support/ir-parser.js';

const { ir } = compiled(ATP_P4);

describe('the ATP header', () => {
  const header = ir.headers.find((h) => h.name === 'atp_h')!;

  it('has the fields of docs/wire.md §5, in order, in 16 bytes', () => {
    expect(header.bytes).toBe(ATP_HEADER_LENGTH);
    expect(header.fields.map((f) => [f.name, f.width])).toEqual([
      ['bitmap0', 32], ['bitmap1', 32], ['fan_in_degree0', 5], ['fan_in_degree1', 5], ['overflow', 1], ['resend', 1], ['collision', 1],
      ['ecn', 1], ['edge_switch_identifier', 1], ['is_ack', 1], ['aggregator_index', 16], ['job_id', 16], ['sequence_number', 16],
    ]);
  });

  it.each([
    { bitmap0: 0x80000001, bitmap1: 0x00010000, fanInDegree0: 31, fanInDegree1: 1, overflow: true, resend: false, collision: true, ecn: false, edgeSwitchIdentifier: 1 as const, isAck: false, aggregatorIndex: 0xfffe, jobId: 0x1234, sequenceNumber: 0xffff },
    { bitmap0: 0, bitmap1: 0xffffffff, fanInDegree0: 0, fanInDegree1: 30, overflow: false, resend: true, collision: false, ecn: true, edgeSwitchIdentifier: 0 as const, isAck: true, aggregatorIndex: 1, jobId: 1, sequenceNumber: 0 },
  ])('each field, read at its P4 offset from a header src/wire encoded, is what was encoded (%#)', (fields) => {
    const buf = Buffer.alloc(ATP_HEADER_LENGTH);
    encodeAtpHeader(buf, 0, { ...fields, elementCount: 0 });
    const read = (name: string): number => {
      const f = header.fields.find((x) => x.name === name)!;
      return Number(readBits(buf, f.bitOffset, f.width));
    };
    expect({
      bitmap0: read('bitmap0'), bitmap1: read('bitmap1'), fanInDegree0: read('fan_in_degree0'), fanInDegree1: read('fan_in_degree1'),
      overflow: read('overflow') === 1, resend: read('resend') === 1, collision: read('collision') === 1, ecn: read('ecn') === 1,
      edgeSwitchIdentifier: read('edge_switch_identifier'), isAck: read('is_ack') === 1, aggregatorIndex: read('aggregator_index'),
      jobId: read('job_id'), sequenceNumber: read('sequence_number'),
    }).toEqual(fields);
  });

  it('carries signed 32-bit values', () => {
    expect(ir.headers.find((h) => h.name === 'atp_value_h')!.fields.map((f) => [f.name, f.width, f.signed])).toEqual([['value', 32, true]]);
  });
});

describe('the parser', () => {
  it('recognises ATP by exactly the destination ports src/wire assigns to it', () => {
    const select = parserState(ir, 'parse_udp').transition;
    if (select?.kind !== 'select') throw new Error('parse_udp does not select');
    const [toAtp, otherwise] = select.cases;
    expect(toAtp!.state).toBe('parse_atp');
    expect(otherwise!.keysets).toEqual([{ kind: 'default' }]);
    const keyset = toAtp!.keysets[0]!;
    if (keyset.kind !== 'mask') throw new Error(`expected a mask, got ${keyset.kind}`);
    const matches = (port: number): boolean => (port & Number(keyset.mask)) === (Number(keyset.value) & Number(keyset.mask));
    const disagreeing = Array.from({ length: 0x10000 }, (_, port) => port).filter((port) => matches(port) !== (inaProtocolForPort(port) === 'atp'));
    expect(disagreeing).toEqual([]);
    expect([ATP_PORTS.first, ATP_PORTS.last].every(matches)).toBe(true);
  });

  it.each([[[] as string[], 64], [['ATP_VALUES=8'], 8], [['ATP_VALUES=256'], 256]])('with %j extracts %i values, in order, only when the UDP length says so many', (defines, n) => {
    const { ir: program } = compiled(ATP_P4, defines);
    const stack = program.structs.find((s) => s.name === 'headers_t')!.fields.find((f) => f.name === 'atp_values')!;
    expect(stack.type).toEqual({ kind: 'stack', element: 'atp_value_h', size: n });
    const select = parserState(program, 'parse_atp').transition;
    if (select?.kind !== 'select') throw new Error('parse_atp does not select');
    expect(select.keys.map(text)).toEqual(['slot0.udp.len']);
    expect(select.cases.map((c) => [c.keysets, c.state])).toEqual([
      [[{ kind: 'value', value: String(8 + 16 + 4 * n) }], 'parse_atp_values'],
      [[{ kind: 'default' }], 'accept'],
    ]);
    const extracts = parserState(program, 'parse_atp_values').body.map((s) => (s.kind === 'call' ? text(s.call.args[0]!.value) : s.kind));
    expect(extracts).toEqual(Array.from({ length: n }, (_, i) => `slot0.atp_values[${i}]`));
    expect(program.externs.find((e) => e.name === 'ingress.atp.values')!.size).toBe(4096 * n);
  });

  it('emits the headers in wire order', () => {
    expect(ir.deparserEmitOrder?.map(text)).toEqual(['ethernet', 'arp', 'ipv4', 'udp', 'atp', 'atp_values'].map((h) => `slot0.${h}`));
  });

  it('wires V1Switch to its parser and deparser and the shared checksums', () => {
    expect(ir.pipeline).toEqual({
      parser: 'AtpParser', verifyChecksum: 'VerifyIpv4Checksum', ingress: 'ingress', egress: 'egress',
      computeChecksum: 'ComputeIpv4Checksum', deparser: 'AtpDeparser',
    });
  });
});
