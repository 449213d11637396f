// A reviewed P4Info golden per corpus program (test/golden/p4info, regenerate
// with UPDATE_GOLDEN=1), and P4Info files by suffix. Equality with the real
// p4c's output is p4info-p4c.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostics, runFrontEnd } from '../../src/p4c/index.js';
import { P4INFO } from '../../src/p4c/passes/emit-p4info.js';
import { formatP4Info, parseP4Info, readP4InfoFile, writeP4InfoFile } from '../../src/p4info/index.js';
import type * as p4i from '../../src/proto/p4i.js';
import { CORPUS_DIR, corpusPrograms, expectGolden, TEST_DIR } from './helpers.js';

const FIXTURE_DIR = path.join(TEST_DIR, '..', 'fixtures', 'p4info');

function p4infoOf(file: string): p4i.P4Info {
  const result = runFrontEnd(file);
  if (result.hasErrors) throw new Error(formatDiagnostics(result.diagnostics));
  const info = result.context.table(P4INFO).p4info;
  if (!info) throw new Error('no P4Info');
  return info;
}

describe('P4Info goldens of the corpus', () => {
  it.each(corpusPrograms())('%s', (file) => {
    expectGolden(`p4info/${file.replace(/\.p4$/, '.p4info.txtpb')}`, formatP4Info(p4infoOf(path.join(CORPUS_DIR, file)), 'text'));
  });
});

describe('P4Info files by suffix', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'p4ina-p4info-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes text, JSON and binary that read back to the same P4Info', () => {
    const info = p4infoOf(path.join(FIXTURE_DIR, 'packet_io.p4'));
    const expected = parseP4Info(formatP4Info(info, 'text'), 'text');
    for (const name of ['out.p4info.txtpb', 'out.p4info.json', 'out.p4info.bin']) {
      const file = path.join(dir, name);
      writeP4InfoFile(file, info);
      expect(readP4InfoFile(file)).toEqual(expected);
    }
  });
});
