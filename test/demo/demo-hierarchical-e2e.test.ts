// The demo's hierarchical AllReduce row end to end: the built CLI's
// `p4ina agent hierarchical-worker` processes over TCP on 127.0.0.1 (no
// switch). Skipped only when there is no build at all.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { ChildGroup } from '../../src/demo/child-group.js';
import { DEFAULT_DEMO_OPTIONS } from '../../src/demo/demo-options.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { rowIsExact } from '../../src/report/demo-results.js';
import { CLI, isAlive } from './helpers.js';

const built = existsSync(CLI);
if (!built) console.warn(`test/demo/demo-hierarchical-e2e: skipped: ${CLI} is missing: build first (npm run build)`);

let group: ChildGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

describe.runIf(built)('p4ina demo --algorithm hierarchical', () => {
  test('5 workers in the default pairs of hosts: an exact row beside the ring, and no process left', async () => {
    group = new ChildGroup();
    const outcome = await runDemo(
      { ...DEFAULT_DEMO_OPTIONS, algorithms: ['hierarchical', 'ring'], workers: 5, tensorBytes: 64 * 1024, runTimeoutMs: 120_000 },
      { cliEntry: CLI, children: group },
    );
    expect(outcome.rows.map((r) => [r.algorithm, r.workers, r.bytes, r.identical, r.boundViolations, r.failure])).toEqual([
      ['hierarchical', 5, 65536, true, 0, undefined],
      ['ring', 5, 65536, true, 0, undefined],
    ]);
    expect(outcome.rows.every(rowIsExact)).toBe(true);
    expect(outcome.hierarchical).toEqual({ racks: [['h1', 'h2'], ['h3', 'h4'], ['h5']] });
    expect(group.allPids().filter(isAlive)).toEqual([]);
  }, 180_000);

  test('`p4ina demo --algorithm hierarchical --racks a,b,a,a --json`: exit 0, the racks in the document', async () => {
    const child = spawn(process.execPath, [CLI, 'demo', '--algorithm', 'hierarchical', '--workers', '4', '--racks', 'a,b,a,a', '--tensor', '32KiB', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 120_000))),
    ]);
    clearTimeout(timer);
    if (code === 'timeout') child.kill('SIGTERM');
    expect(code).toBe(0);
    const document = JSON.parse(stdout) as { runs: { algorithm: string; identical: boolean; boundViolations: number; failure: null }[]; hierarchical: unknown };
    expect(document.runs.map((r) => [r.algorithm, r.identical, r.boundViolations, r.failure])).toEqual([['hierarchical', true, 0, null]]);
    expect(document.hierarchical).toEqual({ racks: [['h1', 'h3', 'h4'], ['h2']] });
  }, 180_000);
});
