// p4c's P4Info naming and id rules on small programs: @name (local and
// ".global"), @id, aliases when two controls share a local name, const
// tables, action-profile wiring and value sets. Ids are computed with
// src/p4info/ids.ts, never typed in.
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics, memoryFileSystem, nodeFileSystem } from '../../src/p4c/index.js';
import { idFor, IdPrefix } from '../../src/p4info/index.js';
import type * as p4i from '../../src/proto/p4i.js';
import { V1MODEL } from './helpers.js';

const SHELL = (ingress: string, egress = '', parserLocals = '', parserStart = 'transition accept;'): string => `${V1MODEL}
header h_t { bit<8> a; bit<16> b; }
struct hs_t { h_t h; }
struct m_t { bit<8> x; }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
${parserLocals}
    state start { ${parserStart} }
    state next { transition accept; }
}
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
${ingress}
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
${egress || '    apply { }'}
}
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
`;

function p4info(source: string): p4i.P4Info {
  const result = compileProgram('rules.p4', { text: source, fileSystem: memoryFileSystem({ 'rules.p4': source }, nodeFileSystem) });
  if (!result.p4info) throw new Error(formatDiagnostics(result.diagnostics));
  return result.p4info;
}

describe('P4Info naming rules', () => {
  it('honours @name, @name(".global") and @id', () => {
    const info = p4info(SHELL(`
    @name("renamed") action a() { }
    @name(".global_b") action b() { }
    @id(0x01000042) action c() { }
    @name("tbl") table t { key = { m.x: exact @name("x_key"); } actions = { a; b; c; } }
    apply { t.apply(); }`));
    expect(info.actions!.map((a) => [a.preamble!.name, a.preamble!.id])).toEqual([
      ['NoAction', idFor(IdPrefix.ACTION, 'NoAction')],
      ['I.renamed', idFor(IdPrefix.ACTION, 'I.renamed')],
      ['global_b', idFor(IdPrefix.ACTION, 'global_b')],
      ['I.c', 0x01000042],
    ]);
    expect(info.tables![0]!.preamble!.name).toBe('I.tbl');
    expect(info.tables![0]!.match_fields![0]!.name).toBe('x_key');
  });

  it('qualifies aliases only as far as needed to be unique', () => {
    const info = p4info(SHELL(
      '    action drop() { mark_to_drop(sm); }\n    table t { actions = { drop; } }\n    apply { t.apply(); }',
      '    action drop() { mark_to_drop(sm); }\n    action only_here() { }\n    table u { actions = { drop; only_here; } }\n    apply { u.apply(); }',
    ));
    const aliases = Object.fromEntries(info.actions!.map((a) => [a.preamble!.name, a.preamble!.alias]));
    expect(aliases).toEqual({ 'NoAction': 'NoAction', 'I.drop': 'I.drop', 'E.drop': 'E.drop', 'E.only_here': 'only_here' });
  });

  it('marks const tables and their initial entries, and defaults the size to 1024', () => {
    const info = p4info(SHELL(`
    action set(bit<8> v) { m.x = v; }
    table t { key = { hdr.h.b: exact; } actions = { set; } const entries = { 1: set(2); } default_action = set(3); }
    apply { t.apply(); }`));
    const table = info.tables![0]!;
    expect(table.is_const_table).toBe(true);
    expect(table.has_initial_entries).toBe(true);
    expect(table.size).toBe('1024');
    // p4c 1.2.4.8 writes no initial_default_action; a non-const default leaves no trace in P4Info.
    expect(table.initial_default_action).toBeUndefined();
    expect(table.const_default_action_id).toBeUndefined();
  });

  it('wires an action selector to its table and drops selector keys from the match fields', () => {
    const info = p4info(SHELL(`
    action_selector(HashAlgorithm.crc16, 32w64, 32w14) sel;
    action fwd(bit<9> p) { sm.egress_spec = p; }
    table t { key = { m.x: exact; hdr.h.b: selector; } actions = { fwd; } implementation = sel; }
    apply { t.apply(); }`));
    const profile = info.action_profiles![0]!;
    expect(profile).toMatchObject({ with_selector: true, size: '64', table_ids: [info.tables![0]!.preamble!.id] });
    expect(info.tables![0]!.implementation_id).toBe(profile.preamble!.id);
    expect(info.tables![0]!.match_fields!.map((f) => f.name)).toEqual(['m.x']);
  });

  it('lists parser value sets', () => {
    const info = p4info(SHELL('    apply { }', '', '    value_set<bit<16>>(8) vs;', 'transition select(hdr.h.b) { vs: next; default: accept; }'));
    expect(info.value_sets).toEqual([{
      preamble: { id: idFor(IdPrefix.VALUE_SET, 'P.vs'), name: 'P.vs', alias: 'vs' },
      match: [{ id: 1, bitwidth: 16, match_type: 'EXACT' }],
      size: 8,
    }]);
  });

  it('names `type` types in type_name and describes them in type_info.new_types', () => {
    const source = SHELL(`
    action fwd(port_t port) { sm.egress_spec = (bit<9>)port; }
    table t { key = { m.x: exact; hdr.h.b: exact; } actions = { fwd; } }
    apply { t.apply(); }`).replace('struct m_t { bit<8> x; }', '@p4runtime_translation("p4ina.org/ids", 32) type bit<8> id_t;\ntype bit<9> port_t;\nstruct m_t { id_t x; }');
    const info = p4info(source);
    expect(info.tables![0]!.match_fields![0]).toEqual({ id: 1, name: 'm.x', bitwidth: 32, match_type: 'EXACT', type_name: { name: 'id_t' } });
    expect(info.actions!.find((a) => a.preamble!.name === 'I.fwd')!.params).toEqual([{ id: 1, name: 'port', bitwidth: 9, type_name: { name: 'port_t' } }]);
    expect(info.type_info!.new_types).toEqual({
      id_t: { translated_type: { uri: 'p4ina.org/ids', sdn_bitwidth: 32 } },
      port_t: { original_type: { bitstring: { bit: { bitwidth: 9 } } } },
    });
  });

  it('places named V1Switch arguments by parameter name', () => {
    const source = SHELL('    apply { }').replace('V1Switch(P(), V(), I(), E(), V(), D()) main;', 'V1Switch(dep = D(), ig = I(), p = P(), eg = E(), ck = V(), vr = V()) main;');
    const result = compileProgram('named.p4', { text: source, fileSystem: memoryFileSystem({ 'named.p4': source }, nodeFileSystem) });
    expect(formatDiagnostics(result.diagnostics)).toBe('');
    expect(result.ir!.pipeline).toEqual({ parser: 'P', verifyChecksum: 'V', ingress: 'I', egress: 'E', computeChecksum: 'V', deparser: 'D' });
  });

  it('leaves unused actions and tables out, as p4c removes unused declarations', () => {
    const info = p4info(SHELL('    action unused() { }\n    table idle { actions = { unused; } }\n    apply { }'));
    expect(info.tables ?? []).toEqual([]);
    expect(info.actions ?? []).toEqual([]);
  });
});
