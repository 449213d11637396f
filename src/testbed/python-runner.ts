/**
 * `p4ina testbed …` is a thin front for `mininet/testbed.py`: Mininet is a
 * Python library (Debian's /usr/bin/python3), so the testbed itself lives
 * there. This starts the script with the same arguments, tells it which
 * Node and which built CLI to run, and passes SIGINT/SIGTERM on so that the
 * script tears the network down before either process exits. If this
 * process dies without passing anything on (kill -9), the script's lifeline
 * (src/run/lifeline.ts) breaks and it tears down all the same.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { holdLifeline, withLifeline } from '../run/lifeline.js';
import { builtCliEntry, packageRoot } from '../run/package-paths.js';
import { TESTBED_ERROR_CODES, TestbedError } from './testbed-error.js';

/** Debian's interpreter, where the `mininet` module is; P4INA_PYTHON overrides it. */
export const DEFAULT_PYTHON = '/usr/bin/python3';

export function testbedScript(root = packageRoot()): string {
  return path.join(root, 'mininet', 'testbed.py');
}

export interface RunnerOptions {
  readonly python?: string;
  readonly script?: string;
  readonly cliEntry?: string;
}

/** Runs the script to completion; resolves to its exit code (128 + signal number if a signal ended it). */
export async function runTestbedScript(args: readonly string[], options: RunnerOptions = {}): Promise<number> {
  const python = options.python ?? process.env.P4INA_PYTHON ?? DEFAULT_PYTHON;
  const script = options.script ?? testbedScript();
  const cli = options.cliEntry ?? builtCliEntry();
  if (!existsSync(python)) throw new TestbedError(TESTBED_ERROR_CODES.noRunner, `${python} is not there; install Debian's Mininet (apt-get install mininet) or set P4INA_PYTHON to a Python that imports mininet`);
  if (!existsSync(script)) throw new TestbedError(TESTBED_ERROR_CODES.noRunner, `the testbed runner ${script} is missing from this installation`);
  if (!existsSync(cli)) throw new TestbedError(TESTBED_ERROR_CODES.noRunner, `${cli} is missing; build first (npm run build)`);
  // The lifeline: if this process dies without passing a signal on (kill -9), the script sees it and tears down.
  const child = spawn(python, [script, ...args], withLifeline(['inherit', 'inherit', 'inherit'], { ...process.env, P4INA_NODE: process.execPath, P4INA_CLI: cli }));
  holdLifeline(child.stdio[3]);
  const forward = (signal: NodeJS.Signals) => (): void => {
    if (child.exitCode === null) child.kill(signal);
  };
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', (err) => reject(new TestbedError(TESTBED_ERROR_CODES.noRunner, `cannot start ${python}: ${err.message}`, { cause: err })));
      child.once('exit', (code, signal) => resolve(code ?? 128 + (signal === 'SIGINT' ? 2 : 15)));
    });
  } finally {
    process.removeListener('SIGINT', onInt);
    process.removeListener('SIGTERM', onTerm);
  }
}
