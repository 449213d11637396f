// Broken programs: each reports the expected diagnostic code at the
// expected line:column, and nothing else; and recovery lets one run report
// every independent error in a file.
import { describe, expect, it } from 'vitest';
import { formatDiagnostics, type ControlDeclaration } from '../../src/p4c/index.js';
import { codesAt, parseText, V1MODEL } from './helpers.js';

const CONTROL = (body: string): string => `control C(inout bit<8> x, in bool a) {\n    apply {\n${body}\n    }\n}\n`;

/** [what is wrong, program, the one diagnostic expected as P4Cxxxx@line:col] */
const BROKEN: readonly (readonly [string, string, string])[] = [
  ['a field without its semicolon', 'header h_t {\n    bit<8> a\n    bit<8> b;\n}\n', 'P4C1201@2:13'],
  ['a control missing its closing brace', 'control C() {\n    apply {\n    }\n', 'P4C1201@3:6'],
  ['a number where a declaration belongs', 'header h_t { bit<8> a; }\n123;\n', 'P4C1202@2:1'],
  ['a constant without =', 'const bit<8> X 5;\n', 'P4C1201@1:16'],
  ['a number where a field type belongs', 'struct s {\n    5 x;\n}\n', 'P4C1204@2:5'],
  ['a table without properties', 'control C() {\n    table t { }\n    apply { }\n}\n', 'P4C1212@2:11'],
  ['a number where a table property belongs', 'control C() {\n    table t {\n        size = 4;\n        5 = 3;\n    }\n    apply { }\n}\n', 'P4C1207@4:9'],
  ['a key without a match kind', 'control C(in bit<8> f) {\n    table t {\n        key = { f; }\n    }\n    apply { }\n}\n', 'P4C1201@3:18'],
  ['a parser without states', 'parser P() {\n}\n', 'P4C1211@1:8'],
  ['a select case without a colon', 'parser P(in bit<8> x) {\n    state start {\n        transition select(x) {\n            1 accept;\n        }\n    }\n}\n', 'P4C1201@4:15'],
  ['a select case without a keyset', 'parser P(in bit<8> x) {\n    state start {\n        transition select(x) {\n            : accept;\n        }\n    }\n}\n', 'P4C1217@4:13'],
  ['a missing operand', CONTROL('        x = 1 + ;'), 'P4C1203@3:17'],
  ['an assignment to a call', CONTROL('        f() = 1;'), 'P4C1210@3:9'],
  ['an expression as a statement', CONTROL('        x + 1;'), 'P4C1214@3:9'],
  ['a switch in a parser state', 'parser P(in bit<8> x) {\n    state start {\n        switch (x) { }\n        transition accept;\n    }\n}\n', 'P4C1216@3:9'],
  ['a control without apply', 'control C() {\n    action a() { }\n}\n', 'P4C1213@1:9'],
  ['a type used as a value', 'header h_t { bit<8> a; }\n' + CONTROL('        x = h_t;'), 'P4C1209@4:13'],
  ['an unclosed parenthesis', CONTROL('        if (a {\n        }'), 'P4C1201@3:15'],
  ['a variable at the top level', 'bit<8> counter_value;\n', 'P4C1215@1:8'],
  ['a width without a value', 'const bit<8> X = 8w;\n', 'P4C1004@1:18'],
  ['an include that does not exist', '#include "headers.p4"\n', 'P4C1101@1:10'],
  ['an #ifdef without #endif', '#ifdef DEBUG\nconst bit<8> X = 1;\n', 'P4C1107@1:2'],
  ['a declaration as an if branch', CONTROL('        if (a) bit<8> y;'), 'P4C1215@3:16'],
  ['an else without an if', CONTROL('        else { }'), 'P4C1205@3:9'],
  ['a parameter without a name', 'action a(bit<8>) { }\n', 'P4C1206@1:16'],
  ['an entry without an action', 'control C(in bit<8> f) {\n    action a() { }\n    table t {\n        key = { f: exact; }\n        actions = { a; }\n        const entries = {\n            1: ;\n        }\n    }\n    apply { }\n}\n', 'P4C1206@7:16'],
  ['a stray closing brace', 'const bit<8> X = 1;\n}\n', 'P4C1202@2:1'],
  ['a character that is not P4', 'const bit<8> X = 1 $ 2;\n', 'P4C1001@1:20'],
  ['a missing semicolon before }', 'control C(inout bit<8> x) {\n    apply { x = 1 }\n}\n', 'P4C1201@2:19'],
  ['type arguments left open', V1MODEL + 'control C() {\n    register<bit<8>(4) r;\n    apply { }\n}\n', 'P4C1201@4:20'],
  ['a local after the first parser state', 'parser P() {\n    state start { transition accept; }\n    bit<8> late;\n}\n', 'P4C1215@3:12'],
  ['a # in the middle of a line', 'const bit<8> X = 1 # 2;\n', 'P4C1001@1:20'],
];

describe('syntax errors', () => {
  it('has at least twenty broken programs', () => {
    expect(BROKEN.length).toBeGreaterThanOrEqual(20);
  });

  it.each(BROKEN)('%s', (_what, source, expected) => {
    const { diagnostics, hasErrors } = parseText(source);
    expect(hasErrors).toBe(true);
    expect(codesAt(diagnostics)).toEqual([expected]);
    // The quoted line is the program's own line at the reported position.
    const line = Number(/@(\d+):/.exec(expected)![1]);
    expect(diagnostics[0]!.sourceLine).toBe(source.split('\n')[line - 1]);
  });
});

describe('recovery', () => {
  const SOURCE = `${V1MODEL}header h_t {
    bit<8> a
    bit<8> b;
}
struct m_t { h_t h; }
parser P(packet_in p, out m_t m) {
    state start {
        p.extract(m.h);
        transition select(m.h.a) {
            1 accept;
            default: reject;
        }
    }
}
control C(inout m_t m) {
    action a(bit<8> v) {
        m.h.a = v + ;
        m.h.b = v;
    }
    table t {
        key = { m.h.a: exact; }
        actions = { a; }
        5 = 3;
        size = 16;
    }
    apply {
        t.apply();
        m.h.a = (m.h.b;
    }
}
123;
const bit<8> LAST = 1;
`;

  it('reports every independent error of a file in one run', () => {
    const { diagnostics } = parseText(SOURCE);
    expect(codesAt(diagnostics)).toEqual([
      'P4C1201@4:13',
      'P4C1201@12:15',
      'P4C1203@19:21',
      'P4C1207@25:9',
      'P4C1201@30:23',
      'P4C1202@33:1',
    ]);
  });

  it('keeps what it could read around the errors', () => {
    const { ast } = parseText(SOURCE);
    const user = ast.declarations.filter((d) => d.span.file === 'test.p4');
    expect(user.map((d) => ('name' in d ? d.name.text : d.kind))).toEqual(['h_t', 'm_t', 'P', 'C', 'LAST']);
    const control = user[3] as ControlDeclaration;
    const [action, table] = control.locals;
    expect(action!.kind === 'ActionDeclaration' && action.body.body.map((s) => s.kind)).toEqual(['AssignmentStatement']);
    expect(table!.kind === 'TableDeclaration' && table.properties.map((p) => p.kind)).toEqual(['KeyProperty', 'ActionsProperty', 'ValueProperty']);
    expect(control.apply.body.map((s) => s.kind)).toEqual(['CallStatement']);
  });

  it('caps a flood of errors', () => {
    const { diagnostics } = parseText('1;\n'.repeat(50), { maxErrors: 10 });
    expect(diagnostics).toHaveLength(11);
    expect(diagnostics[10]!.message).toBe('too many errors; stopped reporting after 10');
  });

  it('reports an internal bug as a diagnostic, not a crash', () => {
    const broken = {
      readFile: () => {
        throw new Error('disk on fire');
      },
      isFile: () => true,
      normalize: (p: string) => p,
    };
    const { diagnostics } = parseText('#include "x.p4"\n', { fileSystem: broken });
    expect(formatDiagnostics(diagnostics)).toBe('error P4C8001: internal compiler error in parse: disk on fire\n');
  });
});

describe('pathological input', () => {
  it('reports nesting deeper than the parser allows, instead of overflowing the stack', () => {
    const depth = 2000;
    for (const source of [
      `const bit<8> X = ${'('.repeat(depth)}1${')'.repeat(depth)};`,
      `const bit<8> X = ${'-'.repeat(depth)}1;`,
      `control C() { apply { ${'{'.repeat(depth)}${'}'.repeat(depth)} } }`,
    ]) {
      const { diagnostics } = parseText(source);
      expect(diagnostics.map((d) => d.message)).toEqual(['nested more than 256 deep; simplify this code']);
    }
  });

  it('handles a file of several hundred thousand tokens', () => {
    const source = Array.from({ length: 30000 }, (_, i) => `const bit<8> C${i} = ${i % 256};`).join('\n');
    const { ast, diagnostics } = parseText(source);
    expect(diagnostics).toEqual([]);
    expect(ast.declarations).toHaveLength(30000);
  });
});
