// `p4ina rollout --net mininet` as root, through the built CLI: every run is a whole Mininet
// testbed (mininet/testbed.py: namespaces, veths, p4ina switch processes on AF_PACKET), the
// stage's ToRs INA-capable. Every cell exact (the workers' --check against the float64
// reference, bit-identical on all workers), ATP's levels and Rina's INA racks as the stages
// say, Ctrl-C tears the running testbed down, and nothing
// of ours is left: no p4i interface, no new namespace, no process the run started, no temp dir.
// Without root the command must refuse before anything starts (ROLLOUT_NEEDS_ROOT).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { descendants } from '../demo/helpers.js';
import { CLI, ROOT, isAlive, namespaces, waitAllGone, whyNotRunnable } from '../mininet/helpers.js';

/** The rollout's testbeds use the testbed's default prefix, as the loopback fabric's names do. */
const PREFIX = 'p4i';
const TOPO = 'leafspine,racks=2,hosts=1,spines=1';
const NOBODY = 65534;

const why = whyNotRunnable();
if (why) console.warn(`test/rollout/mininet-sweep: skipped: ${why}`);

interface Cell {
  stage: number;
  inaTors: string[];
  algorithm: string;
  runs: string | undefined;
  exactRuns: number;
  failures: string[];
  timeMs: number | undefined;
}

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every descendant seen while it ran (sampled at each stderr chunk), with its command line then. */
  children: Map<number, string>;
}

/** Runs the CLI; `onChildren` sees the descendants at each stderr chunk and may return a signal to send the CLI (once). */
function runCli(args: readonly string[], onChildren?: (pids: number[]) => NodeJS.Signals | undefined): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const run: CliRun = { code: null, stdout: '', stderr: '', children: new Map() };
    let signalled = false;
    child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      run.stderr += d.toString();
      const now = descendants(child.pid!);
      for (const pid of now) if (!run.children.has(pid)) run.children.set(pid, cmdline(pid));
      const signal = onChildren?.(now);
      if (signal && !signalled) {
        signalled = true;
        child.kill(signal);
      }
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ ...run, code }));
  });
}

function ourInterfaces(): string[] {
  return spawnSync('ip', ['-o', 'link'], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => line.split(':')[1]?.trim().split('@')[0] ?? '')
    .filter((name) => name.startsWith(PREFIX));
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

describe('p4ina rollout --net mininet without root', () => {
  test('refuses with ROLLOUT_NEEDS_ROOT and the reason, before anything starts', async () => {
    const asRoot = process.getuid?.() === 0;
    // As root, the same command as an unprivileged user (nobody, 65534, can read the checkout and dist/).
    const argv = ['rollout', '--net', 'mininet', '--topo', TOPO, '--algorithms', 'atp', '--tensor', '64KiB', '--json', '--no-plot'];
    const run = spawnSync(process.execPath, [CLI, ...argv], { cwd: '/', encoding: 'utf8', ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('error ROLLOUT_NEEDS_ROOT: Mininet needs root');
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain('rollout: run');
  }, 30_000);
});

describe.runIf(!why)('p4ina rollout --net mininet (root)', () => {
  let namespacesBefore: string[] = [];
  let started = new Map<number, string>();

  beforeEach(() => {
    namespacesBefore = namespaces();
    started = new Map();
    // A testbed of someone else's with our prefix would make the checks below meaningless.
    expect(ourInterfaces(), 'another Mininet with prefix p4i is running on this machine').toEqual([]);
  });

  afterEach(async () => {
    // Every scenario, failed or not: the testbeds' processes gone, their interfaces, namespaces and temp dirs too.
    // Other people's testbeds (other prefixes) may run meanwhile: only what our runs started and named is checked.
    expect(await waitAllGone([...started.keys()])).toEqual([]);
    expect(ourInterfaces()).toEqual([]);
    expect(namespaces()).toEqual(namespacesBefore);
    const tempDirs = new Set([...started.values()].flatMap((c) => c.match(/\/tmp\/p4ina-testbed-[^/ ]+/g) ?? []));
    expect([...tempDirs].filter((d) => existsSync(d))).toEqual([]);
  });

  test('Rina, ATP, hierarchical and ring at every stage of leafspine,racks=2,hosts=1: every cell exact, each run as the stage says', async () => {
    const algorithms = ['rina', 'atp', 'hierarchical', 'ring'];
    const run = await runCli(['rollout', '--net', 'mininet', '--topo', TOPO, '--algorithms', algorithms.join(','), '--tensor', '64KiB', '--json', '--no-plot']);
    started = run.children;
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { net: string; tors: number; workers: number; cells: Cell[] };
    expect(report).toMatchObject({ net: 'mininet', tors: 2, workers: 2 });
    const cells = report.cells;
    expect(cells.map((c) => [c.stage, c.inaTors.length, c.algorithm, c.exactRuns, c.failures])).toEqual(
      [0, 1, 2].flatMap((stage) => algorithms.map((algorithm) => [stage, stage, algorithm, 1, []])),
    );
    for (const c of cells) expect(c.timeMs).toBeGreaterThan(0);
    const of = (algorithm: string): Cell[] => cells.filter((c) => c.algorithm === algorithm);
    // Stage names are the loopback fabric's (and Mininet's): the stage-1 ToR is one of p4it1, p4it2, and stays INA at stage 2.
    const first = of('atp')[1]!.inaTors;
    expect(first).toHaveLength(1);
    expect(['p4it1', 'p4it2']).toContain(first[0]);
    expect(of('atp')[2]!.inaTors.slice(0, 1)).toEqual(first);
    expect(of('atp').map((c) => c.runs)).toEqual(['atp (PS only)', `atp (level 0: ${first[0]})`, 'atp (level 0: p4it1, p4it2)']);
    expect(of('rina').map((c) => c.runs)).toEqual(['rina = ring of 2 (UDP, no INA rack)', `rina (1 INA rack: ${first[0]})`, 'rina (2 INA racks: p4it1, p4it2)']);
    expect(of('hierarchical').map((c) => c.runs)).toEqual(Array(3).fill('hierarchical (TCP, 2 workers)'));
    expect(of('ring').map((c) => c.runs)).toEqual(Array(3).fill('ring of 2 (TCP)'));
    // The testbeds really ran: the script and its p4ina switches were children of the CLI.
    const commands = [...run.children.values()];
    expect(commands.some((c) => c.includes('mininet/testbed.py'))).toBe(true);
    expect(commands.some((c) => / switch --device-id /.test(c))).toBe(true);
  }, 600_000);

  test('Ctrl-C while a testbed runs: exit 130, ROLLOUT_INTERRUPTED, the testbed tears its network down', async () => {
    // SIGINT to the CLI alone (not its process group), once a p4ina switch of the first testbed is up.
    const run = await runCli(['rollout', '--net', 'mininet', '--topo', TOPO, '--algorithms', 'atp', '--tensor', '1MiB', '--json', '--no-plot'], (pids) =>
      pids.some((pid) => / switch --device-id /.test(cmdline(pid))) ? 'SIGINT' : undefined,
    );
    started = run.children;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('error ROLLOUT_INTERRUPTED');
    expect(run.stdout).toBe('');
    expect([...started.values()].some((c) => / switch --device-id /.test(c))).toBe(true);
    expect([...started.keys()].filter(isAlive).map(cmdline).filter((c) => c !== '')).toEqual([]);
  }, 300_000);
});
