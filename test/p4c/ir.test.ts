// The pipeline IR: a golden per corpus program (test/golden/ir, regenerate
// with UPDATE_GOLDEN=1), JSON round trips, and the facts the emulator
// relies on (slots, layouts, ids shared with P4Info, table defaults).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics, parseIr, serializeIr, type IrExpression, type IrProgram } from '../../src/p4c/index.js';
import { CORPUS_DIR, corpusPrograms, expectGolden, TEST_DIR } from './helpers.js';

const FIXTURE_DIR = path.join(TEST_DIR, '..', 'fixtures', 'p4info');

function irOf(file: string): IrProgram {
  const result = compileProgram(file);
  if (!result.ir) throw new Error(formatDiagnostics(result.diagnostics));
  return result.ir;
}

describe('IR goldens of the corpus', () => {
  it.each(corpusPrograms())('%s', (file) => {
    expectGolden(`ir/${file.replace(/\.p4$/, '.ir.json')}`, serializeIr(irOf(path.join(CORPUS_DIR, file))));
  });
});

describe('IR documents', () => {
  it.each(corpusPrograms())('%s round-trips through JSON', (file) => {
    const ir = irOf(path.join(CORPUS_DIR, file));
    const text = serializeIr(ir);
    expect(parseIr(text)).toEqual(ir);
    expect(serializeIr(parseIr(text))).toBe(text);
  });

  it('rejects documents of another format or version', () => {
    expect(() => parseIr('[]')).toThrow(TypeError);
    expect(() => parseIr('{"format":"bmv2"}')).toThrow(/not a p4ina IR document/);
    expect(() => parseIr('{"format":"p4ina-ir","version":2}')).toThrow(/version 2/);
  });

  const ir = irOf(path.join(FIXTURE_DIR, 'forwarding.p4'));

  it('is versioned and wires the six V1Switch blocks', () => {
    expect(ir.format).toBe('p4ina-ir');
    expect(ir.version).toBe(1);
    expect(ir.pipeline).toEqual({
      parser: 'MyParser', verifyChecksum: 'MyVerifyChecksum', ingress: 'MyIngress',
      egress: 'MyEgress', computeChecksum: 'MyComputeChecksum', deparser: 'MyDeparser',
    });
    expect(ir.blocks.map((b) => b.name).sort()).toEqual(['MyComputeChecksum', 'MyDeparser', 'MyEgress', 'MyIngress', 'MyParser', 'MyVerifyChecksum']);
  });

  it('binds every block parameter to the shared architecture slots', () => {
    expect(ir.slots.slice(0, 3).map((s) => [s.role, s.type])).toEqual([
      ['headers', { kind: 'struct', name: 'headers_t' }],
      ['metadata', { kind: 'struct', name: 'metadata_t' }],
      ['standard_metadata', { kind: 'struct', name: 'standard_metadata_t' }],
    ]);
    const ingress = ir.blocks.find((b) => b.name === 'MyIngress')!;
    expect(ingress.params.map((p) => p.slot)).toEqual([0, 1, 2]);
    const deparser = ir.blocks.find((b) => b.name === 'MyDeparser')!;
    expect(deparser.params.map((p) => p.slot)).toEqual([-1, 0]);
  });

  it('lays out headers with bit offsets', () => {
    const ipv4 = ir.headers.find((h) => h.name === 'ipv4_t')!;
    expect(ipv4.width).toBe(160);
    expect(ipv4.bytes).toBe(20);
    expect(ipv4.fields.find((f) => f.name === 'ttl')).toEqual({ name: 'ttl', width: 8, signed: false, varbit: false, bitOffset: 64 });
    expect(ipv4.fields.find((f) => f.name === 'dst_addr')?.bitOffset).toBe(128);
  });

  it('gives tables and actions their P4Info ids, and a table without default NoAction', () => {
    const l2 = ir.tables.find((t) => t.name === 'MyIngress.l2_exact')!;
    expect(l2.id).toBe(35992994);
    expect(l2.size).toBe(1024);
    expect(l2.defaultAction).toEqual({ action: 'NoAction', actionId: 21257015, args: [], boundArgs: [], isConst: false });
    expect(l2.actions.at(-1)).toEqual({ action: 'NoAction', actionId: 21257015, scope: 'default_only', boundArgs: [] });
    expect(l2.keys[0]).toMatchObject({ name: 'hdr.ethernet.dst_addr', matchKind: 'exact', width: 48 });
    const setNhop = ir.actions.find((a) => a.name === 'MyIngress.set_nhop')!;
    expect(setNhop.id).toBe(24952588);
    expect(setNhop.params.map((p) => [p.name, p.width, p.controlPlane])).toEqual([['dmac', 48, true], ['port', 9, true]]);
  });

  it('types every expression: `ttl - 1` is bit<8> arithmetic with a bit<8> constant', () => {
    const setNhop = ir.actions.find((a) => a.name === 'MyIngress.set_nhop')!;
    const ttl = setNhop.body[2]!;
    expect(ttl.kind).toBe('assign');
    const value = (ttl as { value: IrExpression }).value;
    expect(value).toMatchObject({ op: 'binary', operator: '-', type: { kind: 'bits', width: 8, signed: false } });
    expect((value as { right: IrExpression }).right).toEqual({ op: 'const', type: { kind: 'bits', width: 8, signed: false }, value: '1' });
  });

  it('records the deparser emit order and the parser select', () => {
    expect(ir.deparserEmitOrder?.map((e) => (e.op === 'field' ? e.field : '?'))).toEqual(['ethernet', 'ipv4']);
    const start = ir.blocks.find((b) => b.name === 'MyParser')!.states[0]!;
    expect(start.transition).toMatchObject({ kind: 'select', cases: [{ keysets: [{ kind: 'value', value: '2048' }], state: 'parse_ipv4' }, { keysets: [{ kind: 'default' }], state: 'accept' }] });
  });

  it('records @field_list indices on metadata fields', () => {
    const acl = irOf(path.join(CORPUS_DIR, 'acl_clone.p4'));
    const withLists = acl.structs.flatMap((st) => st.fields.filter((f) => f.fieldLists.length > 0).map((f) => [st.name, f.name, f.fieldLists]));
    expect(withLists.map((x) => x[2])).toEqual([[1], [1, 2]]);
  });

  it('keeps the default action arguments and const entries', () => {
    const counter = irOf(path.join(FIXTURE_DIR, 'counter.p4'));
    const classify = counter.tables.find((t) => t.name === 'MyIngress.classify')!;
    expect(classify.defaultAction).toMatchObject({ action: 'MyIngress.set_class', args: ['7'] });
    expect(classify.directCounter).toBe('MyIngress.classify_counter');
    expect(counter.externs.map((e) => [e.name, e.type, e.size, e.args])).toEqual([
      ['MyIngress.port_counter', 'counter', 512, ['512', 'packets_and_bytes']],
      ['MyIngress.classify_counter', 'direct_counter', null, ['packets_and_bytes']],
      ['MyIngress.port_meter', 'meter', 512, ['512', 'bytes']],
    ]);
  });
});
