import { describe, expect, it } from 'vitest';
import { InstallError, ProgramCache } from '../../../src/controller/install/index.js';
import { compilePipeline } from '../../../src/p4c/index.js';
import { FORWARD_P4 } from './helpers.js';

// The controller does not depend on the front end: P4 sources compile only through the compiler its caller gives.
describe('ProgramCache', () => {
  it('compiles a P4 source with the compiler it was given, once per program', () => {
    const calls: string[] = [];
    const cache = new ProgramCache({
      compiler: (file, options) => {
        calls.push(file);
        return compilePipeline(file, options);
      },
    });
    const first = cache.pipelineFor({ p4: FORWARD_P4 }, 's1');
    const again = cache.pipelineFor({ p4: FORWARD_P4 }, 's2');
    expect(again).toBe(first);
    expect(calls).toEqual([FORWARD_P4]);
    expect(first.schema.tables.size).toBeGreaterThan(0);
    expect(JSON.parse(first.deviceConfig.toString('utf8'))).toMatchObject({ format: 'p4ina-ir' });
  });

  it('without a compiler, refuses P4 source and says how to give compiled files instead', () => {
    const err = (() => {
      try {
        new ProgramCache().pipelineFor({ p4: FORWARD_P4 }, 's1');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('INSTALL_PROGRAM_FAILED');
    expect((err as Error).message).toMatch(/no compiler.*"p4info".*"config"/s);
  });

  it('passes the compiler’s diagnostics on', () => {
    const cache = new ProgramCache({ compiler: () => ({ ok: false, message: 'x.p4:3:7: error P4C1001: something' }) });
    expect(() => cache.pipelineFor({ p4: 'x.p4' }, 's1')).toThrow(/x\.p4:3:7/);
  });
});
