// The diagnostic catalogue, the bag, and the rendered text (golden:
// test/golden/diagnostics/rendering.txt).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  caretLine,
  codeString,
  DIAGNOSTIC_CATALOGUE,
  DiagnosticBag,
  formatDiagnostics,
  SourceRegistry,
  type SourceSpan,
} from '../../src/p4c/index.js';
import { expectGolden, parseFiles } from './helpers.js';

describe('the catalogue', () => {
  const entries = Object.entries(DIAGNOSTIC_CATALOGUE);

  it('gives every entry a unique code', () => {
    const codes = entries.map(([, d]) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('keeps codes in their reserved ranges', () => {
    for (const [name, d] of entries) {
      const range = Math.floor(d.code / 1000);
      if (d.severity === 'warning') expect(range, name).toBe(9);
      else expect([1, 2, 3, 4, 5, 8], name).toContain(range);
    }
  });

  it('has no entry that nothing reports (a retired one stays as a comment, its number unused)', () => {
    const dir = path.join(import.meta.dirname, '../../src/p4c');
    const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('catalogue.ts'))
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    expect(entries.map(([name]) => name).filter((name) => !sources.includes(`'${name}'`))).toEqual([]);
  });

  it('prints codes as P4C and four digits', () => {
    expect(codeString(1201)).toBe('P4C1201');
    expect(codeString(42)).toBe('P4C0042');
  });
});

describe('DiagnosticBag', () => {
  const span = (line: number, column: number, length: number): SourceSpan => ({
    file: 'a.p4',
    start: { line, column, offset: 0 },
    end: { line, column: column + length, offset: length },
  });

  it('fills templates, counts by severity and quotes the source line', () => {
    const sources = new SourceRegistry();
    sources.add('a.p4', 'first line\n\tsecond line\n');
    const bag = new DiagnosticBag(sources);
    const d = bag.report('ExpectedToken', span(2, 2, 6), ["';'", "name 'second'"]);
    bag.report('IgnoredDirective', span(1, 1, 5), ['line']);
    expect(d).toMatchObject({ code: 1201, severity: 'error', message: "expected ';', found name 'second'", sourceLine: '\tsecond line' });
    expect([bag.errorCount, bag.warningCount, bag.hasErrors()]).toEqual([1, 1, true]);
  });

  it('underlines the span, keeping tabs so the caret lines up', () => {
    expect(caretLine(span(1, 3, 4), 'ab cdef')).toBe('  ^~~~');
    expect(caretLine(span(1, 3, 0), '\tbcd')).toBe('\t ^');
    const multiLine: SourceSpan = { file: 'a.p4', start: { line: 1, column: 5, offset: 4 }, end: { line: 3, column: 2, offset: 30 } };
    expect(caretLine(multiLine, 'abcdefgh')).toBe('    ^~~~');
  });
});

describe('rendered diagnostics', () => {
  it('match the golden text: position, code, source line, caret, notes', () => {
    const files = {
      'main.p4': [
        '#include <core.p4>',
        '#include <v1model.p4>',
        '#define WIDTH 8 +',
        '#define WIDTH 16',
        '#define BAD_SIZE (4 +)',
        'header h_t {',
        '\tbit<8> tabbed',
        '}',
        'control C(inout h_t h) {',
        '    register<bit<WIDTH>>(BAD_SIZE) r;',
        '    apply {',
        '        h.tabbed = 0x1g;',
        '    }',
        '}',
        '#warning this program is broken on purpose',
        '',
      ].join('\n'),
    };
    const { diagnostics } = parseFiles(files, 'main.p4');
    expectGolden('diagnostics/rendering.txt', formatDiagnostics(diagnostics));
  });
});
