// No orphans (issue #11): the real built `p4ina demo` as a child process,
// killed with SIGKILL while its switch and workers run (so no exit hook or
// finally runs in it): every process it started must go by itself (their
// lifelines, src/run/lifeline.ts), its ports must be free again and its temp
// dir gone. And a switch killed mid-job must fail the demo at once, naming the
// switch's exit, not a worker timeout later.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { removeStaleDemoTempDirs } from '../../src/demo/temp-dir.js';
import { CLI, descendants, isAlive } from '../demo/helpers.js';

const built = existsSync(CLI);
if (!built) console.warn(`test/robustness/orphans-demo: skipped: ${CLI} is missing: build first (npm run build)`);

/** Long enough that SwitchML is still running when the test acts (seconds, on loopback). */
const DEMO_ARGS = ['demo', '--workers', '2', '--tensor', '16MiB', '--timeout', '300'];
const UP_TIMEOUT_MS = 60_000;
const GONE_TIMEOUT_MS = 15_000;

type Demo = ChildProcessByStdio<null, Readable, Readable>;
const started: Demo[] = [];
afterEach(() => {
  for (const demo of started.splice(0)) if (demo.exitCode === null && demo.signalCode === null) demo.kill('SIGKILL');
});

interface RunningDemo {
  readonly demo: Demo;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startDemo(): RunningDemo {
  const demo = spawn(process.execPath, [CLI, ...DEMO_ARGS], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  started.push(demo);
  let stderr = '';
  demo.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  demo.stdout.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => demo.once('exit', (code, signal) => resolve({ code, signal })));
  return { demo, stderr: () => stderr, exited };
}

/** Polls `probe` every 50 ms until it returns a value other than undefined, for at most `ms`. */
async function waitFor<T>(what: string, ms: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

interface DemoProcesses {
  readonly switchPid: number;
  readonly workerPids: number[];
  /** The switch's P4Runtime port (TCP) and its wires' ports (UDP, both ends). */
  readonly grpcPort: number;
  readonly udpPorts: number[];
}

/** The switch and both SwitchML workers are running under the demo; undefined until then. */
function demoProcesses(run: RunningDemo): DemoProcesses | undefined {
  if (!/^switchml: 2 workers .* running$/m.test(run.stderr())) return undefined;
  const grpc = /programming the switch at 127\.0\.0\.1:(\d+)/.exec(run.stderr());
  const children = descendants(run.demo.pid!).map((pid) => ({ pid, argv: commandLine(pid) }));
  const sw = children.find((c) => c.argv[2] === 'switch');
  const workers = children.filter((c) => c.argv[2] === 'agent' && c.argv[3] === 'switchml');
  if (!grpc || !sw || workers.length !== 2) return undefined;
  const udpPorts = sw.argv.flatMap((arg) => {
    const m = /^\d+@udp:127\.0\.0\.1:(\d+):127\.0\.0\.1:(\d+)$/.exec(arg);
    return m ? [Number(m[1]), Number(m[2])] : [];
  });
  return { switchPid: sw.pid, workerPids: workers.map((w) => w.pid), grpcPort: Number(grpc[1]), udpPorts };
}

function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
}

function tcpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function tempDirsOf(pid: number): string[] {
  return readdirSync(os.tmpdir()).filter((d) => d.startsWith(`p4ina-demo-${pid}-`));
}

describe.runIf(built)('the demo leaves nothing behind when it is killed', () => {
  test('kill -9 of the demo mid-job: its switch and workers exit by themselves, their ports are free, no temp dir is left', async () => {
    const run = startDemo();
    const procs = await waitFor('the switch and 2 workers under the demo', UP_TIMEOUT_MS, () => demoProcesses(run));
    const pids = [procs.switchPid, ...procs.workerPids];
    expect(procs.udpPorts).toHaveLength(4);
    run.demo.kill('SIGKILL');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const alive = await waitFor('the demo’s children to exit', GONE_TIMEOUT_MS, () => (pids.some(isAlive) ? undefined : []));
    expect(alive).toEqual([]);
    const busy = await waitFor('the ports to be free', GONE_TIMEOUT_MS, async () => {
      const free = [await tcpPortFree(procs.grpcPort), ...(await Promise.all(procs.udpPorts.map(udpPortFree)))];
      return free.every(Boolean) ? [] : undefined;
    });
    expect(busy).toEqual([]);
    expect(await waitFor('the temp dir to be removed', GONE_TIMEOUT_MS, () => (tempDirsOf(run.demo.pid!).length === 0 ? [] : undefined))).toEqual([]);
  }, 120_000);

  test('kill -9 of the switch mid-job: the demo fails at once saying the switch exited, and leaves no worker behind', async () => {
    const run = startDemo();
    const procs = await waitFor('the switch and 2 workers under the demo', UP_TIMEOUT_MS, () => demoProcesses(run));
    process.kill(procs.switchPid, 'SIGKILL');
    const exit = await run.exited;
    expect(run.stderr()).toMatch(/^p4ina demo: error DEMO_SWITCH_EXITED: the switch exited with signal SIGKILL while switchml's workers were running$/m);
    expect(run.stderr()).not.toMatch(/did not finish within/);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(procs.workerPids.filter(isAlive)).toEqual([]);
    expect(tempDirsOf(run.demo.pid!)).toEqual([]);
  }, 120_000);
});

describe('temp dirs of demos killed before they could remove them', () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'p4ina-orphans-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  test('the next demo removes those whose demo is gone, and only those', async () => {
    // A pid that is certainly gone: a child that has exited and been reaped.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => gone.once('exit', r));
    const dead = `p4ina-demo-${gone.pid}-AbC123`;
    const live = `p4ina-demo-${process.ppid}-XyZ789`;
    const own = `p4ina-demo-${process.pid}-Qwe456`;
    const other = 'p4ina-demo-probe-abcdef';
    for (const name of [dead, live, own, other]) mkdirSync(path.join(base, name, 'sub'), { recursive: true });
    expect(removeStaleDemoTempDirs(base)).toEqual([dead]);
    expect(readdirSync(base).sort()).toEqual([live, own, other].sort());
  });
});
