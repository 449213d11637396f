// The demo end to end: the built switch and agents as real processes on
// 127.0.0.1, programmed by the controller over gRPC. Skipped only when there
// is no build at all; a build that cannot run the demo (stale, or a switch
// that does not start with switchml.p4) fails the suite, saying why.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ChildGroup } from '../../src/demo/child-group.js';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../../src/demo/demo-options.js';
import { rowIsExact } from '../../src/report/demo-results.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { CLI, demoTempDirs, descendants, isAlive, probeDemoCapability, waitAllGone } from './helpers.js';

const built = existsSync(CLI);
if (!built) console.warn(`test/demo/demo-e2e: skipped: ${CLI} is missing: build first (npm run build)`);

const SMALL: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, workers: 2, tensorBytes: 64 * 1024, poolSize: 16, runTimeoutMs: 120_000 };

let group: ChildGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

/** Runs the demo in this process with a group whose PIDs the test checks afterwards. */
async function demo(options: DemoOptions, extra: Parameters<typeof runDemo>[1] = {}) {
  group = new ChildGroup();
  const before = new Set(demoTempDirs());
  const outcome = runDemo(options, { cliEntry: CLI, children: group, ...extra });
  const settled = await outcome.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const pids = group.allPids();
  expect(pids.length).toBeGreaterThan(0);
  expect(group.livePids()).toEqual([]);
  expect(pids.filter(isAlive)).toEqual([]);
  expect(demoTempDirs().filter((d) => !before.has(d))).toEqual([]);
  return settled;
}

describe.runIf(built)('p4ina demo on loopback through the built switch', () => {
  beforeAll(async () => {
    const probe = await probeDemoCapability();
    if (!probe.ok) throw new Error(`the build cannot run the demo: ${probe.reason}`);
  }, 90_000);

  test('2 workers, 64 KiB: both algorithms exact and identical on every worker; nothing left running', async () => {
    const { value, error } = (await demo(SMALL)) as { value?: Awaited<ReturnType<typeof runDemo>>; error?: unknown };
    expect(error).toBeUndefined();
    expect(value!.rows.map((r) => [r.algorithm, r.workers, r.bytes, r.identical, r.boundViolations, r.failure])).toEqual([
      ['switchml', 2, 65536, true, 0, undefined],
      ['ring', 2, 65536, true, 0, undefined],
    ]);
    expect(value!.rows.every(rowIsExact)).toBe(true);
    expect(value!.framesLost).toBe(0);
  }, 180_000);

  test('4 workers, 64 KiB, 2% seeded loss on every wire: still exact, and the loss was real', async () => {
    const { value, error } = (await demo({ ...SMALL, workers: 4, loss: 0.02, seed: 'loss' })) as { value?: Awaited<ReturnType<typeof runDemo>>; error?: unknown };
    expect(error).toBeUndefined();
    expect(value!.rows.map((r) => [r.algorithm, r.workers, rowIsExact(r)])).toEqual([
      ['switchml', 4, true],
      ['ring', 4, true],
    ]);
    expect(value!.framesLost).toBeGreaterThan(0);
    expect(value!.rows[0]!.retransmissions).toBeGreaterThan(0);
  }, 240_000);

  test('a worker that fails stops the run with DEMO_WORKER_FAILED and leaves no process behind', async () => {
    const { error } = (await demo(SMALL, { extraSwitchMlArgs: (rank) => (rank === 1 ? ['--max-retries', 'many'] : []) })) as { error?: { code?: string; message?: string } };
    expect(error?.code).toBe('DEMO_WORKER_FAILED');
    expect(error?.message).toMatch(/^switchml: worker 1 exited with status 2: error SWITCHML_BAD_CONFIG: --max-retries/);
  }, 180_000);

  test('--keep-going: the failed SwitchML run is a row, and the ring baseline still runs', async () => {
    const { value } = (await demo({ ...SMALL, keepGoing: true }, { extraSwitchMlArgs: (rank) => (rank === 0 ? ['--max-retries', 'many'] : []) })) as { value?: Awaited<ReturnType<typeof runDemo>> };
    expect(value!.rows[0]).toMatchObject({ algorithm: 'switchml', identical: undefined });
    expect(value!.rows[0]!.failure).toMatch(/worker 0 exited with status 2/);
    expect(rowIsExact(value!.rows[1]!)).toBe(true);
  }, 180_000);

  test('`p4ina demo --json` prints one JSON document and nothing else on stdout (exit 0)', async () => {
    const child = spawn(process.execPath, [CLI, 'demo', '--workers', '2', '--tensor', '32KiB', '--seed', '5', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
      new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 120_000))),
    ]);
    clearTimeout(timer);
    if (code === 'timeout') child.kill('SIGTERM');
    expect(code).toBe(0);
    const document = JSON.parse(stdout) as { workers: number; tensorBytes: number; seed: number; framesLost: number; runs: { algorithm: string; identical: boolean; boundViolations: number; failure: null }[] };
    expect(document).toMatchObject({ workers: 2, tensorBytes: 32768, seed: 5, framesLost: 0 });
    expect(document.runs.map((r) => [r.algorithm, r.identical, r.boundViolations, r.failure])).toEqual([
      ['switchml', true, 0, null],
      ['ring', true, 0, null],
    ]);
  }, 180_000);

  test('SIGINT to `p4ina demo` mid-run: exit 130, every child process gone', async () => {
    const demoProcess = spawn(process.execPath, [CLI, 'demo', '--workers', '2', '--tensor', '16MiB'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let stderr = '';
      const running = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 120_000);
        demoProcess.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          if (/switchml: .*running/.test(stderr)) {
            clearTimeout(timer);
            resolve(true);
          }
        });
        demoProcess.once('exit', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      expect(await running).toBe(true);
      // The workers start right after the progress line: wait (bounded) until the switch and both are there.
      let children = descendants(demoProcess.pid!);
      for (let i = 0; i < 200 && children.length < 3; i++) {
        await new Promise((r) => setTimeout(r, 50));
        children = descendants(demoProcess.pid!);
      }
      expect(children.length).toBe(3);
      const exited = new Promise<number | null>((resolve) => demoProcess.once('exit', (code) => resolve(code)));
      demoProcess.kill('SIGINT');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 30_000)))]);
      clearTimeout(timer);
      expect(code).toBe(130);
      expect(stderr).toContain('DEMO_INTERRUPTED');
      expect(await waitAllGone(children, 5_000)).toEqual([]);
    } finally {
      // On a failed assertion the demo may still run: SIGTERM lets it stop its children; SIGKILL them only if it does not.
      if (demoProcess.exitCode === null && demoProcess.signalCode === null) {
        const leftovers = descendants(demoProcess.pid!);
        demoProcess.kill('SIGTERM');
        const stillAlive = await waitAllGone([demoProcess.pid!, ...leftovers], 15_000);
        for (const pid of stillAlive) process.kill(pid, 'SIGKILL');
      }
    }
  }, 180_000);
});
