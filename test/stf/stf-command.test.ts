// `p4ina stf`: in process through run(argv), and as the built CLI when dist/ holds it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseStfArgs, run } from '../../src/cli/stf-command.js';
import { ROOT, STF_DIR } from './helpers.js';

const MAIN_JS = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const BUILT = existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'stf-command.js'));
const PROGRAM = path.join(ROOT, 'test', 'p4c', 'corpus', 'multicast.p4');
const STF = path.join(STF_DIR, 'multicast.stf');

afterEach(() => vi.restoreAllMocks());

async function stf(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const code = await run(argv);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('p4ina stf (in process)', () => {
  it('parses its flags', () => {
    expect(parseStfArgs(['a.p4', 't.stf', '-I', 'inc', '-DX=1', '--json'])).toMatchObject({ program: 'a.p4', stf: 't.stf', includeDirs: ['inc'], defines: ['X=1'], json: true });
    expect(parseStfArgs(['--help'])).toBe('help');
  });

  it('passes multicast.stf: a summary on stdout, exit 0', async () => {
    const { code, stdout } = await stf([PROGRAM, STF]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^stf: multicast\.stf PASSED \(4 packets in, 6 out, 6 expected packets, 0 checks\)\n$/);
  });

  it('--json gives the result document', async () => {
    const { code, stdout } = await stf([PROGRAM, STF, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'passed', failures: [], counts: { packetsIn: 4 } });
  });

  it('bad flags and a missing file exit 2 with a message on stderr', async () => {
    const flags = await stf([PROGRAM]);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toMatch(/^p4ina stf: give the program and the STF file/);
    const missing = await stf([PROGRAM, '/nonexistent.stf']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the STF file \/nonexistent\.stf: no such file/);
  });
});

describe.skipIf(!BUILT)('the built p4ina stf', () => {
  it('runs an STF file, and fails with the line on a wrong one', () => {
    const ok = spawnSync(process.execPath, [MAIN_JS, 'stf', PROGRAM, STF], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/PASSED/);
    const bad = spawnSync(process.execPath, [MAIN_JS, 'stf', path.join(ROOT, 'test', 'p4c', 'corpus', 'calc.p4'), STF], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/multicast\.stf:7: error: no table "mac_table"/);
  });
});
