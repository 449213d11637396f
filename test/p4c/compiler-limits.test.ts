// How deeply a program may nest (issue #11 item 6). Programs nested past the
// compiler's limits used to end in "internal compiler error: Maximum call
// stack size exceeded" (a 1,644-term sum and 2,765 chained `?:` in the type
// checker, 6,224 nested `?:` in the parser); each now gets one diagnostic
// naming the limit at the place, in every pass and with dumps on, and what
// the compiler accepts the switch loads and runs.
import { describe, expect, it } from 'vitest';
import { compileProgram, memoryFileSystem, nodeFileSystem, type CompileResult, type Diagnostic } from '../../src/p4c/index.js';
import { IR_MAX_DEPTH, irDepth } from '../../src/p4c/ir/limits.js';
import type { IrExpression, IrProgram } from '../../src/p4c/ir/types.js';
import { MAX_NESTING } from '../../src/p4c/parser/nesting-limit.js';
import { SwitchDevice } from '../../src/switch/device/switch-device.js';
import { PortSet } from '../../src/switch/ports/port-set.js';
import { CapturePort, compileCorpus, rig } from '../switch/pipeline/harness.js';
import { codesAt, V1MODEL } from './helpers.js';

/** A v1model program whose ingress runs `statement` (line 11); `decls` go before the controls (line 6). */
const PROGRAM = (statement: string, decls = ''): string =>
  `${V1MODEL}header h_t { bit<8> a; bit<8> b; }
struct hs_t { h_t h; }
struct m_t { bit<8> x; }
${decls}
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) { state start { pk.extract(hdr.h); transition accept; } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        ${statement}
    }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
`;
const STATEMENT_LINE = 11;

function compile(text: string): CompileResult {
  return compileProgram('test.p4', { text, fileSystem: memoryFileSystem({ 'test.p4': text }, nodeFileSystem), dumpAfter: 'all' });
}

const sum = (terms: number): string => `hdr.h.b = ${Array<string>(terms).fill('hdr.h.a').join(' + ')};`;
/** `a ? b : c ? d : …` as C programmers write it: p4c (and we) group it to the left. */
const cStyleConditionals = (n: number): string => `hdr.h.b = ${Array<string>(n).fill('hdr.h.a == 1 ? 8w1 :').join(' ')} 8w0;`;
/** `c ? c ? c ? … 1 : 0 : 0 : 0`: each `?:` nested in the then-branch of the one before. */
const nestedConditionals = (n: number): string => `hdr.h.b = ${'hdr.h.a == 1 ? '.repeat(n)}8w1${' : 8w0'.repeat(n)};`;
const nestedIfs = (n: number): string => `${'if (hdr.h.a == 1) { '.repeat(n)}hdr.h.b = 1;${' }'.repeat(n)}`;
const nestedCalls = (n: number): string => `hdr.h.b = ${'f('.repeat(n)}hdr.h.a${')'.repeat(n)};`;
const F = 'bit<8> f(in bit<8> v) { return v; }';

/** The one diagnostic of a refused program, after checking nothing crashed. */
function refusal(result: CompileResult): Diagnostic {
  expect(result.diagnostics.filter((d) => d.id === 'InternalError')).toEqual([]);
  expect(result.ir).toBeNull();
  expect(result.diagnostics, codesAt(result.diagnostics).join(' ')).toHaveLength(1);
  return result.diagnostics[0]!;
}

describe('nesting past the limits is a diagnostic with a place, never a stack overflow', () => {
  it.each([
    ['a 1,644-term sum (the type checker overflowed)', sum(1644)],
    ['a 10,000-term sum', sum(10_000)],
    ['2,765 chained ?: (the type checker overflowed)', cStyleConditionals(2765)],
  ])('%s: P4C1219 at the start of the expression, naming the limit', (_, statement) => {
    const d = refusal(compile(PROGRAM(statement)));
    expect(codesAt([d])).toEqual([`P4C1219@${STATEMENT_LINE}:19`]);
    expect(d.message).toContain(`more than ${MAX_NESTING} levels deep`);
    expect(d.message).toContain('a + b + c');
    expect(d.message).toContain('local variables');
  });

  it.each([
    ['6,224 ?: nested in their then-branches (the parser overflowed)', nestedConditionals(6224)],
    ['300 nested ifs', nestedIfs(300)],
    ['a 300-deep tuple type', `tuple<${'tuple<'.repeat(300)}bit<8>${'>'.repeat(301)} t;`],
  ])('%s: P4C1218 where the limit is passed', (_, statement) => {
    const d = refusal(compile(PROGRAM(statement)));
    expect(d.code).toBe(1218);
    expect(d.span?.start.line).toBe(STATEMENT_LINE);
    expect(d.message).toBe(`nested more than ${MAX_NESTING} deep; simplify this code`);
  });

  it('refuses #if expressions nested past the limit instead of overflowing', () => {
    for (const expression of [`${'('.repeat(5000)}1${')'.repeat(5000)}`, `${'!'.repeat(5000)}1`, `${'1 ? '.repeat(3000)}1${' : 0'.repeat(3000)}`]) {
      const d = refusal(compile(`#if ${expression}\n#endif\n${PROGRAM('')}`));
      expect(codesAt([d])).toEqual(['P4C1110@1:2']);
      expect(d.message).toContain(`nested more than ${MAX_NESTING} levels deep`);
    }
    expect(compile(`#if ${'('.repeat(200)}1${')'.repeat(200)}\n#endif\n${PROGRAM('')}`).diagnostics).toEqual([]);
  });
});

describe('within the limits', () => {
  it('a 250-term sum compiles, loads in the switch and computes what arithmetic says', () => {
    const text = PROGRAM(sum(250));
    expect(compile(text).diagnostics).toEqual([]);
    const r = rig('limits-sum-250', [0, 1], { text });
    try {
      for (const a of [0, 1, 3, 200, 255]) {
        const frame = Buffer.alloc(20);
        frame[0] = a;
        r.send(0, frame);
        const [out] = r.take()[1] ?? [];
        expect(Buffer.from(out!, 'hex')[1]).toBe((a * 250) % 256);
      }
    } finally {
      void r.device.stop();
    }
  });

  it('100 nested calls of a function compile (the IR stays within the depth the switch loads) and run', () => {
    const text = PROGRAM(nestedCalls(100), F);
    const result = compile(text);
    expect(result.diagnostics).toEqual([]);
    expect(irDepth(result.ir)).toBeLessThanOrEqual(IR_MAX_DEPTH);
    const r = rig('limits-calls-100', [0, 1], { text });
    try {
      r.send(0, Buffer.from('2a00000000000000000000000000', 'hex'));
      expect(Buffer.from(r.take()[1]![0]!, 'hex')[1]).toBe(0x2a);
    } finally {
      void r.device.stop();
    }
  });

  it('150 nested calls are within the tree limit, but their IR is deeper than the switch loads: P4C5004 at the innermost call', () => {
    const d = refusal(compile(PROGRAM(nestedCalls(150), F)));
    expect(d.code).toBe(5004);
    expect(d.message).toMatch(new RegExp(`^'I' nests \\d+ levels deep in the pipeline IR, and the switch loads at most ${IR_MAX_DEPTH}`));
    expect(d.span?.start.line).toBe(STATEMENT_LINE);
  });
});

/** Runs `f` with `frames` calls already on the stack, as when the compiler is called from deep in a server. */
function withStackUsed<T>(frames: number, f: () => T): T {
  return frames === 0 ? f() : withStackUsed(frames - 1, f);
}

describe('just within the limits, every construct goes through every pass (dumps included)', () => {
  const n = MAX_NESTING - 6;
  it.each([
    ['a sum', sum(n)],
    ['nested calls', nestedCalls(n), F],
    ['nested casts', `hdr.h.b = ${'(bit<8>)'.repeat(n)}hdr.h.a;`],
    ['nested negations', `hdr.h.b = ${'-'.repeat(n)}hdr.h.a;`],
    ['?: nested in else-branches', `hdr.h.b = ${'hdr.h.a == 1 ? 8w1 : ('.repeat(n / 2)}8w0${')'.repeat(n / 2)};`],
    ['?: nested in then-branches', nestedConditionals(n / 2)],
    ['nested ifs', `${'if (hdr.h.a == 1) '.repeat(n)}hdr.h.b = 1;`],
    ['nested blocks', `${'{ '.repeat(n)}hdr.h.b = 1;${' }'.repeat(n)}`],
    ['nested switch statements', `${'switch (hdr.h.a) { 1: { '.repeat(n / 3)}hdr.h.b = 1;${' } }'.repeat(n / 3)}`],
    ['nested list expressions', `tuple<bit<8>> t = ${'{ '.repeat(n)}1${' }'.repeat(n)};`],
    ['a nested tuple type', `tuple<${'tuple<'.repeat(n)}bit<8>${'>'.repeat(n + 1)} t;`],
    ['nested slices', `hdr.h.b = ${'('.repeat(n)}hdr.h.a${')[7:0]'.repeat(n)};`],
  ])('%s', (_, statement, decls?: string) => {
    const result = withStackUsed(2000, () => compile(PROGRAM(statement, decls)));
    // Some are refused (types, or an IR the switch would not load); none may crash a pass.
    expect(result.diagnostics.filter((d) => d.id === 'InternalError')).toEqual([]);
    if (result.ir) expect(irDepth(result.ir)).toBeLessThanOrEqual(IR_MAX_DEPTH);
  });
});

describe('the switch against IR depth', () => {
  const bits8 = { kind: 'bits', width: 8, signed: false } as const;

  /** The compiled `hdr.h.b = hdr.h.a` with the value replaced by `a + a + … + a` of `terms` terms. */
  function chainIr(base: IrProgram, terms: number): IrProgram {
    const ir = structuredClone(base) as { blocks: { name: string; apply: { kind: string; value?: IrExpression }[] }[] } & IrProgram;
    const assign = ir.blocks.find((b) => b.name === 'I')!.apply.find((st) => st.kind === 'assign' && st.value?.op === 'field')!;
    const leaf = assign.value!;
    let value: IrExpression = leaf;
    for (let i = 1; i < terms; i++) value = { op: 'binary', operator: '+', type: bits8, left: value, right: leaf };
    assign.value = value;
    return ir;
  }

  it('compiles and runs an expression as deep as IR_MAX_DEPTH allows, and refuses one level more (never a stack overflow)', () => {
    const program = compileCorpus('limits-ir-depth', PROGRAM('hdr.h.b = hdr.h.a;'));
    let terms = 1;
    while (irDepth(chainIr(program.ir, terms + 1)) <= IR_MAX_DEPTH) terms++;
    expect(terms).toBeGreaterThan(IR_MAX_DEPTH - 16);
    const port = new CapturePort(1);
    const device = new SwitchDevice({ ports: new PortSet([new CapturePort(0), port]) });
    try {
      expect(() => device.loadPipeline(program.p4info, JSON.stringify(chainIr(program.ir, terms + 1)))).toThrow(/nests deeper than 512 levels/);
      device.loadPipeline(program.p4info, JSON.stringify(chainIr(program.ir, terms)));
      const frame = Buffer.alloc(20);
      frame[0] = 3;
      (device.ports.get(0) as CapturePort).inject(frame);
      expect(port.sent.map((f) => f[1])).toEqual([(3 * terms) % 256]);
    } finally {
      void device.stop();
    }
  });
});

describe('widths', () => {
  it.each([
    ['bit<8w256>', 'the width 8w256 does not fit in its own 8 bits (it would be 0); write it without a size, e.g. bit<256>'],
    ['int<4s8>', 'the width 4s8 does not fit in its own 4 bits (it would be -8); write it without a size, e.g. int<8>'],
    ['varbit<8w300>', 'the width 8w300 does not fit in its own 8 bits (it would be 44); write it without a size, e.g. varbit<300>'],
  ])('%s is refused (it used to become a narrower type without a word): P4C3022 at the type', (type, message) => {
    const d = refusal(compile(PROGRAM('', `header w_t { ${type} f; }`)));
    expect(codesAt([d])).toEqual(['P4C3022@6:14']);
    expect(d.message).toBe(message);
  });

  it.each([
    ['bit<2049>', 'P4C3011@6:14'],
    ['varbit<4096>', 'P4C3011@6:14'],
    ['int<0>', 'P4C3011@6:14'],
  ])('%s is out of range: P4C3011', (type, expected) => {
    expect(codesAt([refusal(compile(PROGRAM('', `header w_t { ${type} f; }`)))])).toEqual([expected]);
  });

  it('takes bit<8w255> as bit<255>, and bit<0> (p4c takes it too)', () => {
    const result = compile(PROGRAM('', 'header w_t { bit<8w255> f; bit<0> z; }\nstruct ws_t { w_t w; }'));
    expect(result.diagnostics).toEqual([]);
  });
});

/** A table `t` of ingress with `properties`, and what `tableAnnotations` and the action `a` carry. */
const TABLE = (properties: string, annotations = '', actionAnnotations = '', param = ''): string =>
  PROGRAM('t.apply();').replace(
    'control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {',
    `control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {\n    ${actionAnnotations} action a(${param}) { }\n    ${annotations} table t { key = { hdr.h.a: exact; } actions = { a; } ${properties} }`,
  );
/** The line of the action and the table in TABLE. */
const ACTION_LINE = 9;
const TABLE_LINE = 10;

describe('table sizes, as p4c takes them', () => {
  it('size = 0 is the default size, 1024, in P4Info and IR, with a warning (p4c gives 1024 silently)', () => {
    const result = compile(TABLE('size = 0;'));
    expect(codesAt(result.diagnostics)).toEqual([`P4C9005@${TABLE_LINE}:66`]);
    expect(result.diagnostics[0]!.message).toBe("size = 0 gives table 't' the default size, 1024, as p4c does; give the size you want, or leave 'size' out");
    expect(result.p4info!.tables![0]!.size).toBe('1024');
    expect(result.ir!.tables[0]!.size).toBe(1024);
  });

  it('takes 2^31-1, the largest size p4c takes', () => {
    const result = compile(TABLE('size = 2147483647;'));
    expect(result.diagnostics).toEqual([]);
    expect(result.p4info!.tables![0]!.size).toBe('2147483647');
  });

  it.each([
    ['2^31', '2147483648'],
    ['2^53 + 1', '9007199254740993'],
    ['2^64', '18446744073709551616'],
  ])('refuses %s (p4c: "Value too large for int"): P4C4033 at the size', (_, size) => {
    const d = refusal(compile(TABLE(`size = ${size};`)));
    expect(codesAt([d])).toEqual([`P4C4033@${TABLE_LINE}:66`]);
    expect(d.message).toContain(`table size ${size} is more than 2147483647`);
  });

  it('refuses a negative size, which switches refuse: P4C4002', () => {
    expect(codesAt([refusal(compile(TABLE('size = -5;')))])).toEqual([`P4C4002@${TABLE_LINE}:66`]);
  });
});

describe('@id, as p4c reads it', () => {
  const TABLE_PREFIX = 0x02;

  it.each([
    ['@id(5)', (TABLE_PREFIX << 24) | 5],
    ['@id(0x02000007)', (TABLE_PREFIX << 24) | 7],
    ['@id(0)', TABLE_PREFIX << 24],
    ['@id(32w9)', (TABLE_PREFIX << 24) | 9],
  ])('%s on a table: the low 24 bits get the table prefix, and the switch loads it', (annotation, id) => {
    const text = TABLE('', annotation);
    const result = compile(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.p4info!.tables![0]!.preamble!.id).toBe(id);
    const r = rig(`limits-id-${id}`, [0, 1], { text });
    void r.device.stop();
  });

  it('refuses another kind\'s prefix: P4C4035 at the annotation', () => {
    const d = refusal(compile(TABLE('', '@id(0x01000007)')));
    expect(codesAt([d])).toEqual([`P4C4035@${TABLE_LINE}:5`]);
    expect(d.message).toBe("@id(0x01000007) of table 'I.t' has the top byte 0x01, but table ids start with 0x02: give only the low 24 bits (the prefix is added, as p4c does) or the right prefix");
  });

  it.each([['4294967296'], ['-1'], ['"seven"'], ['1, 2'], ['']])('refuses @id(%s), not a 32-bit unsigned integer: P4C4034', (body) => {
    const d = refusal(compile(TABLE('', `@id(${body})`)));
    expect(codesAt([d])).toEqual([`P4C4034@${TABLE_LINE}:5`]);
  });

  it('refuses one @id on two actions, at the second: P4C4037', () => {
    const text = TABLE('', '', '@id(3)').replace('action a() { }', 'action a() { }\n    @id(3) action b() { }').replace('actions = { a; }', 'actions = { a; b; }');
    const d = refusal(compile(text));
    expect(codesAt([d])).toEqual([`P4C4037@${ACTION_LINE + 1}:5`]);
    expect(d.message).toBe('@id 0x01000003 is given twice, among actions I.a and I.b; give each its own id (p4c refuses it too)');
  });

  it('refuses @id(0) on an action parameter (p4c: "0 is not a valid @id value"): P4C4036', () => {
    const d = refusal(compile(TABLE('', '', '', '@id(0) bit<8> v')));
    expect(codesAt([d])).toEqual([`P4C4036@${ACTION_LINE}:15`]);
  });

  it('refuses one @id on two match fields: P4C4037', () => {
    const text = TABLE('').replace('key = { hdr.h.a: exact; }', 'key = { hdr.h.a: exact @id(2); hdr.h.b: exact @id(2); }');
    expect(codesAt([refusal(compile(text))])).toEqual([`P4C4037@${TABLE_LINE}:62`]);
  });
});

describe('types nested through their declarations', () => {
  /** `struct s0 { bit<8> a; } struct s1 { s0 f; } …` and metadata holding the last. */
  const chain = (n: number, via: 'struct' | 'typedef' = 'struct'): string => {
    let decls = 'struct s0 { bit<8> a; }\n';
    for (let i = 1; i < n; i++) decls += via === 'typedef' && i % 2 === 0 ? `typedef s${i - 1} s${i};\n` : `struct s${i} { s${i - 1} f; }\n`;
    return decls;
  };

  // A typedef adds no level: the 257th struct of the alternating chain is s511.
  it.each([
    ['3,000 structs each holding the last (lower-to-ir overflowed)', chain(3000), 's256'],
    ['structs and typedefs alternating, 600 deep', chain(600, 'typedef'), 's511'],
    ['tuples of tuples through typedefs', `typedef tuple<bit<8>> t0;\n${Array.from({ length: 300 }, (_, i) => `typedef tuple<t${i}> t${i + 1};`).join('\n')}\n`, 't256'],
  ])('%s: P4C3023 at the first declaration past the limit', (_, decls, name) => {
    const d = refusal(compile(PROGRAM('', decls)));
    expect(d.code).toBe(3023);
    expect(d.message).toMatch(new RegExp(`^type '${name}' nests more than ${MAX_NESTING} levels deep`));
  });

  it('structs nested 250 deep compile, load in the switch and carry a value through', () => {
    const n = MAX_NESTING - 6;
    const path = `m.deep${'.f'.repeat(n - 1)}.a`;
    const text = PROGRAM(`${path} = hdr.h.a; hdr.h.b = ${path} + 1;`, `${chain(n)}struct deep_t { s${n - 1} deep; }`).replace('struct m_t { bit<8> x; }\n', '').replace(
      `${chain(n)}struct deep_t { s${n - 1} deep; }`,
      `${chain(n)}struct m_t { s${n - 1} deep; }`,
    );
    expect(compile(text).diagnostics).toEqual([]);
    const r = rig('limits-struct-chain', [0, 1], { text });
    try {
      r.send(0, Buffer.from('0900000000000000000000000000', 'hex'));
      expect(Buffer.from(r.take()[1]![0]!, 'hex')[1]).toBe(10);
    } finally {
      void r.device.stop();
    }
  });
});

describe('sizes the switch would refuse', () => {
  it('refuses a header stack larger than the switch takes (4096): P4C3024', () => {
    const d = refusal(compile(PROGRAM('', 'struct big_t { h_t[4097] s; }')));
    expect(codesAt([d])).toEqual(['P4C3024@6:20']);
    expect(d.message).toBe('a header stack of 4097 elements is more than the switch takes (4096): every packet carries all of them');
    expect(compile(PROGRAM('', 'struct big_t { h_t[4096] s; }')).diagnostics).toEqual([]);
  });

  it.each([['2147483648'], ['-1']])('refuses value_set size %s, which P4Info cannot hold: P4C4038', (size) => {
    const text = PROGRAM('').replace(
      'parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) { state start {',
      `parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) { value_set<bit<8>>(${size}) vs; state start { transition select(hdr.h.a) { vs: accept; default: accept; } } state unused {`,
    );
    expect(refusal(compile(text)).code).toBe(4038);
  });
});

describe('compile-time integers', () => {
  /** `const int c0 = base; const int c1 = c0 * c0; …` (each constant uses the last twice). */
  const squares = (n: number, base: string): string => {
    let decls = `const int c0 = ${base};\n`;
    for (let i = 1; i < n; i++) decls += `const int c${i} = c${i - 1} * c${i - 1};\n`;
    return decls;
  };

  it('refuses an integer past 65,536 bits once, where it first appears (squaring 2^4096 forty times took 26 s and ended in "Maximum BigInt size exceeded")', () => {
    const d = refusal(compile(PROGRAM(`hdr.h.b = (bit<8>)c39;`, squares(40, '1 << 4096'))));
    expect(d.code).toBe(3025);
    expect(d.message).toBe('this compile-time integer needs more than 65536 bits; no width is that large (they stop at 2048)');
    // c0 is 2^4096 (4,097 bits), so c4 is 2^65536 (65,537 bits), the first past the limit: the fifth declaration.
    expect(d.span?.start.line).toBe(6 + 4);
  });

  it('evaluates a failed constant once: forty constants each using the last twice, from one that is not constant', () => {
    const result = compile(PROGRAM(`hdr.h.b = (bit<8>)c39;`, squares(40, '1 / 0')));
    expect(result.diagnostics.filter((d) => d.id === 'InternalError')).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(Array<number>(40).fill(3007));
  });
});

describe('includes', () => {
  it('stops after 4,096 inclusions in all: files each including the next twice, 30 deep, would be read 2^30 times (20 deep took 69 s)', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${i}.p4`] = `#include "f${i + 1}.p4"\n#include "f${i + 1}.p4"\n`;
    files['f30.p4'] = '';
    const text = `${V1MODEL}#include "f0.p4"\n${PROGRAM('').slice(V1MODEL.length)}`;
    const result = compileProgram('test.p4', { text, fileSystem: memoryFileSystem({ ...files, 'test.p4': text }, nodeFileSystem) });
    expect(result.diagnostics.map((d) => d.code)).toEqual([1119]);
    expect(result.diagnostics[0]!.message).toContain('more than 4096 files are included in all');
  });
});
