// Every program shipped in p4/ compiles to P4Info and IR (no goldens here:
// the programs belong to their own tasks and change with them).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics } from '../../src/p4c/index.js';
import { TEST_DIR } from './helpers.js';

const P4_DIR = path.join(TEST_DIR, '..', '..', 'p4');
const PROGRAMS = readdirSync(P4_DIR).filter((f) => f.endsWith('.p4')).sort();

describe('programs in p4/', () => {
  it('finds the programs the repository ships', () => {
    expect(PROGRAMS).toEqual(expect.arrayContaining(['forward.p4', 'switchml.p4']));
  });

  it.each(PROGRAMS)('%s compiles', (file) => {
    const result = compileProgram(path.join(P4_DIR, file), { includeDirs: [path.join(P4_DIR, 'include')] });
    expect(formatDiagnostics(result.diagnostics)).toBe('');
    expect(result.p4info?.tables?.length ?? 0).toBeGreaterThan(0);
    expect(result.ir?.pipeline.ingress).not.toBe('');
  });
});
