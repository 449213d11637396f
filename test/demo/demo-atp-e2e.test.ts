// `p4ina demo --algorithm atp` end to end: the built switch running
// p4/atp.p4 and the built ATP agents as processes on 127.0.0.1, programmed by
// the controller over gRPC. Each result is checked against numbers derived
// here from docs/atp.md, not from the agents: the scale rule gives the exact
// fixed-point result (its SHA-256 must be every worker's) and the bound on
// the distance from the float64 sum. Skipped only when there is no build.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { float64Reference } from '../../src/agent/baseline/accuracy.js';
import { seededTensor } from '../../src/agent/baseline/seeded-tensor.js';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../../src/demo/demo-options.js';
import { runDemo, type DemoOutcome } from '../../src/demo/run-demo.js';
import { rowIsExact } from '../../src/report/demo-results.js';
import { expectedAtp } from '../agent/atp/helpers/numbers.js';
import { CLI, demoTempDirs, isAlive, probeDemoCapability, WatchedGroup } from './helpers.js';

const built = existsSync(CLI);
if (!built) console.warn(`test/demo/demo-atp-e2e: skipped: ${CLI} is missing: build first (npm run build)`);

/** The demo's ATP job: 64 values per packet, value range 256 (src/demo/demo-atp.ts says why). */
const VALUES = 64;
const RANGE = 256;
const BASE: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, algorithms: ['atp'], tensorBytes: 64 * 1024, runTimeoutMs: 240_000 };


let group: WatchedGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

async function demo(options: DemoOptions): Promise<{ outcome: DemoOutcome; digests: string[] }> {
  group = new WatchedGroup();
  const before = new Set(demoTempDirs());
  const outcome = await runDemo(options, { cliEntry: CLI, children: group });
  // Nothing outlives the run: the switch, the PS and the workers are gone, and so is the temp dir.
  expect(group.livePids()).toEqual([]);
  expect(group.allPids().filter(isAlive)).toEqual([]);
  expect(demoTempDirs().filter((d) => !before.has(d))).toEqual([]);
  const workers = group.started.filter((c) => /^atp-\d+$/.test(c.name));
  expect(workers.length).toBe(options.workers);
  const digests = workers.map((c) => (JSON.parse(c.stdout().trim().split('\n').at(-1)!) as { resultSha256: string }).resultSha256);
  return { outcome, digests };
}

/**
 * docs/atp.md, "Workers": f = ⌊(2^31 − 1)/n⌋ / R and each value goes as round(x·f), so the sum S
 * of n integers is within n/(2f) of f·Σx, and the result S/f, rounded once to float32, within
 * n/(2f) + 2^−24·|S/f| of Σx; the float64 reference adds at most n·2^−52·Σ|x|.
 */
function expected(workers: number, length: number, seed: number | string) {
  const tensors = Array.from({ length: workers }, (_, rank) => seededTensor(length, seed, rank));
  const { exact, floatPackets } = expectedAtp(tensors, VALUES, RANGE);
  const ref = float64Reference(tensors);
  const f = Math.floor(0x7fffffff / workers) / RANGE;
  let maxError = 0;
  let bound = 0;
  for (let i = 0; i < length; i++) {
    maxError = Math.max(maxError, Math.abs(exact[i]! - ref.sum[i]!));
    bound = Math.max(bound, workers / (2 * f) + 2 ** -24 * (Math.abs(ref.sum[i]!) + workers / (2 * f)) + workers * 2 ** -52 * ref.absSum[i]!);
  }
  return { sha256: createHash('sha256').update(new Uint8Array(exact.buffer)).digest('hex'), floatPackets: floatPackets.size, maxError, bound, packets: Math.ceil(length / VALUES) };
}

function expectExact(outcome: DemoOutcome, digests: readonly string[], options: DemoOptions): void {
  const want = expected(options.workers, options.tensorBytes / 4, options.seed);
  expect(want.floatPackets).toBe(0);
  const row = outcome.rows[0]!;
  expect(row).toMatchObject({ algorithm: 'atp', workers: options.workers, bytes: options.tensorBytes, identical: true, boundViolations: 0, failure: undefined });
  expect(rowIsExact(row)).toBe(true);
  expect(digests).toEqual(Array(options.workers).fill(want.sha256));
  expect(row.maxAbsError).toBe(want.maxError);
  expect(row.maxAbsError!).toBeLessThanOrEqual(want.bound);
  // The PS completed every packet once, each either as the switch's whole aggregate or from pieces.
  expect(outcome.atp!.sequences).toBe(want.packets);
  expect(outcome.atp!.bySwitch + outcome.atp!.byServer).toBe(want.packets);
}

describe.runIf(built)('p4ina demo --algorithm atp through the built switch and agents', () => {
  beforeAll(async () => {
    const probe = await probeDemoCapability();
    if (!probe.ok) throw new Error(`the build cannot run the demo: ${probe.reason}`);
    const help = await run([CLI, 'agent', 'atp-worker', '--help']);
    if (!help.stdout.includes('--gateway-mac')) throw new Error(`${CLI}'s atp-worker has no --transport wire: the build is older than src/agent/atp; rebuild`);
  }, 90_000);

  test.each([2, 4])('%i workers, 64 KiB: bit for bit the fixed-point sum on every worker, within the scale’s bound; the switch aggregated', async (workers) => {
    const options = { ...BASE, workers, seed: `atp-${workers}` };
    const { outcome, digests } = await demo(options);
    expectExact(outcome, digests, options);
    expect(outcome.atp!.bySwitch).toBeGreaterThan(0);
    expect(outcome.framesLost).toBe(0);
  }, 300_000);

  test('4 workers, 5% seeded loss on every wire (the PS’s too): still exact, and the loss was real', async () => {
    const options = { ...BASE, workers: 4, tensorBytes: 32 * 1024, loss: 0.05, seed: 'atp-loss' };
    const { outcome, digests } = await demo(options);
    expectExact(outcome, digests, options);
    expect(outcome.framesLost).toBeGreaterThan(0);
    expect(outcome.rows[0]!.retransmissions).toBeGreaterThan(0);
  }, 300_000);

  test('`p4ina demo --algorithm switchml,atp,ps,ring`: one row per algorithm in that order, all exact (exit 0)', async () => {
    const { code, stdout } = await run([CLI, 'demo', '--algorithm', 'switchml,atp,ps,ring', '--workers', '2', '--tensor', '16KiB', '--seed', '3']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^algorithm +workers .* identical +by switch$/);
    const rows = lines.slice(2, 6).map((l) => l.split(/ +/));
    // Cells split on spaces: the bytes and sent/worker columns are two each ("16 KiB").
    expect(rows.map((cells) => [cells[0], cells[1], cells[10]])).toEqual([
      ['switchml', '2', 'yes'],
      ['atp', '2', 'yes'],
      ['ps', '2', 'yes'],
      ['ring', '2', 'yes'],
    ]);
    expect(rows[1]![11]).toMatch(/^\d+\.\d%$/);
    expect(lines[6]).toBe('');
    expect(lines[7]).toMatch(/^atp: 64 result packets: \d+ aggregated whole by the switch/);
  }, 300_000);

  test('a bad --algorithm is refused before anything starts (exit 2, the usage)', async () => {
    const { code, stderr } = await run([CLI, 'demo', '--algorithm', 'atp,sharp']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^p4ina demo: --algorithm takes a comma-separated list of switchml, atp, omnireduce, omnireduce-switch, ps, hierarchical, ring; "sharp" is not one/);
    expect(stderr).toContain('usage: p4ina demo');
  }, 60_000);
});

/** Runs a command to its end (bounded: SIGTERM after 240 s, which the demo turns into a clean stop). */
function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), 240_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
