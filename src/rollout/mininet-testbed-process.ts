/**
 * One run of the Mininet testbed (mininet/testbed.py, as root) for the
 * rollout sweep: the script with its lifeline (so it tears Mininet down even
 * if this process is killed -9), its stdout kept for the --json document,
 * the tail of its stderr kept for a failure's reason. Ctrl-C (the signal)
 * and a run past its deadline get SIGINT, which the script answers by
 * tearing the network down and exiting; only a script that has not exited
 * after that gets SIGTERM, then SIGKILL.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { holdLifeline, withLifeline } from '../run/lifeline.js';
import { builtCliEntry, packageRoot } from '../run/package-paths.js';
import { DEFAULT_PYTHON, testbedScript } from '../testbed/python-runner.js';

/** How long the script's own teardown may take after SIGINT before SIGTERM, then SIGKILL. */
const TEARDOWN_GRACE_MS = 60_000;
const STDERR_TAIL_LINES = 12;

export interface TestbedProcessResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  /** The last lines of its stderr. */
  readonly stderrTail: string;
  /** The deadline passed and the run was stopped. */
  readonly timedOut: boolean;
}

function python(): string {
  return process.env.P4INA_PYTHON ?? DEFAULT_PYTHON;
}

/** Why the testbed cannot run here (not root, no Mininet, not built), or undefined when it can. */
export function whyTestbedCannotRun(): string | undefined {
  if (process.getuid?.() !== 0) return 'Mininet needs root: run p4ina rollout --net mininet with sudo (or use --net loopback)';
  const py = python();
  if (!existsSync(py)) return `${py} is not there; install Debian's Mininet (apt-get install mininet) or set P4INA_PYTHON`;
  const probe = spawnSync(py, ['-c', 'import mininet.net'], { cwd: os.tmpdir(), encoding: 'utf8' });
  if (probe.status !== 0) return `${py} cannot import mininet; install it (apt-get install mininet bridge-utils ethtool nftables)`;
  if (!existsSync(testbedScript())) return `the testbed runner ${testbedScript()} is missing from this installation`;
  if (!existsSync(builtCliEntry())) return `${builtCliEntry()} is missing; build first (npm run build)`;
  return undefined;
}

/** Runs `testbed.py ARGS` to its end, each whole stderr line to `onLine`; resolves however it ends (never rejects once started). */
export function runTestbedProcess(args: readonly string[], deadlineMs: number, signal: AbortSignal, onLine: (line: string) => void = () => {}): Promise<TestbedProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(python(), [testbedScript(), ...args], {
      cwd: packageRoot(),
      ...withLifeline(['ignore', 'pipe', 'pipe'], { ...process.env, P4INA_NODE: process.execPath, P4INA_CLI: builtCliEntry() }),
    });
    holdLifeline(child.stdio[3]);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const escalations: NodeJS.Timeout[] = [];
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    let partial = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).split('\n').slice(-STDERR_TAIL_LINES - 1).join('\n');
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    let stopping = false;
    const stop = (): void => {
      if (stopping || child.exitCode !== null || child.signalCode !== null) return;
      stopping = true;
      child.kill('SIGINT');
      escalations.push(setTimeout(() => child.kill('SIGTERM'), TEARDOWN_GRACE_MS));
      escalations.push(setTimeout(() => child.kill('SIGKILL'), 2 * TEARDOWN_GRACE_MS));
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      stop();
    }, deadlineMs);
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    const finish = (): void => {
      clearTimeout(deadline);
      for (const t of escalations) clearTimeout(t);
      signal.removeEventListener('abort', stop);
    };
    child.once('error', (err) => {
      finish();
      reject(new Error(`cannot start ${python()}: ${err.message}`, { cause: err }));
    });
    child.once('close', (code, sig) => {
      finish();
      resolve({ code, signal: sig, stdout, stderrTail: stderr.trim(), timedOut });
    });
  });
}
