// The preprocessor: includes ("..." and <...>, -I, cycles, guards),
// macros (object- and function-like, -D), conditionals, and positions
// carried through includes and macro expansion.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultLibraryDir,
  DiagnosticBag,
  formatDiagnostics,
  memoryFileSystem,
  preprocess,
  SourceRegistry,
  TokenKind,
  type PreprocessOptions,
  type Token,
} from '../../src/p4c/index.js';
import { codesAt } from './helpers.js';

function run(files: Record<string, string>, main: string, options: PreprocessOptions = {}) {
  const sources = new SourceRegistry();
  const diagnostics = new DiagnosticBag(sources);
  const tokens = preprocess(main, { fileSystem: memoryFileSystem(files), libraryDir: '/lib', ...options }, { sources, diagnostics });
  const body = tokens.filter((t) => t.kind !== TokenKind.EndOfFile);
  return { tokens: body, text: body.map((t) => t.text).join(' '), diagnostics: diagnostics.all(), sources };
}

const at = (token: Token): string => `${token.span.file}:${token.span.start.line}:${token.span.start.column}`;

describe('#include', () => {
  it('finds "file" relative to the including file, and carries each file\'s positions', () => {
    const r = run(
      {
        'src/main.p4': 'a\n#include "inc/b.p4"\nd',
        'src/inc/b.p4': '\n  b\n#include "../c.p4"',
        'src/c.p4': 'c',
      },
      'src/main.p4',
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.tokens.map(at)).toEqual(['src/main.p4:1:1', 'src/inc/b.p4:2:3', 'src/c.p4:1:1', 'src/main.p4:3:1']);
  });

  it('finds <file> in -I directories before the library, and marks library files', () => {
    const files = { 'main.p4': '#include <core.p4>\n#include <x.p4>', '/lib/core.p4': 'library_core', 'inc/x.p4': 'user_x' };
    const r = run(files, 'main.p4', { includeDirs: ['inc'] });
    expect(r.text).toBe('library_core user_x');
    expect(r.sources.libraryFiles()).toEqual(new Map([['/lib/core.p4', { name: 'core.p4', defines: [] }]]));
    const overridden = run({ ...files, 'inc/core.p4': 'my_core' }, 'main.p4', { includeDirs: ['inc'] });
    expect(overridden.text).toBe('my_core user_x');
  });

  it('does not look next to the including file for <file>', () => {
    const r = run({ 'main.p4': '#include <x.p4>', 'x.p4': 'x' }, 'main.p4');
    expect(codesAt(r.diagnostics)).toEqual(['P4C1101@1:10']);
    expect(r.diagnostics[0]!.message).toBe("cannot find include file 'x.p4' (searched /lib)");
  });

  it('reports a missing file at the file name', () => {
    const r = run({ 'main.p4': 'a\n#include "nope.p4"\nb' }, 'main.p4');
    expect(codesAt(r.diagnostics)).toEqual(['P4C1101@2:10']);
    expect(r.text).toBe('a b');
  });

  it('reports an include cycle with the chain of files, once', () => {
    const r = run({ 'a.p4': 'a1\n#include "b.p4"\na2', 'b.p4': 'b1\n#include "a.p4"\nb2' }, 'a.p4');
    expect(codesAt(r.diagnostics)).toEqual(['P4C1102@2:10']);
    expect(r.diagnostics[0]!.message).toBe('include cycle: a.p4 -> b.p4 -> a.p4');
    expect(r.diagnostics[0]!.span!.file).toBe('b.p4');
    expect(r.text).toBe('a1 b1 b2 a2');
  });

  it('honours include guards and #pragma once', () => {
    const files = {
      'main.p4': '#include "g.p4"\n#include "g.p4"\n#include "o.p4"\n#include "o.p4"',
      'g.p4': '#ifndef G\n#define G\nguarded\n#endif',
      'o.p4': '#pragma once\nonce',
    };
    const r = run(files, 'main.p4');
    expect(r.diagnostics).toEqual([]);
    expect(r.text).toBe('guarded once');
  });

  it('rejects a malformed #include', () => {
    expect(codesAt(run({ 'main.p4': '#include foo' }, 'main.p4').diagnostics)).toEqual(['P4C1104@1:2']);
  });

  it('finds our own core.p4 and v1model.p4 by default', () => {
    const sources = new SourceRegistry();
    const diagnostics = new DiagnosticBag(sources);
    const tokens = preprocess('main.p4', { fileSystem: memoryFileSystem({}, undefined) }, { sources, diagnostics }, '#include <v1model.p4>');
    void tokens;
    // The memory file system has no library: the search path names the real library directory.
    expect(diagnostics.all()[0]!.message).toContain(defaultLibraryDir());
    expect(path.basename(defaultLibraryDir())).toBe('lib');
  });
});

describe('#define', () => {
  it('expands object-like macros, nested ones, and stops at self-reference', () => {
    const r = run({ 'm.p4': '#define N 8\n#define TWO_N (N * 2)\n#define X X + 1\nbit<TWO_N> x = X;' }, 'm.p4');
    expect(r.diagnostics).toEqual([]);
    expect(r.text).toBe('bit < ( 8 * 2 ) > x = X + 1 ;');
  });

  it('expands function-like macros with expanded arguments', () => {
    const r = run({ 'm.p4': '#define N 3\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n#define NONE() 0\nMAX(N, f(1, 2)) NONE() MAX' }, 'm.p4');
    expect(r.diagnostics).toEqual([]);
    expect(r.text).toBe('( ( 3 ) > ( f ( 1 , 2 ) ) ? ( 3 ) : ( f ( 1 , 2 ) ) ) 0 MAX');
  });

  it('reports the wrong number of arguments and an unterminated call', () => {
    expect(codesAt(run({ 'm.p4': '#define F(a, b) a\nF(1)' }, 'm.p4').diagnostics)).toEqual(['P4C1112@2:1']);
    expect(codesAt(run({ 'm.p4': '#define F(a) a\nF(1' }, 'm.p4').diagnostics)).toEqual(['P4C1113@2:1']);
  });

  it('does not support # and ##', () => {
    const r = run({ 'm.p4': '#define S(x) #x\n#define P(a, b) a ## b' }, 'm.p4');
    expect(codesAt(r.diagnostics)).toEqual(['P4C5001@1:14', 'P4C5001@2:19']);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      "unsupported: the '#' operator in macro bodies",
      "unsupported: the '##' operator in macro bodies",
    ]);
  });

  it('undefines, and warns about a different redefinition with the previous one as a note', () => {
    const r = run({ 'm.p4': '#define A 1\n#define A 1\n#define A 2\nA\n#undef A\nA' }, 'm.p4');
    expect(r.text).toBe('2 A');
    expect(codesAt(r.diagnostics)).toEqual(['P4C9004@3:9']);
    expect(r.diagnostics[0]!.severity).toBe('warning');
    expect(r.diagnostics[0]!.related).toMatchObject([{ message: 'previous definition', span: { start: { line: 2, column: 9 } } }]);
  });

  it('takes -D NAME and -D NAME=VALUE, as a list or a record', () => {
    const r = run({ 'm.p4': 'A B' }, 'm.p4', { defines: ['A', 'B=x + 1'] });
    expect(r.text).toBe('1 x + 1');
    expect(r.sources.lineText('<command-line>', 2)).toBe('B x + 1');
    expect(run({ 'm.p4': 'A' }, 'm.p4', { defines: { A: '42' } }).text).toBe('42');
    expect(codesAt(run({ 'm.p4': '' }, 'm.p4', { defines: ['1A=2'] }).diagnostics)).toEqual(['P4C1116@-']);
  });

  it('stops a macro bomb with a diagnostic', () => {
    const bomb = Array.from({ length: 30 }, (_, i) => `#define M${i} M${i + 1} M${i + 1}`).join('\n');
    const r = run({ 'm.p4': `${bomb}\nM0` }, 'm.p4');
    expect(r.diagnostics.map((d) => d.id)).toEqual(['MacroExpansionTooLarge']);
  });

  it('gives expanded tokens the position of the use and names the macro', () => {
    const r = run({ 'm.p4': '#define W 8\n\nbit<W>' }, 'm.p4');
    const w = r.tokens[2]!;
    expect(w.text).toBe('8');
    expect(at(w)).toBe('m.p4:3:5');
    expect(w.span.expandedFrom).toMatchObject({ macro: 'W', definedAt: { file: 'm.p4', start: { line: 1, column: 11 } } });
  });
});

describe('conditionals', () => {
  const cond = (text: string, options: PreprocessOptions = {}) => run({ 'c.p4': text }, 'c.p4', options);

  it('evaluates #if with C operators and defined()', () => {
    const r = cond('#define A 3\n#if (A + 2) * 3 == 15 && !defined(B) && defined A\nyes\n#else\nno\n#endif');
    expect(r.diagnostics).toEqual([]);
    expect(r.text).toBe('yes');
  });

  it('takes the first true branch of #if/#elif/#else', () => {
    const text = '#if V == 1\none\n#elif V == 2\ntwo\n#elif V >= 2\nmany\n#else\nnone\n#endif';
    expect(cond(text, { defines: ['V=1'] }).text).toBe('one');
    expect(cond(text, { defines: ['V=2'] }).text).toBe('two');
    expect(cond(text, { defines: ['V=7'] }).text).toBe('many');
    expect(cond(text).text).toBe('none');
  });

  it('handles #ifdef/#ifndef and nesting inside skipped text', () => {
    const r = cond('#ifdef X\n#if 1\na\n#else\nb\n#endif\n#bogus\n#else\n#ifndef X\nc\n#endif\n#endif');
    expect(r.diagnostics).toEqual([]);
    expect(r.text).toBe('c');
  });

  it('ignores lexical junk in skipped text', () => {
    const r = cond('#if 0\n$ \'not p4\' "\n#endif\nok');
    expect(r.diagnostics).toEqual([]);
    expect(r.text).toBe('ok');
  });

  it('reports unbalanced conditionals', () => {
    expect(codesAt(cond('#if 1\na').diagnostics)).toEqual(['P4C1107@1:2']);
    expect(codesAt(cond('#endif').diagnostics)).toEqual(['P4C1108@1:2']);
    expect(codesAt(cond('#else').diagnostics)).toEqual(['P4C1108@1:2']);
    expect(codesAt(cond('#if 1\n#else\n#else\n#endif').diagnostics)).toEqual(['P4C1109@3:2']);
    expect(codesAt(cond('#if 1\n#else\n#elif 1\n#endif').diagnostics)).toEqual(['P4C1109@3:2']);
  });

  it('reports bad #if expressions', () => {
    const r = cond('#if 1 +\n#endif\n#if 1 / 0\n#endif\n#if defined(\n#endif');
    expect(codesAt(r.diagnostics)).toEqual(['P4C1110@1:2', 'P4C1110@3:2', 'P4C1110@5:2']);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'invalid #if expression: the expression ends too early',
      'invalid #if expression: division by zero',
      "invalid #if expression: malformed 'defined'",
    ]);
  });

  it('handles #error, #warning, #pragma, #line and unknown directives', () => {
    const r = cond('#error stop "here"\n#warning careful\n#pragma foo\n#line 5\n#frobnicate\n#\nx # y');
    expect(codesAt(r.diagnostics)).toEqual(['P4C1111@1:2', 'P4C9003@2:2', 'P4C9001@3:2', 'P4C9001@4:2', 'P4C1105@5:2', 'P4C1001@7:3']);
    expect(r.diagnostics[0]!.message).toBe('#error stop "here"');
    // A stray '#' is reported once and stays as an invalid token, so the parser does not report it again.
    expect(r.text).toBe('x # y');
    expect(r.tokens[1]!.kind).toBe(TokenKind.Invalid);
  });

  it('reports lexical problems in compiled text with the source line', () => {
    const r = cond('bit<8> x = 12ab;');
    expect(formatDiagnostics(r.diagnostics)).toBe(
      "c.p4:1:12: error P4C1004: invalid integer literal '12ab': unexpected characters after the digits\n" +
        'bit<8> x = 12ab;\n' +
        '           ^~~~\n',
    );
  });
});

describe('library configuration', () => {
  it('records the program macros a library file consulted', () => {
    const files = {
      'main.p4': '#define VERSION 2\n#include <lib.p4>',
      '/lib/lib.p4': '#ifndef LIB_GUARD\n#define LIB_GUARD\n#if VERSION >= 2\nnew\n#endif\n#endif',
    };
    const r = run(files, 'main.p4');
    expect(r.text).toBe('new');
    expect(r.sources.libraryFiles().get('/lib/lib.p4')).toEqual({ name: 'lib.p4', defines: ['VERSION 2'] });
  });
});
