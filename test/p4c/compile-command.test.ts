// `p4ina compile`: in process through run(argv), and once as a child
// process when dist/ holds a build with the compile command.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCompileArgs, run } from '../../src/cli/compile-command.js';
import { parseIr } from '../../src/p4c/index.js';
import { readP4InfoFile } from '../../src/p4info/index.js';
import { p4infoFixtureText } from '../helpers/p4c-outputs.js';
import { TEST_DIR } from './helpers.js';

const ROOT = path.join(TEST_DIR, '..', '..');
const FORWARDING = path.join(TEST_DIR, '..', 'fixtures', 'p4info', 'forwarding.p4');
const MAIN_JS = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const BUILT = existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'compile-command.js'));

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'p4ina-compile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Runs the command in process, capturing what it writes. */
async function compile(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const code = await run(argv);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('p4ina compile', () => {
  it('writes PROGRAM.ir.json and PROGRAM.p4info.txtpb equal to p4c\'s P4Info', async () => {
    const out = path.join(dir, 'default');
    const { code, stderr } = await compile([FORWARDING, '-o', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(path.join(out, 'forwarding.p4info.txtpb'), 'utf8')).toBe(p4infoFixtureText('forwarding'));
    expect(parseIr(readFileSync(path.join(out, 'forwarding.ir.json'), 'utf8')).pipeline.ingress).toBe('MyIngress');
  });

  it('writes every --p4runtime-files format that reads back the same', async () => {
    const files = ['a.txtpb', 'b.json', 'c.bin'].map((f) => path.join(dir, 'formats', f));
    const { code } = await compile([FORWARDING, '-o', path.join(dir, 'formats'), '--p4runtime-files', files.join(',')]);
    expect(code).toBe(0);
    const [text, json, binary] = files.map((f) => readP4InfoFile(f));
    expect(json).toEqual(text);
    expect(binary).toEqual(text);
  });

  it('passes -D and -I to the preprocessor', async () => {
    const include = path.join(dir, 'inc');
    const program = path.join(dir, 'defines.p4');
    rmSync(include, { recursive: true, force: true });
    writeFileSync(program, readFileSync(FORWARDING, 'utf8').replace('size = 4096;', 'size = TABLE_SIZE;').replace('#include <v1model.p4>', '#include <v1model.p4>\n#include <sizes.p4>'));
    mkdirSync(include, { recursive: true });
    writeFileSync(path.join(include, 'sizes.p4'), 'const bit<32> UNUSED_SIZE = 1;\n');
    const { code, stderr } = await compile([program, '-I', include, '-DTABLE_SIZE=2048', '-o', path.join(dir, 'defines-out')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(path.join(dir, 'defines-out', 'defines.p4info.txtpb'), 'utf8')).toContain('size: 2048');
  });

  it('exits 1 with rendered diagnostics for a broken program, writing nothing', async () => {
    const program = path.join(dir, 'broken.p4');
    writeFileSync(program, readFileSync(FORWARDING, 'utf8').replace('hdr.ipv4.ttl - 1', 'hdr.ipv4.ttl - hdr.ipv4.total_len'));
    const { code, stderr } = await compile([program, '-o', path.join(dir, 'broken-out')]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/broken\.p4:\d+:\d+: error P4C3002: the operands of '-' have different types: bit<8> and bit<16>/);
    expect(stderr).toContain('^');
    expect(existsSync(path.join(dir, 'broken-out', 'broken.ir.json'))).toBe(false);
  });

  it('dumps the program after a pass', async () => {
    const { code, stdout } = await compile([FORWARDING, '-o', path.join(dir, 'dump'), '--dump-after', 'type-check']);
    expect(code).toBe(0);
    expect(stdout).toContain('// ---- after type-check ----');
    expect(stdout).toContain('table ipv4_lpm');
  });

  it.each([
    [['--frobnicate', 'x.p4'], /unknown option --frobnicate/],
    [[], /no program given/],
    [['a.p4', 'b.p4'], /only one program/],
    [['a.p4', '-o'], /-o needs a value/],
    [['a.p4', '--dump-after', 'nope'], /no pass named "nope"/],
    [['a.p4', '--p4runtime-files', 'x.yaml'], /cannot tell the format/],
  ])('exits 2 on bad flags: %j', async (argv, message) => {
    const { code, stderr } = await compile(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('usage: p4ina compile');
  });

  it('prints help', async () => {
    expect(parseCompileArgs(['--help'])).toBe('help');
    const { code, stdout } = await compile(['-h']);
    expect(code).toBe(0);
    expect(stdout).toContain('--p4runtime-files');
  });

  it.skipIf(!BUILT)('runs as `node dist/src/cli/main.js compile`', () => {
    const out = path.join(dir, 'spawned');
    const child = spawnSync(process.execPath, [MAIN_JS, 'compile', FORWARDING, '-o', out], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(readFileSync(path.join(out, 'forwarding.p4info.txtpb'), 'utf8')).toBe(p4infoFixtureText('forwarding'));
  });
});
