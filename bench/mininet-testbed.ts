/**
 * Running the Mininet testbed (mininet/testbed.py, as root) from a
 * benchmark: whether it can run here, and one run's rows from its --json
 * document (the demo's rows; ATP rows carry their PS's counters).
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cell } from '../src/report/table.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = process.env.P4INA_CLI ?? path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const SCRIPT = path.join(ROOT, 'mininet', 'testbed.py');
const PYTHON = '/usr/bin/python3';

/** The PS's counters of an ATP run (src/testbed/atp-run-report.ts); null when its report could not be read. */
export interface AtpPsCounters {
  completed: number;
  completedInSoftware: number;
  collisionPieces: number;
  resendPieces: number;
}

/** One run of the testbed's --json document (src/testbed/testbed-report.ts, formatTestbedJson). */
export interface TestbedRow {
  algorithm: string;
  workers: number;
  timeMs: number | null;
  retransmissions: number | null;
  /** Bytes each worker sent in the call, the mean over workers (UDP payloads; TCP stream bytes). */
  sentPerWorker: number | null;
  boundViolations: number | null;
  identical: boolean | null;
  failure: string | null;
  atp: { ps: AtpPsCounters | null } | null;
  /** Each switch process's CPU while the run's agents ran, and the workers' own (src/testbed/cpu-report.ts). */
  cpu: { switches: { switch: string; userMs: number; systemMs: number }[]; workersMs: number | null } | null;
}

/** CPU seconds of every switch process during a run (user + system), or null when none was measured. */
export function switchCpuSeconds(row: TestbedRow | undefined): number | null {
  const switches = row?.cpu?.switches ?? [];
  return switches.length > 0 ? switches.reduce((sum, s) => sum + s.userMs + s.systemMs, 0) / 1000 : null;
}

/** Why the testbed cannot run here (not root, no Mininet), or undefined when it can. */
export function whyTestbedCannotRun(benchName: string): string | undefined {
  if (process.getuid?.() !== 0) return `not root: Mininet needs root (sudo node dist/bench/run.js ${benchName})`;
  const probe = spawnSync(PYTHON, ['-c', 'import mininet.net'], { cwd: os.tmpdir() });
  if (probe.status !== 0) return `${PYTHON} cannot import mininet (apt-get install mininet)`;
  return undefined;
}

/** True when the run finished with every worker's result identical and within the check's bound. */
export function rowIsExact(row: TestbedRow): boolean {
  return row.failure === null && row.identical === true && row.boundViolations === 0;
}

/** One sweep point's table rows and what failed in it. */
export interface SweepPoint {
  readonly rows: Cell[][];
  readonly failures: readonly string[];
}

/**
 * Measures each point in turn; the rows and failures in order, and each
 * point's 1-minute load average before → after (`label` names the point).
 */
export async function sweepWithLoad<T>(points: readonly T[], label: (point: T) => string, measure: (point: T) => Promise<SweepPoint>): Promise<{ rows: Cell[][]; failures: string[]; loads: string[] }> {
  const rows: Cell[][] = [];
  const failures: string[] = [];
  const loads: string[] = [];
  for (const point of points) {
    const before = os.loadavg()[0]!;
    const measured = await measure(point);
    loads.push(`${label(point)} ${before.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`);
    rows.push(...measured.rows);
    failures.push(...measured.failures);
  }
  return { rows, failures, loads };
}

/** One `mininet/testbed.py ARGS --json`; resolves to its runs, rejects when it printed no document. */
export function runTestbed(args: readonly string[]): Promise<TestbedRow[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, ...args, '--json'], { cwd: ROOT, env: { ...process.env, P4INA_NODE: process.execPath, P4INA_CLI: CLI }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', () => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (!line.startsWith('{')) return reject(new Error(`the testbed printed no results:\n${err.trim().split('\n').slice(-10).join('\n')}`));
      resolve((JSON.parse(line) as { runs: TestbedRow[] }).runs);
    });
  });
}
