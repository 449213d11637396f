// The testbed's --elements (SwitchML values per packet), run with Debian's
// python3 on mininet/p4ina_mininet (no root, no Mininet): the one number
// reaches switchml.p4's compile (checked in the P4Info that compile writes,
// as the controller reads it), the job spec and every worker's argv; the
// bound is the controller's own; the option errors.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { maxElementsPerPacket } from '../../src/controller/index.js';
import { readP4InfoFile } from '../../src/p4info/p4info-files.js';
import { CLI, ROOT } from './helpers.js';

const PYTHON = '/usr/bin/python3';
const runnable = existsSync(PYTHON);
if (!runnable) console.warn(`test/mininet/testbed-elements-args: skipped: ${PYTHON} is missing`);
const built = existsSync(CLI);
if (runnable && !built) console.warn(`test/mininet/testbed-elements-args: compile test skipped: ${CLI} is missing (npm run build)`);

/** Runs `body` (Python, with `parse` and `json` imported) and returns what it prints as JSON, or the process's failure. */
function python(body: string): { status: number | null; value: unknown; stderr: string } {
  const script = ['import json, sys', `sys.path.append(${JSON.stringify(path.join(ROOT, 'mininet'))})`, 'from p4ina_mininet.options import parse', body].join('\n');
  const run = spawnSync(PYTHON, ['-B', '-c', script], { encoding: 'utf8' });
  return { status: run.status, value: run.status === 0 ? (JSON.parse(run.stdout) as unknown) : undefined, stderr: run.stderr };
}

/** The job spec and rank 1's argv for `--job switchml` with `extra` options, on 2 hosts. */
function switchMlArgs(extra: readonly string[]): { value: unknown; stderr: string } {
  return python(`from p4ina_mininet.topologies import plan_single
from p4ina_mininet.agents import switchml_argv, switchml_job_spec
hosts = plan_single('p4t', 2, ps=0).hosts
o = parse(${JSON.stringify(['--job', 'switchml', '--tensor', '4KiB', ...extra])})
argv = switchml_argv('node', 'cli', hosts[1], 1, 2, '10.0.1.254', o)
print(json.dumps({'spec': switchml_job_spec(o, hosts), 'argv': argv[argv.index('--pool'):argv.index('--length')]}))`);
}

const workers = [
  { rank: 0, host: 'p4th1', udp_port: 40000 },
  { rank: 1, host: 'p4th2', udp_port: 40001 },
];

describe.runIf(runnable)('testbed --elements (python3, no root)', () => {
  test('default: SwitchML\'s own 64 in the job spec and on every worker', () => {
    const { value, stderr } = switchMlArgs([]);
    expect(stderr).toBe('');
    expect(value).toEqual({
      spec: { id: 1, name: 'testbed', algorithm: 'switchml', pool_size: 32, elements_per_packet: 64, workers },
      argv: ['--pool', '32', '--elements', '64', '--timing', 'mininet'],
    });
  });

  test('--elements 256: the job spec and every worker carry 256', () => {
    const { value, stderr } = switchMlArgs(['--elements', '256']);
    expect(stderr).toBe('');
    expect(value).toEqual({
      spec: { id: 1, name: 'testbed', algorithm: 'switchml', pool_size: 32, elements_per_packet: 256, workers },
      argv: ['--pool', '32', '--elements', '256', '--timing', 'mininet'],
    });
  });

  test('the largest --elements is the controller\'s: what a 1500-byte MTU takes', () => {
    const { value } = python('from p4ina_mininet.options import SWITCHML_MAX_ELEMENTS\nprint(json.dumps(SWITCHML_MAX_ELEMENTS))');
    expect(value).toBe(maxElementsPerPacket('switchml'));
    expect(python(`print(json.dumps(parse(['--elements', '${maxElementsPerPacket('switchml')}']).switchml_elements))`).value).toBe(maxElementsPerPacket('switchml'));
  });

  test.runIf(built)('switchml.p4 is compiled for --elements: its P4Info sums 256 values per cell of `seen`, forward.p4 takes no define', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-elements-args-'));
    try {
      const { value, stderr } = python(`from p4ina_mininet.programs import Programs
p = Programs(${JSON.stringify(process.execPath)}, ${JSON.stringify(CLI)}, ${JSON.stringify(ROOT)}, ${JSON.stringify(dir)}, parse(['--elements', '256']))
print(json.dumps([p.files('switchml')['p4info'], p._defines('forward')]))`);
      expect(stderr).toBe('');
      const [p4infoPath, forwardDefines] = value as [string, string[]];
      const registers = readP4InfoFile(p4infoPath).registers;
      const size = (name: string): number | undefined => registers.find((r) => r.preamble?.name === name)?.size;
      // The controller's check (src/controller/install/switchml-job.ts): values per packet = |values| / |seen|.
      expect(size('ingress.switchml.values')! / size('ingress.switchml.seen')!).toBe(256);
      expect(forwardDefines).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test.each([
    [['--elements', '0'], '"0": values per SwitchML packet, a whole number from 1 to 364'],
    [['--elements', '365'], '"365": values per SwitchML packet, a whole number from 1 to 364 (364 is the most a 1500-byte MTU takes)'],
    [['--elements', '2.5'], '"2.5": values per SwitchML packet'],
    [['--job', 'ring', '--elements', '256'], "--elements sets SwitchML's values per packet: add switchml to --job or leave --elements out"],
    [['--job', 'atp', '--elements', '256'], "--elements sets SwitchML's values per packet: add switchml to --job or leave --elements out"],
    [['--target', 'bmv2', '--elements', '256'], '--target bmv2 needs --bmv2-switchml JSON,P4INFO (p4c-bm2-ss outputs of p4/switchml.p4 compiled with -DSWITCHML_ELEMENTS=256; see README)'],
  ])('%j is refused: %s', (argv, message) => {
    const run = python(`parse(${JSON.stringify(argv)})\nprint('null')`);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
