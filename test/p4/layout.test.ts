// The programs' headers and parser agree with docs/wire.md and src/wire:
// header layouts bit for bit, the SwitchML port block, one extract per
// value for any SWITCHML_ELEMENTS, and the deparser's order.
import { describe, expect, it } from 'vitest';
import {
  ARP_PACKET_LENGTH, inaProtocolForPort, SWITCHML_DEFAULT_ELEMENTS, SWITCHML_HEADER_LENGTH, SWITCHML_PORTS,
} from '../../src/wire/index.js';
import { compiled, FORWARD_P4, SWITCHML_P4 } from './helpers.js';
import { parserState, text } from './support/ir-parser.js';

type Field = [name: string, width: number, signed?: boolean];

/** docs/wire.md §2 and §4, field by field. */
const LAYOUTS: Record<string, { bytes: number; fields: Field[] }> = {
  ethernet_h: { bytes: 14, fields: [['dst_addr', 48], ['src_addr', 48], ['ether_type', 16]] },
  arp_h: {
    bytes: ARP_PACKET_LENGTH,
    fields: [['htype', 16], ['ptype', 16], ['hlen', 8], ['plen', 8], ['oper', 16], ['sender_hw_addr', 48], ['sender_proto_addr', 32], ['target_hw_addr', 48], ['target_proto_addr', 32]],
  },
  ipv4_h: {
    bytes: 20,
    fields: [['version', 4], ['ihl', 4], ['dscp', 6], ['ecn', 2], ['total_len', 16], ['identification', 16], ['flags', 3], ['frag_offset', 13], ['ttl', 8], ['protocol', 8], ['hdr_checksum', 16], ['src_addr', 32], ['dst_addr', 32]],
  },
  udp_h: { bytes: 8, fields: [['src_port', 16], ['dst_port', 16], ['len', 16], ['checksum', 16]] },
  switchml_h: {
    bytes: SWITCHML_HEADER_LENGTH,
    fields: [['version', 4], ['msg_type', 4], ['worker_id', 8], ['job_id', 16], ['tsi', 32], ['pool_set', 1], ['pool_slot', 15], ['elem_count', 16], ['exponent', 8, true], ['epoch', 8]],
  },
  switchml_value_h: { bytes: 4, fields: [['value', 32, true]] },
};

describe.each([FORWARD_P4, SWITCHML_P4])('%s', (file) => {
  const { ir } = compiled(file);

  it.each(Object.entries(LAYOUTS))('header %s is laid out as docs/wire.md says', (name, layout) => {
    const header = ir.headers.find((h) => h.name === name)!;
    expect(header.bytes).toBe(layout.bytes);
    expect(header.fields.map((f) => [f.name, f.width, f.signed])).toEqual(layout.fields.map(([n, w, s]) => [n, w, s ?? false]));
    let offset = 0;
    for (const field of header.fields) {
      expect(field.bitOffset, `${name}.${field.name}`).toBe(offset);
      offset += field.width;
    }
  });

  it('recognises SwitchML by exactly the destination ports src/wire assigns to it', () => {
    const select = parserState(ir, 'parse_udp').transition;
    if (select?.kind !== 'select') throw new Error('parse_udp does not select');
    const [toSwitchMl, otherwise] = select.cases;
    expect(toSwitchMl!.state).toBe('parse_switchml');
    expect(otherwise!.keysets).toEqual([{ kind: 'default' }]);
    const keyset = toSwitchMl!.keysets[0]!;
    if (keyset.kind !== 'mask') throw new Error(`expected a mask, got ${keyset.kind}`);
    const matches = (port: number): boolean => (port & Number(keyset.mask)) === (Number(keyset.value) & Number(keyset.mask));
    const disagreeing = Array.from({ length: 0x10000 }, (_, port) => port).filter((port) => matches(port) !== (inaProtocolForPort(port) === 'switchml'));
    expect(disagreeing).toEqual([]);
    expect([SWITCHML_PORTS.first, SWITCHML_PORTS.last].every(matches)).toBe(true);
  });

  it('emits the headers in wire order', () => {
    expect(ir.deparserEmitOrder?.map(text)).toEqual(['ethernet', 'arp', 'ipv4', 'udp', 'switchml', 'switchml_values'].map((h) => `slot0.${h}`));
  });

  it('wires V1Switch to the shared blocks', () => {
    expect(ir.pipeline).toEqual({
      parser: 'InaParser', verifyChecksum: 'VerifyIpv4Checksum', ingress: 'ingress', egress: 'egress',
      computeChecksum: 'ComputeIpv4Checksum', deparser: 'InaDeparser',
    });
  });
});

describe('SWITCHML_ELEMENTS', () => {
  it.each([[[] as string[], SWITCHML_DEFAULT_ELEMENTS], [['SWITCHML_ELEMENTS=8'], 8], [['SWITCHML_ELEMENTS=32'], 32], [['SWITCHML_ELEMENTS=256'], 256]])(
    'with %j the packet holds and the parser extracts %i values, in order',
    (defines, n) => {
      const { ir } = compiled(SWITCHML_P4, defines);
      const stack = ir.structs.find((s) => s.name === 'headers_t')!.fields.find((f) => f.name === 'switchml_values')!;
      expect(stack.type).toEqual({ kind: 'stack', element: 'switchml_value_h', size: n });
      const extracts = parserState(ir, 'parse_switchml_values').body.map((s) => (s.kind === 'call' ? text(s.call.args[0]!.value) : s.kind));
      expect(extracts).toEqual(Array.from({ length: n }, (_, i) => `slot0.switchml_values[${i}]`));
      const values = ir.externs.find((e) => e.name === 'ingress.switchml.values')!;
      expect(values.size).toBe(2 * 4096 * n);
    },
  );

  it('extracts the values only from version 1 with the compiled element count', () => {
    const { ir } = compiled(SWITCHML_P4, ['SWITCHML_ELEMENTS=32']);
    const select = parserState(ir, 'parse_switchml').transition;
    if (select?.kind !== 'select') throw new Error('parse_switchml does not select');
    expect(select.keys.map(text)).toEqual(['slot0.switchml.version', 'slot0.switchml.elem_count']);
    expect(select.cases.map((c) => [c.keysets, c.state])).toEqual([
      [[{ kind: 'value', value: '1' }, { kind: 'value', value: '32' }], 'parse_switchml_values'],
      [[{ kind: 'default' }], 'accept'],
    ]);
  });
});
