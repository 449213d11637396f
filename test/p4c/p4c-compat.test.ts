// Rules p4c-bm2-ss 1.2.4.8 applies that our front end must apply too (issue
// #10): programs it compiles must compile here and run on our switch as they
// would on BMv2; programs it refuses must be refused. Each program is our
// own, written for the rule it shows.
import { afterEach, describe, expect, it } from 'vitest';
import { compileProgram, memoryFileSystem, nodeFileSystem, type CompileResult } from '../../src/p4c/index.js';
import { hex, rig, type Rig } from '../switch/pipeline/harness.js';
import { codesAt } from './helpers.js';

let r: Rig | undefined;
afterEach(async () => {
  await r?.device.stop();
  r = undefined;
});

function compile(text: string, files: Record<string, string> = {}): CompileResult {
  return compileProgram('test.p4', { text, fileSystem: memoryFileSystem({ 'test.p4': text, ...files }, nodeFileSystem) });
}

function expectCompiles(text: string, files: Record<string, string> = {}): CompileResult {
  const result = compile(text, files);
  expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`)).toEqual([]);
  expect(result.ir).not.toBeNull();
  return result;
}

const PRELUDE = `#include <core.p4>
#include <v1model.p4>
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
`;

/** A V1Switch around ingress control I (and parser P when not given): the other blocks do nothing. */
function program(body: string, { parser, emit }: { parser?: string; emit: string }): string {
  return `${PRELUDE}${body}
${parser ?? `parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); pkt.extract(h.i); transition accept; }
}`}
control V(inout headers h, inout metadata m) { apply { } }
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { ${emit} } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;
}

const ETH = hex('000000000002 000000000001 1234');

describe('unsized integer literals (P4-16 §8.9: int is infinite-precision until it meets a width)', () => {
  const LITERALS = program(`
header in_t { bit<8> x; }
header out_t { bit<32> scaled; bit<8> halved; bit<8> assigned; bit<8> minus_one; bit<16> all_ones; }
struct headers { eth_t eth; in_t i; out_t o; }
struct metadata { }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    h.o.setValid();
    h.o.scaled = (bit<32>)(8 * (bit<9>)h.i.x);  // the literal takes bit<9> from the other operand
    h.o.halved = (bit<8>)(300 / 2);             // int arithmetic, then the cast: 150
    bit<8> v = 300 / 2;                         // likewise where it meets the variable's width
    h.o.assigned = v;
    h.o.minus_one = h.i.x + (1 - 2);            // -1 as bit<8> is 255
    h.o.all_ones = (bit<16>)(-1);
    sm.egress_spec = 1;
  }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i); pkt.emit(h.o);' });

  it('compiles a literal under a cast with the other operand\'s type, and folds int arithmetic exactly', () => {
    expectCompiles(LITERALS);
    r = rig('compat_literals', [0, 1], { text: LITERALS });
    r.send(0, Buffer.concat([ETH, hex('ff')]));
    // 8 * 255 in bit<9> is 504 (0x1f8), not 2040; 300 / 2 is 150 (0x96), not (300 mod 256) / 2.
    expect(r.take()).toEqual({ 1: [Buffer.concat([ETH, hex('ff'), hex('000001f8 96 96 fe ffff')]).toString('hex')] });
  });

  it('still refuses sized operands of different widths under a cast', () => {
    const bad = LITERALS.replace('(8 * (bit<9>)h.i.x)', '(8w8 * (bit<9>)h.i.x)');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C3002@12:28']);
  });
});

describe('one-element braced keysets and tuples', () => {
  const BRACED = program(`
header in_t { bit<8> x; }
header out_t { bit<8> y; }
struct headers { eth_t eth; in_t i; out_t o; }
struct metadata { tuple<bit<8>> one; }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  action set(bit<8> v) { h.o.setValid(); h.o.y = v; }
  table t {
    key = { h.i.x: exact; }
    actions = { set; NoAction; }
    const entries = {
      { 8w7 } : set(0x70);
      { (8w0 ++ 4w0)[7:0] } : set(0x01);
    }
  }
  apply {
    m.one = { h.i.x };
    t.apply();
    sm.egress_spec = 1;
  }
}`, {
    parser: `parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start {
    pkt.extract(h.eth);
    transition select(h.eth.type) { { 0x1234 }: inner; default: accept; }
  }
  state inner { pkt.extract(h.i); transition accept; }
}`,
    emit: 'pkt.emit(h.eth); pkt.emit(h.i); pkt.emit(h.o);',
  });

  it('matches { x } as the key x, in table entries and select cases', () => {
    r = rig('compat_braced', [0, 1], { text: BRACED });
    r.send(0, Buffer.concat([ETH, hex('07')]));
    r.send(0, Buffer.concat([ETH, hex('00')]));
    r.send(0, Buffer.concat([ETH, hex('05')]));
    expect(r.take()).toEqual({ 1: [
      Buffer.concat([ETH, hex('07 70')]).toString('hex'),
      Buffer.concat([ETH, hex('00 01')]).toString('hex'),
      Buffer.concat([ETH, hex('05')]).toString('hex'),
    ] });
  });

  it('refuses a braced keyset with more values than the key has fields', () => {
    const bad = BRACED.replace('{ 8w7 } : set(0x70);', '{ 8w7, 8w8 } : set(0x70);');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C4006@15:7']);
  });
});

describe('static_assert (core.p4): evaluated at compile time', () => {
  const ASSERTS = (check: string): string => program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
const bit<8> LIMIT = 8;
const bool checked = static_assert(${check}, "LIMIT is too small");
void twice() { static_assert(static_assert(LIMIT > 1)); }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    twice();
    if (checked && static_assert(true, "")) { sm.egress_spec = 1; } else { sm.egress_spec = 2; }
  }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });

  it('is true when its check holds, and leaves nothing to run', () => {
    const result = expectCompiles(ASSERTS('LIMIT >= 8 && V1MODEL_VERSION >= 20180101'));
    expect(JSON.stringify(result.ir)).not.toContain('static_assert');
    r = rig('compat_static_assert', [0, 1, 2], { text: ASSERTS('LIMIT >= 8') });
    r.send(0, Buffer.concat([ETH, hex('01')]));
    expect(Object.keys(r.take())).toEqual(['1']);
  });

  it('stops the compilation with its message when the check is false', () => {
    const { diagnostics } = compile(ASSERTS('LIMIT >= 16'));
    expect(codesAt(diagnostics)).toEqual(['P4C3017@9:22']);
    expect(diagnostics[0]!.message).toBe('static_assert failed: LIMIT is too small');
  });

  it('refuses a check that is not a compile-time constant', () => {
    const bad = ASSERTS('true').replace('static_assert(true, "")', 'static_assert(h.i.x == 1, "")');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C3007@14:34']);
  });
});

describe('the library include guards are p4c\'s', () => {
  it('defines _CORE_P4_ and _V1_MODEL_P4_, which shared skeletons test with #ifdef', () => {
    const skeleton = `#ifdef _CORE_P4_
#ifdef _V1_MODEL_P4_
struct headers { eth_t eth; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.eth); transition accept; }
}
#endif
#endif
`;
    const main = `${PRELUDE}#include "skeleton.p4"
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { sm.egress_spec = 1; } }
control V(inout headers h, inout metadata m) { apply { } }
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.eth); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;
    expectCompiles(main, { 'skeleton.p4': skeleton });
  });
});

describe('sub-controls and sub-parsers, inlined per instance as p4c does', () => {
  const SUB = program(`
header in_t { bit<8> kind; }
header v4_t { bit<32> addr; }
header v6_t { bit<64> addr; }
header out_t { bit<8> a; bit<8> b; bit<8> seen; }
struct headers { eth_t eth; in_t i; v4_t v4; v6_t v6; out_t o; }
struct metadata { }
parser Addr(packet_in packet, in bit<8> kind, out v4_t v4, out v6_t v6) {
  state start { transition select(kind) { 4: four; 6: six; } }
  state four { packet.extract(v4); transition accept; }
  state six { packet.extract(v6); transition accept; }
}
control Bump(inout bit<8> x)(bit<8> step) {
  action add() { x = x + step; }
  table t { actions = { add; } default_action = add(); }
  apply { t.apply(); }
}
control Add(inout bit<8> x)(bit<8> step) {
  apply { x = x + step; }
}
control Twice(inout bit<8> x)(Add inner) {
  apply { inner.apply(x); inner.apply(x); }  // no table in 'inner': BMv2 cannot apply one twice
}
control Count(inout headers h, register<bit<8>> seen) {
  apply {
    bit<8> n;
    seen.read(n, 0);
    n = n + 1;
    seen.write(0, n);
    h.o.seen = n;
  }
}
control Stamp(inout bit<8> x) { apply { x = 0xee; } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  register<bit<8>>(1) packets;
  Bump(1) one;
  Add(16) sixteen;
  Twice(sixteen) twice;
  Count() count;
  apply {
    h.o.setValid();
    one.apply(h.o.a);
    twice.apply(h.o.b);
    count.apply(h, packets);
    if (h.v6.isValid()) { Stamp.apply(h.o.a); }
    sm.egress_spec = 1;
  }
}`, {
    parser: `parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  Addr() addr;
  state start {
    pkt.extract(h.eth);
    pkt.extract(h.i);
    addr.apply(pkt, h.i.kind, h.v4, h.v6);
    h.o.setValid();
    h.o.b = 0x70;  // not reached when the sub-parser rejects
    transition accept;
  }
}`,
    emit: 'pkt.emit(h.eth); pkt.emit(h.i); pkt.emit(h.v4); pkt.emit(h.v6); pkt.emit(h.o);',
  });

  it('names each instance\'s objects Block.instance.object', () => {
    const { ir } = expectCompiles(SUB);
    expect(ir!.blocks.map((b) => b.name).filter((n) => n.includes('.')).sort()).toEqual(['I.Stamp', 'I.count', 'I.one', 'I.sixteen', 'I.twice', 'P.addr']);
    expect(ir!.tables.map((t) => t.name)).toEqual(['I.one.t']);
    expect(ir!.actions.map((a) => a.name).filter((n) => n !== 'NoAction')).toEqual(['I.one.add']);
    expect(JSON.stringify(ir)).toContain('"instance":"I.packets"');
  });

  it('runs sub-parsers in the caller\'s packet, sub-controls with their constructor arguments and externs', () => {
    r = rig('compat_sub_blocks', [0, 1], { text: SUB });
    r.send(0, Buffer.concat([ETH, hex('04 0a000001'), hex('ffff')]));
    r.send(0, Buffer.concat([ETH, hex('06 0102030405060708')]));
    r.send(0, Buffer.concat([ETH, hex('05 ffff')]));
    expect(r.take()).toEqual({ 1: [
      // a = 0 + 1; b = 0x70 + 16 + 16 (the instance 'twice' was given); one packet counted so far
      Buffer.concat([ETH, hex('04 0a000001'), hex('01 90 01'), hex('ffff')]).toString('hex'),
      Buffer.concat([ETH, hex('06 0102030405060708'), hex('ee 90 02')]).toString('hex'),
      // no select case for 5: the sub-parser rejects, and so does its caller (b was never set in the parser)
      Buffer.concat([ETH, hex('05'), hex('01 20 03'), hex('ffff')]).toString('hex'),
    ] });
  });
});

describe('entry priorities, as p4c\'s EntryPriorities pass allows them', () => {
  const PRIORITIES = (entries: string, key = 'h.i.x: ternary;'): string => program(`
header in_t { bit<8> x; }
header out_t { bit<8> rule; }
struct headers { eth_t eth; in_t i; out_t o; }
struct metadata { }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  action hit(bit<8> rule) { h.o.setValid(); h.o.rule = rule; }
  table t {
    key = { ${key} }
    actions = { hit; NoAction; }
    ${entries}
  }
  apply { t.apply(); sm.egress_spec = 1; }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i); pkt.emit(h.o);' });

  it('refuses priorities in const entries (P4C4030)', () => {
    const bad = PRIORITIES('const entries = { priority = 10: 0x01 &&& 0x0f: hit(1); priority = 20: _: hit(2); }');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C4030@14:34']);
  });

  it('refuses priorities for a key of exact and lpm fields only (P4C4031)', () => {
    const bad = PRIORITIES('entries = { priority = 10: 0x01: hit(1); }', 'h.i.x: exact;');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C4031@14:28']);
  });

  it('refuses a first entry without a priority when others have one (P4C4032)', () => {
    const bad = PRIORITIES('entries = { 0x01 &&& 0x0f: hit(1); priority = 20: _: hit(2); }');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C4032@14:17']);
  });

  it('accepts them in non-const entries: the largest priority wins, and unnumbered entries count down', () => {
    // 0x21 matches all three; 0x11 the last two. Priorities: 10, then 9 (counted down), then 20.
    const text = PRIORITIES('entries = { priority = 10: 0x01 &&& 0x0f: hit(1); 0x11 &&& 0xff: hit(2); priority = 20: 0x21 &&& 0xff: hit(3); }');
    const { ir } = expectCompiles(text);
    expect(ir!.tables[0]!.entries.map((e) => [e.priority, e.isConst])).toEqual([[10, false], [9, false], [20, false]]);
    r = rig('compat_priorities', [0, 1], { text });
    r.send(0, Buffer.concat([ETH, hex('21')]));
    r.send(0, Buffer.concat([ETH, hex('11')]));
    r.send(0, Buffer.concat([ETH, hex('31')]));
    expect(r.take()).toEqual({ 1: [
      Buffer.concat([ETH, hex('21 03')]).toString('hex'),
      Buffer.concat([ETH, hex('11 01')]).toString('hex'),
      Buffer.concat([ETH, hex('31 01')]).toString('hex'),
    ] });
  });
});

describe('externs the program declares itself', () => {
  const USER_EXTERN = (use: string): string => program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
extern Scrambler { Scrambler(); bit<8> next(); }
extern bit<8> scramble(in bit<8> x);
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  ${use}
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });

  it('are refused when used: neither BMv2 (p4c-bm2-ss says "not supported") nor our switch implements them', () => {
    expect(codesAt(compile(USER_EXTERN('apply { h.i.x = scramble(h.i.x); }')).diagnostics)).toEqual(['P4C5002@11:19']);
    expect(codesAt(compile(USER_EXTERN('Scrambler() s;\n  apply { h.i.x = s.next(); }')).diagnostics)).toEqual(['P4C5002@11:3']);
  });

  it('may be declared and left unused', () => {
    expectCompiles(USER_EXTERN('apply { sm.egress_spec = 1; }'));
  });
});

describe('a control applied by its type name', () => {
  it('is an instance named after the type in the applying block, in P4Info and the IR alike', () => {
    const text = program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
control Tally(in bit<8> x) {
  counter(256, CounterType.packets) hits;
  apply { hits.count((bit<32>)x); }
}
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply { Tally.apply(h.i.x); sm.egress_spec = 1; }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });
    const { ir, p4info } = expectCompiles(text);
    expect(p4info!.counters?.map((c) => c.preamble?.name)).toEqual(['I.Tally.hits']);
    expect(ir!.externs.map((e) => [e.name, e.id])).toEqual([['I.Tally.hits', p4info!.counters![0]!.preamble!.id]]);
    expect(ir!.blocks.map((b) => b.name)).toContain('I.Tally');
  });
});

describe('structs inside headers (flattened, as p4c does for BMv2)', () => {
  const NESTED = program(`
struct pair_t { bit<4> hi; bit<4> lo; }
struct row_t { pair_t a; bit<8> b; }
header in_t { bit<8> x; row_t row; }
struct headers { eth_t eth; in_t i; }
struct metadata { row_t copy; }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  table t { key = { h.i.row.a.hi: exact; } actions = { NoAction; } }
  apply {
    t.apply();
    m.copy.a.lo = h.i.row.a.lo;
    h.i.row.a.lo = h.i.row.a.hi;
    h.i.row.a.hi = m.copy.a.lo;
    h.i.row.b = h.i.row.b + 1;
    sm.egress_spec = 1;
  }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });

  it('extracts, updates and emits their fields in wire order', () => {
    const { ir } = expectCompiles(NESTED);
    expect(ir!.headers.find((x) => x.name === 'in_t')!.fields.map((f) => [f.name, f.width, f.bitOffset])).toEqual([
      ['x', 8, 0], ['row.a.hi', 4, 8], ['row.a.lo', 4, 12], ['row.b', 8, 16],
    ]);
    r = rig('compat_nested_struct', [0, 1], { text: NESTED });
    r.send(0, Buffer.concat([ETH, hex('aa 12 7f')]));
    expect(r.take()).toEqual({ 1: [Buffer.concat([ETH, hex('aa 21 80')]).toString('hex')] });
  });

  it('refuses a whole struct of a header used as a value', () => {
    const bad = NESTED.replace('m.copy.a.lo = h.i.row.a.lo;', 'm.copy = h.i.row;');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C5002@14:14']);
  });
});

describe('size methods of headers and structs (minSizeInBits and friends)', () => {
  const SIZES = program(`
header in_t { bit<8> x; bit<12> y; bit<4> z; }
header opt_t { bit<8> kind; varbit<32> data; }
header out_t { bit<8> min_bits; bit<8> min_bytes; bit<8> max_bits; bit<8> max_bytes; }
struct headers { eth_t eth; in_t i; out_t o; }
struct metadata { opt_t opt; }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply {
    h.o.setValid();
    h.o.min_bits = (bit<8>)h.i.minSizeInBits();
    h.o.min_bytes = (bit<8>)h.i.minSizeInBytes();
    h.o.max_bits = (bit<8>)m.opt.maxSizeInBits();
    h.o.max_bytes = (bit<8>)(m.opt.minSizeInBytes() + m.opt.maxSizeInBytes());
    sm.egress_spec = 1;
  }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i); pkt.emit(h.o);' });

  it('are compile-time ints: varbit fields count 0 at least and their maximum at most', () => {
    const { ir } = expectCompiles(SIZES);
    const values = ir!.blocks.find((b) => b.name === 'I')!.apply.flatMap((s) => (s.kind === 'assign' && s.value.op === 'const' ? [s.value.value] : []));
    expect(values).toEqual(['24', '3', '40', '6', '1']); // the last: egress_spec
  });
});

describe('declarations come before their uses', () => {
  it('refuses a top-level name used above its declaration (p4c: "declaration not found")', () => {
    const text = program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply { h.i.x = LIMIT; Later.apply(h.i.x); }
}
const bit<8> LIMIT = 4;
control Later(inout bit<8> x) { apply { x = x + 1; } }`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });
    expect(codesAt(compile(text).diagnostics)).toEqual(['P4C2009@9:19', 'P4C2009@9:26']);
    expectCompiles(text.replace(/(control I[^]*?\n\}\n)([^]*?)(parser P)/, '$2$1$3'));
  });

  it('refuses it among the declarations of a control too (there the later name is unknown)', () => {
    const text = program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  table t { key = { h.i.x: exact; } actions = { set; } }
  action set() { h.i.x = 1; }
  apply { t.apply(); }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });
    expect(codesAt(compile(text).diagnostics)).toEqual(['P4C2001@9:49']);
  });
});

describe('return values', () => {
  const RETURNS = (fn: string, apply = 'h.i.x = twice(h.i.x);'): string => program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
${fn}
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply { ${apply} sm.egress_spec = 1; }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });

  it('accepts a function that returns a value on every path, and runs it', () => {
    const text = RETURNS('bit<8> twice(in bit<8> v) { if (v > 100) { return 255; } else { return v + v; } }');
    // The architecture's storage keeps slots 0, 1, 2 even when a function's parameters are lowered first.
    expect(expectCompiles(text).ir!.slots.slice(0, 3).map((x) => x.role)).toEqual(['headers', 'metadata', 'standard_metadata']);
    r = rig('compat_returns', [0, 1], { text });
    r.send(0, Buffer.concat([ETH, hex('15')]));
    r.send(0, Buffer.concat([ETH, hex('80')]));
    expect(r.take()).toEqual({ 1: [Buffer.concat([ETH, hex('2a')]).toString('hex'), Buffer.concat([ETH, hex('ff')]).toString('hex')] });
  });

  it('refuses a function that can end without a value (P4C3019), or returns none (P4C3020)', () => {
    expect(codesAt(compile(RETURNS('bit<8> twice(in bit<8> v) { if (v > 100) { return 255; } }')).diagnostics)).toEqual(['P4C3019@8:8']);
    expect(codesAt(compile(RETURNS('bit<8> twice(in bit<8> v) { return; }')).diagnostics)).toEqual(['P4C3020@8:29']);
  });

  it('refuses a value returned from an apply block (P4C3018)', () => {
    expect(codesAt(compile(RETURNS('', 'return 1;')).diagnostics)).toEqual(['P4C3018@10:18']);
  });
});

describe('a table applied twice on one path', () => {
  const TWICE = (apply: string): string => program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
control Sub(inout bit<8> x) {
  table s { key = { x: exact; } actions = { NoAction; } }
  apply { s.apply(); }
}
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  table t { key = { h.i.x: exact; } actions = { NoAction; } }
  table u { actions = { NoAction; } }
  Sub() sub;
  apply { ${apply} }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });

  it('is refused, as p4c-bm2-ss refuses it (BMv2 gives a table one place in its graph)', () => {
    expect(codesAt(compile(TWICE('t.apply(); if (t.apply().hit) { }')).diagnostics)).toEqual(['P4C5003@13:9']);
    expect(codesAt(compile(TWICE('sub.apply(h.i.x); sub.apply(h.i.x);')).diagnostics)).toEqual(['P4C5003@9:9']);
  });

  it('is accepted once in each branch of an if (p4c\'s sample issue986-1-bmv2.p4 does so)', () => {
    expectCompiles(TWICE('if (h.i.x == 0) { t.apply(); } else { t.apply(); } u.apply();'));
    expectCompiles(TWICE('switch (u.apply().action_run) { NoAction: { t.apply(); } default: { t.apply(); } }'));
  });
});

describe('a value set of a struct in a select of several keys', () => {
  const PVS = program(`
header in_t { bit<8> x; bit<16> y; }
struct pair_t { bit<8> x; bit<16> y; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  apply { sm.egress_spec = h.i.isValid() ? 9w1 : 9w2; }
}`, {
    parser: `parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  value_set<pair_t>(4) pairs;
  state start { pkt.extract(h.eth); transition select(pkt.lookahead<in_t>().x, pkt.lookahead<in_t>().y) { pairs: inner; default: accept; } }
  state inner { pkt.extract(h.i); transition accept; }
}`,
    emit: 'pkt.emit(h.eth); pkt.emit(h.i);',
  });

  it('matches the tuple of keys, one member field per key (p4c\'s pvs-struct samples)', () => {
    r = rig('compat_struct_pvs', [0, 1, 2], { text: PVS });
    const set = r.program.p4info.value_sets![0]!;
    expect(set.match.map((f) => f.bitwidth)).toEqual([8, 16]);
    r.write([{ type: 'MODIFY', entity: { value_set_entry: { value_set_id: set.preamble!.id, members: [{ match: [{ field_id: 1, exact: { value: hex('07') } }, { field_id: 2, exact: { value: hex('0102') } }] }] } } }]);
    r.send(0, Buffer.concat([ETH, hex('07 0102'), hex('ffff')]));
    r.send(0, Buffer.concat([ETH, hex('07 0103'), hex('ffff')]));
    expect(r.take()).toEqual({
      1: [Buffer.concat([ETH, hex('07 0102 ffff')]).toString('hex')],
      2: [Buffer.concat([ETH, hex('07 0103 ffff')]).toString('hex')],
    });
  });

  it('refuses a struct whose fields do not fit the keys', () => {
    const bad = PVS.replace('struct pair_t { bit<8> x; bit<16> y; }', 'struct pair_t { bit<8> x; bit<8> y; }');
    expect(codesAt(compile(bad).diagnostics)).toEqual(['P4C3001@14:107']);
  });
});

describe('type arguments of extern instances', () => {
  const EXTERN = (decl: string): string => program(`
header in_t { bit<8> x; }
struct headers { eth_t eth; in_t i; }
struct metadata { }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) {
  ${decl}
  apply { sm.egress_spec = 1; }
}`, { emit: 'pkt.emit(h.eth); pkt.emit(h.i);' });

  it('must match the extern\'s type parameters (P4C3021), as p4c requires', () => {
    expect(codesAt(compile(EXTERN('counter<bit<16>>(16, CounterType.packets) c;')).diagnostics)).toEqual(['P4C3021@9:3']);
    expect(codesAt(compile(EXTERN('register(16) r;')).diagnostics)).toEqual(['P4C3021@9:3']);
    expectCompiles(EXTERN('register<bit<8>>(16) r; counter(16, CounterType.packets) c; direct_counter(CounterType.bytes) d;'));
  });
});
