// p4c's P4Info rules that our programs do not exercise, each on a small
// program of our own. Each rule was read in p4c's sources (control-plane/
// p4RuntimeSerializer.cpp, frontends/p4/tableKeyNames.cpp, hierarchicalNames,
// localizeActions, unusedDeclarations, toP4's annotation printing) and
// checked against the p4c golden named in the test (testdata/
// p4_16_samples_outputs/NAME.p4info.txtpb).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics, memoryFileSystem, nodeFileSystem } from '../../src/p4c/index.js';
import type * as p4i from '../../src/proto/p4i.js';
import { REPO_ROOT } from '../helpers/p4c-outputs.js';
import { codesAt, V1MODEL } from './helpers.js';

const TYPES = `
header h_t { bit<8> a; @name("b_renamed") bit<16> b; }
header_union u_t { h_t x; h_t y; }
struct hs_t { h_t h; h_t[2] s; u_t u; }
struct m_t { bit<8> x; bit<32> w; }
`;

/** A V1Switch program: `top` at the top level, `ingress` as the body of control I (with `ingressAnnotations` on it). */
const program = (ingress: string, top = '', ingressAnnotations = ''): string => `${V1MODEL}${TYPES}
${top}
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    state start { pk.extract(hdr.h); transition accept; }
}
${ingressAnnotations}
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
${ingress}
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
`;

function compile(source: string): ReturnType<typeof compileProgram> {
  return compileProgram('rules.p4', { text: source, fileSystem: memoryFileSystem({ 'rules.p4': source }, nodeFileSystem) });
}

function p4info(source: string): p4i.P4Info {
  const result = compile(source);
  if (!result.p4info) throw new Error(formatDiagnostics(result.diagnostics));
  return result.p4info;
}

/** The P4Info of a program of the repository. */
function p4infoOf(file: string): p4i.P4Info {
  const result = compileProgram(path.join(REPO_ROOT, file));
  if (!result.p4info) throw new Error(formatDiagnostics(result.diagnostics));
  return result.p4info;
}

const names = (objects: readonly { preamble?: p4i.Preamble | null }[] | undefined): string[] => (objects ?? []).map((o) => o.preamble!.name!);

describe("p4c's rules for what P4Info lists", () => {
  it('lists only actions a table refers to or an apply block calls, not one only other actions call (crc32-bmv2.p4, send_back)', () => {
    const info = p4info(program(`
    action inner(bit<9> p) { sm.egress_spec = p; }
    action outer(bit<9> p) { inner(p); }
    action called_from_apply() { m.x = 1; }
    table t { key = { m.x: exact; } actions = { outer; } }
    apply { t.apply(); called_from_apply(); }`));
    expect(names(info.actions)).toEqual(['NoAction', 'I.outer', 'I.called_from_apply']);
  });

  it('lists extern instances declared at the top level first, without a prefix, and unused instances too (issue1097-bmv2.p4)', () => {
    const info = p4info(program(`
    register<bit<16>>(4) never_used;
    counter(8, CounterType.packets) c;
    apply { top.write(0, 1); c.count(0); }`, 'register<bit<8>>(2) top;'));
    expect(names(info.registers)).toEqual(['top', 'I.never_used']);
    expect(info.registers![0]).toMatchObject({ size: 2, type_spec: { bitstring: { bit: { bitwidth: 8 } } } });
    expect(names(info.counters)).toEqual(['I.c']);
  });

  it('leaves @hidden tables out', () => {
    const info = p4info(program(`
    action a() { }
    @hidden table hidden_t { actions = { a; } }
    table shown { actions = { a; } }
    apply { hidden_t.apply(); shown.apply(); }`));
    expect(names(info.tables)).toEqual(['I.shown']);
  });
});

describe("p4c's names", () => {
  it("prefixes with the control type's own name, whatever its @name; honours @name on actions, tables, keys and parameters (name_annotations_to_p4info-bmv2.p4)", () => {
    const info = p4info(program(`
    @name("fwd") action forward(@name("out_port") bit<9> port) { sm.egress_spec = port; }
    @name("ports") table t { key = { sm.ingress_port: exact @name("in_port"); } actions = { @name("ignored") forward; } }
    apply { t.apply(); }`, '', '@name("OtherName")'));
    expect(names(info.tables)).toEqual(['I.ports']);
    expect(info.tables![0]!.match_fields![0]!.name).toBe('in_port');
    expect(names(info.actions)).toEqual(['NoAction', 'I.fwd']);
    expect(info.actions![1]!.params![0]!.name).toBe('out_port');
    expect(info.tables![0]!.action_refs![0]!.annotations).toBeUndefined();
  });

  it('names key expressions as TableKeyNames does: $valid$, field @name, indices, slices, & and literals in their base (issue561-1-bmv2.p4)', () => {
    const info = p4info(program(`
    action a() { }
    table t {
        key = {
            hdr.h.isValid(): exact;
            hdr.u.x.isValid(): exact;
            hdr.h.b: exact;
            hdr.s[1].a: exact;
            m.w[15:8]: ternary;
            m.w & 0xFF: ternary;
            m.x & 8w0b101: ternary;
        }
        actions = { a; }
    }
    apply { t.apply(); }`));
    expect(info.tables![0]!.match_fields!.map((f) => f.name)).toEqual([
      'hdr.h.$valid$', 'hdr.u.x.$valid$', 'hdr.h.b_renamed', 'hdr.s[1].a', 'm.w[15:8]', 'm.w & 0xff', 'm.x & 0b101',
    ]);
  });

  it('refuses a key expression that has no name without an @name, as p4c does (P4C4019)', () => {
    const source = program(`
    action a() { }
    table t { key = { m.x + 1: exact; (bit<16>) m.x: exact @name("cast_ok"); } actions = { a; } }
    apply { t.apply(); }`);
    const result = compile(source);
    expect(result.p4info).toBeNull();
    expect(codesAt(result.diagnostics).filter((c) => c.startsWith('P4C4019'))).toHaveLength(1);
  });

  it("inlines a sub-control's objects at its instance's place, after the top-level actions (as p4c did for p4/forward.p4's ingress.identity and ingress.forwarding)", () => {
    const info = p4info(program(`
    action b() { }
    Sub() sub;
    table u { key = { m.x: exact; } actions = { b; } }
    apply { sub.apply(m); u.apply(); }`, `control Sub(inout m_t m) {
    action a() { m.x = 1; }
    table t { key = { m.x: exact; } actions = { a; } }
    apply { t.apply(); }
}`));
    expect(names(info.actions)).toEqual(['NoAction', 'I.b', 'I.sub.a']);
    expect(names(info.tables)).toEqual(['I.sub.t', 'I.u']);
  });

  it('copies top-level actions into the block ahead of its own, in order of first use (NoAction, added for a table without default_action, after its listed actions), and prefixes a relative @name on one with the block (localizeActions)', () => {
    const info = p4info(program(`
    action own() { }
    table t { key = { m.x: exact; } actions = { own; shared; renamed_top; } }
    apply { t.apply(); }`, 'action shared() { }\n@name("top_renamed") action renamed_top() { }'));
    expect(names(info.actions)).toEqual(['shared', 'I.top_renamed', 'NoAction', 'I.own']);
  });
});

describe("p4c's instances made in a table property (p4RuntimeArchHandler: getExternInstanceFromProperty, the v1model handler's addTableProperties)", () => {
  const info = p4infoOf('test/fixtures/p4info/table_implementation.p4');
  const table = (name: string): p4i.Table => info.tables!.find((t) => t.preamble!.name === name)!;
  const profile = (name: string): p4i.ActionProfile => info.action_profiles!.find((a) => a.preamble!.name === name)!;

  it("names a profile or selector constructed in `implementation` by the property's @name alone, without the block's prefix, and lists it where p4c meets its table: among the control's instances in declaration order (action_profile-bmv2.p4: `ap`, `ap_ws`)", () => {
    expect(names(info.action_profiles)).toEqual(['ap', 'IngressI.declared', 'ap_ws']);
    expect(info.action_profiles!.map((a) => a.preamble!.alias)).toEqual(['ap', 'declared', 'ap_ws']);
    expect(profile('ap')).toMatchObject({ size: '128', table_ids: [table('IngressI.indirect').preamble!.id] });
    expect(profile('ap').with_selector).toBeUndefined();
    expect(profile('ap_ws')).toMatchObject({ size: '1024', with_selector: true, table_ids: [table('IngressI.indirect_ws').preamble!.id] });
    expect(profile('IngressI.declared')).toMatchObject({ size: '16', table_ids: [table('IngressI.by_name').preamble!.id] });
  });

  it("gives them the ids p4c gave the same names in action_profile-bmv2.p4's golden, and the tables their implementation_id", () => {
    // Literals from testdata/p4_16_samples_outputs/action_profile-bmv2.p4.p4info.txtpb (p4c names the objects alike there).
    expect(profile('ap').preamble!.id).toBe(294074782);
    expect(profile('ap_ws').preamble!.id).toBe(300324846);
    expect(table('IngressI.indirect').preamble!.id).toBe(46872340);
    expect(table('IngressI.indirect_ws').preamble!.id).toBe(38116258);
    expect(info.actions!.find((a) => a.preamble!.name === 'IngressI.drop')!.preamble!.id).toBe(23455883);
    expect(table('IngressI.indirect').implementation_id).toBe(294074782);
    expect(table('IngressI.indirect_ws').implementation_id).toBe(300324846);
    expect(table('IngressI.by_name').implementation_id).toBe(profile('IngressI.declared').preamble!.id);
  });

  it('refuses one without @name, as p4c does ("anonymous table property ... with no name annotation, which is not supported by P4Runtime"): P4C4020', () => {
    const result = compile(program(`
    action a(bit<9> p) { sm.egress_spec = p; }
    table t { key = { m.x: exact; } actions = { a; } implementation = action_profile(32w64); }
    apply { t.apply(); }`));
    expect(result.p4info).toBeNull();
    expect(codesAt(result.diagnostics)).toEqual(['P4C4020@17:54']);
  });

  it('keeps its annotations but @name in the preamble, and a leading dot of the @name out of the name (IDeclaration::controlPlaneName)', () => {
    const own = p4info(program(`
    action a(bit<9> p) { sm.egress_spec = p; }
    table t { key = { m.x: exact; } actions = { a; } @name(".global_ap") @my_note implementation = action_profile(32w64); }
    apply { t.apply(); }`));
    expect(own.action_profiles!.map((a) => [a.preamble!.name, a.preamble!.annotations])).toEqual([['global_ap', ['@my_note']]]);
  });
});

describe("p4c's instances of one control (Inline: ComputeNewNames renames the callee's objects per instance)", () => {
  const info = p4infoOf('test/fixtures/p4info/control_instances.p4');

  it('lists a table and the actions of a control instantiated twice once per instance, named Block.instance.object', () => {
    expect(names(info.tables)).toEqual(['IngressI.first.lookup', 'IngressI.second.lookup']);
    expect(names(info.actions)).toEqual(['NoAction', 'IngressI.first.rewrite', 'IngressI.first.to_port', 'IngressI.second.rewrite', 'IngressI.second.to_port']);
    expect(info.actions!.map((a) => a.preamble!.alias)).toEqual(['NoAction', 'first.rewrite', 'first.to_port', 'second.rewrite', 'second.to_port']);
  });

  it("gives each instance's table the actions of its own instance", () => {
    const idOf = new Map(info.actions!.map((a) => [a.preamble!.name!, a.preamble!.id!]));
    const refs = (table: string): number[] => info.tables!.find((t) => t.preamble!.name === table)!.action_refs!.map((r) => r.id!);
    expect(refs('IngressI.first.lookup')).toEqual([idOf.get('IngressI.first.rewrite'), idOf.get('IngressI.first.to_port'), idOf.get('NoAction')]);
    expect(refs('IngressI.second.lookup')).toEqual([idOf.get('IngressI.second.rewrite'), idOf.get('IngressI.second.to_port'), idOf.get('NoAction')]);
    expect(new Set(idOf.values()).size).toBe(5);
  });
});

describe("p4c's ids of fields, annotations and documentation", () => {
  // FieldIdAllocator: ids count 1, 2, … over every key element (a selector too); an @id is kept and moves
  // the count on by one, from where it stands (so `x, @id(5) y, z` numbers z 2, as p4c does).
  it('numbers match fields over every key element (a selector key too) and keeps @id, also on parameters (FieldIdAllocator)', () => {
    const info = p4info(program(`
    action_selector(HashAlgorithm.crc16, 32w16, 32w8) sel;
    action fwd(bit<9> port, @id(7) bit<8> tag, bit<8> other) { sm.egress_spec = port; m.x = tag ^ other; }
    table t { key = { m.w: selector; m.x: exact; hdr.h.a: exact @id(5); hdr.h.b: exact; } actions = { fwd; } implementation = sel; }
    apply { t.apply(); }`));
    expect(info.tables![0]!.match_fields!.map((f) => [f.name, f.id])).toEqual([['m.x', 2], ['hdr.h.a', 5], ['hdr.h.b_renamed', 3]]);
    expect(info.actions!.find((a) => a.preamble!.name === 'I.fwd')!.params!.map((p) => [p.name, p.id])).toEqual([['port', 1], ['tag', 7], ['other', 2]]);
  });

  it('writes @brief/@description as doc and other annotations as ToP4 prints them: unknown ones token by token', () => {
    const info = p4info(program(`
    @brief("adds") @description("adds one") @my_anno(1, "two") @flag action a(@brief("the value") bit<8> v) { m.x = v; }
    table t { key = { m.x: exact @brief("the key"); } actions = { a; } }
    apply { t.apply(); }`));
    const action = info.actions!.find((x) => x.preamble!.name === 'I.a')!;
    expect(action.preamble!.annotations).toEqual(['@my_anno(1 , "two")', '@flag']);
    expect(action.preamble!.doc).toEqual({ brief: 'adds', description: 'adds one' });
    expect(action.params![0]!.doc).toEqual({ brief: 'the value' });
    expect(info.tables![0]!.match_fields![0]!.doc).toEqual({ brief: 'the key' });
  });

  it('gives a selector its @max_group_size (action_selector samples)', () => {
    const info = p4info(program(`
    @max_group_size(4) action_selector(HashAlgorithm.crc16, 32w16, 32w8) sel;
    action fwd(bit<9> port) { sm.egress_spec = port; }
    table t { key = { m.x: exact; m.w: selector; } actions = { fwd; } implementation = sel; }
    apply { t.apply(); }`));
    expect(info.action_profiles![0]).toMatchObject({ with_selector: true, size: '16', max_group_size: 4 });
    expect(info.action_profiles![0]!.preamble!.annotations).toEqual(['@max_group_size(4)']);
  });
});

describe("p4c's digests (analyzeControl)", () => {
  it("lists a block's digests from its listed actions first, then from its apply block; an unused action's digest is not listed", () => {
    const info = p4info(program(`
    action unused() { digest<d_unused_t>(1, { m.x }); }
    action learn() { digest<d_action_t>(1, { m.w }); }
    table t { key = { m.x: exact; } actions = { learn; } }
    apply { digest<d_apply_t>(1, { m.x }); t.apply(); }`, 'struct d_unused_t { bit<8> x; }\nstruct d_action_t { bit<32> w; }\nstruct d_apply_t { bit<8> x; }'));
    expect(names(info.digests)).toEqual(['d_action_t', 'd_apply_t']);
  });
});

describe("p4c's pkg_info (addPkgInfo)", () => {
  it('takes @pkginfo keys, other annotations and the documentation of main; arch is v1model', () => {
    const source = program('    apply { }').replace(
      'V1Switch(P(), V(), I(), E(), V(), D()) main;',
      '@pkginfo(name = "rules.p4", version = "1.2.3", organization = "p4ina")\n@brief("the test program") @my_tag\nV1Switch(P(), V(), I(), E(), V(), D()) main;',
    );
    expect(p4info(source).pkg_info).toEqual({ name: 'rules.p4', version: '1.2.3', organization: 'p4ina', arch: 'v1model', annotations: ['@my_tag'], doc: { brief: 'the test program' } });
  });

  it('has only arch without annotations on main', () => {
    expect(p4info(program('    apply { }')).pkg_info).toEqual({ arch: 'v1model' });
  });
});

describe("p4c's type_info (TypeSpecConverter)", () => {
  it('describes a digest struct: new_type members, error (every member), header unions and stacks, varbit, @name on types and fields (p4rt_digest_complex.p4)', () => {
    const source = `${V1MODEL}
error { Custom }
header h_t { bit<8> a; int<16> b; varbit<32> v; }
header g_t { bit<8> c; }
header_union u_t { h_t h; g_t g; }
@p4runtime_translation("example.org/Port", 32) type bit<9> Port_t;
type bit<8> Plain_t;
@name("inner_renamed") struct inner_t { @name("ff") bit<4> f; bool flag; }
struct learn_t { Port_t port; Plain_t plain; error e; inner_t inner; g_t[2] stack; u_t un; }
struct hs_t { h_t h; }
struct m_t { bit<8> x; }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) { state start { transition accept; } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { learn_t l; digest<learn_t>(1, l); } }
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
`;
    const info = p4info(source);
    expect(names(info.digests)).toEqual(['learn_t']);
    const t = info.type_info!;
    expect(t.structs!.learn_t!.members!.map((m) => [m.name, m.type_spec])).toEqual([
      ['port', { new_type: { name: 'Port_t' } }],
      ['plain', { new_type: { name: 'Plain_t' } }],
      ['e', { error: {} }],
      ['inner', { struct: { name: 'inner_renamed' } }],
      ['stack', { header_stack: { header: { name: 'g_t' }, size: 2 } }],
      ['un', { header_union: { name: 'u_t' } }],
    ]);
    expect(t.structs!.inner_renamed!.members!.map((m) => m.name)).toEqual(['ff', 'flag']);
    expect(t.headers!.h_t!.members!.map((m) => m.type_spec)).toEqual([{ bit: { bitwidth: 8 } }, { int: { bitwidth: 16 } }, { varbit: { max_bitwidth: 32 } }]);
    expect(t.header_unions!.u_t!.members).toEqual([{ name: 'h', header: { name: 'h_t' } }, { name: 'g', header: { name: 'g_t' } }]);
    expect(t.error!.members).toEqual(['NoError', 'PacketTooShort', 'NoMatch', 'StackOutOfBounds', 'HeaderTooShort', 'ParserTimeout', 'ParserInvalidArgument', 'Custom']);
    expect(t.new_types).toEqual({
      Port_t: { translated_type: { uri: 'example.org/Port', sdn_bitwidth: 32 } },
      Plain_t: { original_type: { bitstring: { bit: { bitwidth: 8 } } } },
    });
  });
});
