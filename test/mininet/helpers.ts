// Running mininet/testbed.py from tests, and checking that a run left nothing
// of ours behind: no interface with our prefix, no new network namespace, no
// process it started, no temp dir.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = process.env.P4INA_TEST_CLI ?? path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
export const PYTHON = '/usr/bin/python3';
export const SCRIPT = path.join(ROOT, 'mininet', 'testbed.py');
/** Our tests' node names start with this; nobody else's interfaces do. */
export const PREFIX = 'p4t';

/** Why the Mininet tests cannot run here, or undefined when they can. */
export function whyNotRunnable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root (Mininet needs root; CI runs as root)';
  if (!existsSync(PYTHON)) return `${PYTHON} is missing`;
  const probe = spawnSync(PYTHON, ['-c', 'import mininet.net, mininet.nodelib'], { cwd: os.tmpdir(), encoding: 'utf8' });
  if (probe.status !== 0) return 'Debian\'s Mininet is not installed (apt-get install mininet)';
  for (const tool of ['brctl', 'ethtool', 'nft', 'ip', 'ping']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  if (!existsSync(CLI)) return `${CLI} is missing (npm run build)`;
  return undefined;
}

export interface ScriptRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the script with --prefix PREFIX; `onStderrLine` may return a signal to send it (once).
 * A run that outlives `timeoutMs` gets SIGTERM (and its teardown) like a Ctrl-C.
 */
export function runScript(args: readonly string[], timeoutMs: number, onStderrLine?: (line: string) => NodeJS.Signals | undefined): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, '--prefix', PREFIX, ...args], {
      cwd: ROOT,
      env: { ...process.env, P4INA_NODE: process.execPath, P4INA_CLI: CLI },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    let partial = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      partial += d.toString();
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const signal = onStderrLine?.(line);
        if (signal && !signalled) {
          signalled = true;
          child.kill(signal);
        }
      }
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export function ourInterfaces(): string[] {
  const out = spawnSync('ip', ['-o', 'link'], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .map((line) => line.split(':')[1]?.trim().split('@')[0] ?? '')
    .filter((name) => name.startsWith(PREFIX));
}

export function namespaces(): string[] {
  return spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers kill(0) until reaped: count it as gone.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Processes whose command line names a testbed temp dir or our prefix's nodes (hosts, PS hosts, switches). */
export function ourProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue;
    }
    if (cmdline.includes('p4ina-testbed-') || new RegExp(`\\b${PREFIX}(?:[hst]|ps)\\d`).test(cmdline)) found.push(Number(entry));
  }
  return found.filter(isAlive);
}

export function testbedTempDirs(): string[] {
  return readdirSync(os.tmpdir()).filter((d) => d.startsWith('p4ina-testbed-'));
}

/** Busy-waits (bounded) until every PID is gone: the script exits after its teardown, but reaping may lag. */
export async function waitAllGone(pids: readonly number[], timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** A row of the testbed's --json document (src/testbed/testbed-report.ts, formatTestbedJson), as the scenarios read it. */
export interface TestbedJsonRow {
  algorithm: string;
  workers: number;
  bytes: number;
  identical: boolean | null;
  boundViolations: number | null;
  retransmissions: number | null;
  sentPerWorker: number | null;
  failure: string | null;
  atp: TestbedJsonAtp | null;
  inaRacks: string[] | null;
  omnireduce: { aggregator: string; blockSize: number; slots: number } | null;
  cpu: { switches: { switch: string; userMs: number; systemMs: number }[]; workersMs: number | null };
}

/** An ATP job's row details (src/testbed/atp-run-report.ts): its PS, levels and the PS's counters. */
export interface TestbedJsonAtp {
  job: number;
  psHost: string;
  level0: string[];
  level1: string | null;
  ps: { completed: number; completedByOnePiece: number; completedInSoftware: number; level1Aggregates: number } | null;
}

export interface TestbedJsonDocument {
  runs: TestbedJsonRow[];
  hosts: Record<string, string[]>;
  traffic: { ping: { sent: number; received: number; failed: string[] }; tcp: { bytes: number; ok: boolean }[] } | null;
  pids: number[];
  framesLost: number;
  ok: boolean;
}
