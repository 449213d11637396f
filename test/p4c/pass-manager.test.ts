// The pass manager: order, stopping after the first pass with errors,
// internal errors as diagnostics, dumps, side tables, and the registered
// front-end passes.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CompileContext,
  frontEndPasses,
  PassManager,
  printProgram,
  runFrontEnd,
  SideTableKey,
  syntheticSpan,
  type Pass,
  type Program,
} from '../../src/p4c/index.js';
import { CORPUS_DIR, expectGolden } from './helpers.js';

const syntheticProgramForTest = (): Program => ({ kind: 'Program', declarations: [], span: syntheticSpan('test.p4') });
const context = (): CompileContext => new CompileContext({ path: 'none.p4', options: {} });

function recordingPass(name: string, log: string[], effect?: (ctx: CompileContext) => void): Pass {
  return {
    name,
    run(_program, ctx) {
      log.push(name);
      effect?.(ctx);
    },
  };
}

describe('PassManager', () => {
  it('runs passes in order and reports what completed', () => {
    const log: string[] = [];
    const manager = new PassManager([recordingPass('one', log), recordingPass('two', log)]);
    expect(manager.names()).toEqual(['one', 'two']);
    const result = manager.run(syntheticProgramForTest(), context());
    expect(log).toEqual(['one', 'two']);
    expect(result).toMatchObject({ completed: ['one', 'two'], stoppedAfter: null, dumps: [] });
  });

  it('stops after the first pass that reports an error; warnings do not stop it', () => {
    const log: string[] = [];
    const manager = new PassManager([
      recordingPass('warns', log, (ctx) => ctx.diagnostics.report('IgnoredDirective', null, ['x'])),
      recordingPass('fails', log, (ctx) => ctx.diagnostics.report('ExpectedDeclaration', null, ['x'])),
      recordingPass('never', log),
    ]);
    const ctx = context();
    const result = manager.run(syntheticProgramForTest(), ctx);
    expect(log).toEqual(['warns', 'fails']);
    expect(result).toMatchObject({ completed: ['warns', 'fails'], stoppedAfter: 'fails' });
    expect(ctx.diagnostics.errorCount).toBe(1);
  });

  it('turns an exception in a pass into an internal-error diagnostic and stops', () => {
    const log: string[] = [];
    const manager = new PassManager([
      { name: 'buggy', run: () => { throw new TypeError('oops'); } },
      recordingPass('never', log),
    ]);
    const ctx = context();
    const result = manager.run(syntheticProgramForTest(), ctx);
    expect(result).toMatchObject({ completed: [], stoppedAfter: 'buggy' });
    expect(log).toEqual([]);
    expect(ctx.diagnostics.all().map((d) => `${d.code} ${d.message}`)).toEqual(['8001 internal compiler error in buggy: oops']);
  });

  it('passes the program a pass returns to the next one', () => {
    const replacement: Program = { ...syntheticProgramForTest(), declarations: [] };
    const seen: Program[] = [];
    const manager = new PassManager([
      { name: 'rewrite', run: () => replacement },
      { name: 'inspect', run: (program) => void seen.push(program) },
    ]);
    expect(manager.run(syntheticProgramForTest(), context()).program).toBe(replacement);
    expect(seen).toEqual([replacement]);
  });

  it('rejects duplicate pass names and unknown dump names', () => {
    const log: string[] = [];
    expect(() => new PassManager([recordingPass('a', log), recordingPass('a', log)])).toThrow("duplicate pass name 'a'");
    expect(() => new PassManager([recordingPass('a', log)]).run(syntheticProgramForTest(), context(), { dumpAfter: ['b'] })).toThrow(
      "no pass named 'b'",
    );
  });

  it('keeps one side table per key', () => {
    const key = new SideTableKey('widths', () => new Map<string, number>());
    const ctx = context();
    ctx.table(key).set('x', 8);
    expect(ctx.table(key).get('x')).toBe(8);
    expect(context().table(key).size).toBe(0);
  });
});

describe('the front end', () => {
  it('registers the passes in p4c order', () => {
    expect(frontEndPasses().map((p) => p.name)).toEqual([
      'parse', 'resolve-names', 'type-check', 'fold-constants', 'check-control-plane', 'emit-p4info', 'lower-to-ir',
    ]);
  });

  it('parses a program and dumps it after the parse pass, as the golden printer output', () => {
    const dumped: string[] = [];
    const result = runFrontEnd(path.join(CORPUS_DIR, 'basic_forward.p4'), { dumpAfter: ['parse'], onDump: (name) => dumped.push(name) });
    expect(result.hasErrors).toBe(false);
    expect(result.stoppedAfter).toBeNull();
    expect(dumped).toEqual(['parse']);
    expect(result.dumps[0]!.text).toBe(printProgram(result.program, { libraryFiles: result.sources.libraryFiles() }));
    expectGolden('parse/basic_forward.p4', result.dumps[0]!.text);
  });

  it('stops after parse when the program has syntax errors', () => {
    const result = runFrontEnd('broken.p4', { text: 'header h { bit<8> a }', dumpAfter: 'all' });
    expect(result.stoppedAfter).toBe('parse');
    expect(result.diagnostics.map((d) => d.code)).toEqual([1201]);
  });
});
