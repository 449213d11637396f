// Programs that parse but are wrong: unknown names, width mismatches, wrong
// directions, bad table properties, duplicate names and unsupported
// constructs. Each reports the expected code at the expected line:column.
import { describe, expect, it } from 'vitest';
import { memoryFileSystem, nodeFileSystem, runFrontEnd } from '../../src/p4c/index.js';
import { codesAt, V1MODEL } from './helpers.js';

/** A complete v1model program around an ingress body (line 1 of `locals` is line 8 of the file). */
const PROGRAM = (locals: string, apply = '', topLevel = ''): string =>
  `${V1MODEL}header h_t { bit<8> a; bit<16> b; }
struct hs_t { h_t h; }
struct m_t { bit<8> x; bool flag; }
${topLevel}parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) { state start { pk.extract(hdr.h); transition accept; } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
${locals}
    apply {
${apply}
    }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
`;

/** [what is wrong, program, the one diagnostic expected as P4Cxxxx@line:col] */
const BROKEN: readonly (readonly [string, string, string])[] = [
  ['an unknown variable', PROGRAM('', '        m.x = y;'), 'P4C2001@10:15'],
  ['an unknown type', PROGRAM('    foo_t v;'), 'P4C2003@8:5'],
  ['an unknown field', PROGRAM('', '        m.z = 1;'), 'P4C2004@10:11'],
  ['an unknown action in a table', PROGRAM('    table t { key = { m.x: exact; } actions = { nope; } }', '        t.apply();'), 'P4C2001@8:49'],
  ['an unknown match kind', PROGRAM('    action a() { }\n    table t { key = { m.x: fuzzy; } actions = { a; } }', '        t.apply();'), 'P4C2007@9:28'],
  ['an unknown parser state', PROGRAM('').replace('transition accept;', 'transition parse_x;'), 'P4C2006@6:127'],
  ['a duplicate action', PROGRAM('    action a() { }\n    action a() { }'), 'P4C2002@9:12'],
  ['a duplicate header type', PROGRAM('', '', 'header h_t { bit<8> c; }\n'), 'P4C2002@6:8'],
  ['a width mismatch in an assignment', PROGRAM('', '        m.x = hdr.h.b;'), 'P4C3001@10:15'],
  ['a width mismatch between operands', PROGRAM('', '        m.x = m.x + hdr.h.b;'), 'P4C3002@10:15'],
  ['a number where a bool is needed', PROGRAM('', '        if (m.x) { }'), 'P4C3004@10:13'],
  ['a slice out of range', PROGRAM('', '        m.x = hdr.h.b[16:9];'), 'P4C3003@10:15'],
  ['an in parameter passed as out', PROGRAM('    action a(in bit<8> v) { hdr.h.a = v; }', '        a(8w1);\n        hash(8w1, HashAlgorithm.crc16, 8w0, { m.x }, 8w4);'), 'P4C3005@11:14'],
  ['an assignment to an in parameter', PROGRAM('', '', '').replace('control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }', 'control D(packet_out pk, in hs_t hdr) { apply { hdr.h.a = 1; pk.emit(hdr.h); } }'), 'P4C3012@15:49'],
  ['too many arguments', PROGRAM('', '        mark_to_drop(sm, sm);'), 'P4C3006@10:9'],
  ['a bool cast to bit<8>', PROGRAM('', '        m.x = (bit<8>)m.flag;\n        m.flag = (bool)m.x;'), 'P4C3010@11:18'],
  ['a non-constant width', PROGRAM('    bit<(m.x)> w;'), 'P4C3007@8:5'],
  ['concatenating a bool', PROGRAM('', '        hdr.h.b = m.x ++ m.flag;'), 'P4C3008@10:19'],
  ['default_action not in actions', PROGRAM('    action a() { }\n    action b() { }\n    table t { key = { m.x: exact; } actions = { a; } default_action = b(); }', '        t.apply();'), 'P4C4001@10:71'],
  ['a negative table size', PROGRAM('    action a() { }\n    table t { key = { m.x: exact; } actions = { a; } size = -1; }', '        t.apply();'), 'P4C4002@9:61'],
  ['an unknown table property', PROGRAM('    action a() { }\n    table t { key = { m.x: exact; } actions = { a; } colour = 1; }', '        t.apply();'), 'P4C4003@9:54'],
  ['a repeated table property', PROGRAM('    action a() { }\n    table t { actions = { a; } size = 4; size = 8; }', '        t.apply();'), 'P4C4004@9:42'],
  ['counters naming a register', PROGRAM('    register<bit<8>>(4) r;\n    action a() { }\n    table t { actions = { a; } counters = r; }', '        t.apply();'), 'P4C4005@10:43'],
  ['an entry with too few keys', PROGRAM('    action a() { }\n    table t { key = { m.x: exact; hdr.h.b: exact; } actions = { a; } const entries = { 1: a(); } }', '        t.apply();'), 'P4C4006@9:88'],
  ['a default action missing its argument', PROGRAM('    action a(bit<8> v) { m.x = v; }\n    table t { actions = { a; } default_action = a; }', '        t.apply();'), 'P4C4014@9:49'],
  ['a @tableonly default action', PROGRAM('    action a() { }\n    table t { actions = { @tableonly a; } default_action = a(); }', '        t.apply();'), 'P4C4012@9:60'],
  ['no main', `${V1MODEL}header h_t { bit<8> a; }\n`, 'P4C4009@-'],
  ['a package that is not V1Switch', `${V1MODEL}package Mine();\nMine() main;\n`, 'P4C5002@4:1'],
  ['a table without actions', PROGRAM('    table t { size = 4; }', '        t.apply();'), 'P4C4013@8:11'],
  ['an entry action not in the table', PROGRAM('    action a() { }\n    action b() { }\n    table t { key = { m.x: exact; } actions = { a; } const entries = { 1: b(); } }', '        t.apply();'), 'P4C4015@10:75'],
  ['a table listed as an action', PROGRAM('    action a() { }\n    table u { actions = { a; } }\n    table t { actions = { u; } }', '        t.apply();\n        u.apply();'), 'P4C2008@10:27'],
  ['a named argument that does not exist', PROGRAM('', '        mark_to_drop(standard = sm);'), 'P4C2001@10:22'],
  ['a shift by a signed amount', PROGRAM('', '        m.x = m.x << 8s1;'), 'P4C3013@10:22'],
  ['a width too large', PROGRAM('    bit<4096> w;'), 'P4C3011@8:5'],
  ['calling a table', PROGRAM('    action a() { }\n    table t { actions = { a; } }', '        t();'), 'P4C3009@11:9'],
  ['a variable used as a type', PROGRAM('    bit<8> v;\n    v w;'), 'P4C2005@9:5'],
  ['an enum member that does not exist', PROGRAM('', '        hash(m.x, HashAlgorithm.md5, 8w0, { m.x }, 8w4);'), 'P4C2004@10:33'],
  ['a control where the parser belongs in main', PROGRAM('').replace('V1Switch(P(), V()', 'V1Switch(V(), V()'), 'P4C4010@16:10'],
  ['a direct counter on two tables', PROGRAM('    direct_counter(CounterType.packets) c;\n    action a() { }\n    table t { actions = { a; } counters = c; }\n    table u { actions = { a; } counters = c; }', '        t.apply();\n        u.apply();'), 'P4C4011@11:43'],
  ['two actions with one control-plane name', PROGRAM('    @name("same") action a() { }\n    @name("same") action b() { }\n    table t { actions = { a; b; } }', '        t.apply();'), 'P4C4008@9:26'],
  ['two actions with one @id', PROGRAM('    @id(7) action a() { }\n    @id(7) action b() { }\n    table t { actions = { a; b; } }', '        t.apply();'), 'P4C4037@9:5'],
  ['an assignment to action data', PROGRAM('    action a(bit<8> v) { v = 1; }\n    table t { actions = { a; } }', '        t.apply();'), 'P4C3012@8:26'],
  // p4c: "Table 't' has an anonymous table property 'implementation' with no name annotation, which is not supported by P4Runtime".
  ['an action profile constructed in the table without @name', PROGRAM('    action a() { }\n    table t { actions = { a; } implementation = action_profile(32w128); }', '        t.apply();'), 'P4C4020@9:32'],
  ['a counter constructed in the counters property', PROGRAM('    action a() { }\n    table t { actions = { a; } @name("c") counters = direct_counter(CounterType.packets); }', '        t.apply();'), 'P4C5002@9:54'],
  ['a register without its size', PROGRAM('    register<bit<8>>() r;'), 'P4C3006@8:5'],
  ['a directional action parameter after action data', PROGRAM('    action a(bit<8> v, inout bit<8> w) { w = v; }'), 'P4C3014@8:24'],
  ['a digest of a tuple', PROGRAM('', '        digest(1, { m.x, m.flag });'), 'P4C3001@10:19'],
  ['extracting a struct', PROGRAM('').replace('pk.extract(hdr.h);', 'pk.extract(m);'), 'P4C3001@6:108'],
  ['a generic argument of another width', PROGRAM('', '        random(hdr.h.b, 16w0, 8w5);'), 'P4C3001@10:31'],
  ['an ingress without standard_metadata', PROGRAM('').replace('control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }', 'control E(inout hs_t hdr, inout m_t m) { apply { } }'), 'P4C4010@16:25'],
  ['blocks that disagree on the metadata type', PROGRAM('', '', 'struct other_t { bit<8> y; }\ncontrol W(inout hs_t hdr, inout other_t m) { apply { } }\n').replace('E(), V(), D()) main', 'E(), W(), D()) main'), 'P4C4010@18:30'],
  ['an action listed without its bound argument', PROGRAM('    action a(inout bit<8> v) { v = 1; }\n    table t { actions = { a; } }', '        t.apply();'), 'P4C3006@9:27'],
  ['a stack cursor in a control', PROGRAM('', '        hdr.st.next.a = 1;').replace('struct hs_t { h_t h; }', 'struct hs_t { h_t h; h_t[2] st; }'), 'P4C3015@10:16'],
  ['a switch label the table does not list', PROGRAM('    action a() { }\n    action b() { }\n    table t { actions = { a; } }', '        switch (t.apply().action_run) { b: { } }'), 'P4C4015@12:41'],
];

function compile(source: string): ReturnType<typeof runFrontEnd> {
  return runFrontEnd('test.p4', { text: source, fileSystem: memoryFileSystem({ 'test.p4': source }, nodeFileSystem) });
}

describe('semantic errors', () => {
  it('has at least twenty broken programs', () => {
    expect(BROKEN.length).toBeGreaterThanOrEqual(20);
  });

  it('accepts the program the broken ones start from', () => {
    expect(codesAt(compile(PROGRAM('')).diagnostics)).toEqual([]);
  });

  it.each(BROKEN)('%s', (_what, source, expected) => {
    const { diagnostics, hasErrors } = compile(source);
    expect(hasErrors).toBe(true);
    expect(codesAt(diagnostics)).toEqual([expected]);
  });
});
