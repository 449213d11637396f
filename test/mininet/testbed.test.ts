// Mininet testbeds end to end (issue #6), as root: real namespaces, veths and
// Linux bridges, `p4ina switch` processes on AF_PACKET, the controller from
// the root namespace, one agent per host over the kernel's UDP and TCP.
// Every scenario is in this one file, run one after another, because Mininet
// interface names must not clash; all our names start with PREFIX.
// After each run: no interface, namespace, process or temp dir of ours left.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { descendants } from '../demo/helpers.js';
import { CLI, PREFIX, PYTHON, ROOT, SCRIPT, isAlive, namespaces, ourInterfaces, ourProcesses, runScript, testbedTempDirs, waitAllGone, whyNotRunnable } from './helpers.js';
import type { ScriptRun, TestbedJsonAtp as AtpDetails, TestbedJsonDocument as Document, TestbedJsonRow as Row } from './helpers.js';

const why = whyNotRunnable();
if (why) console.warn(`test/mininet/testbed: skipped: ${why}`);
const bmv2 = spawnSync('sh', ['-c', 'command -v simple_switch_grpc']).status === 0;
const bmv2Files = process.env.P4INA_BMV2_SWITCHML; // "switchml.json,switchml.p4info.txtpb" from p4c-bm2-ss
if (!why && !(bmv2 && bmv2Files)) console.warn('test/mininet/testbed: BMv2 scenario skipped: simple_switch_grpc is not on PATH (or P4INA_BMV2_SWITCHML is unset)');

const SMALL = ['--tensor', '256KiB', '--timeout', '60', '--json'];
const RUN_TIMEOUT_MS = 100_000;

let namespacesBefore: string[] = [];
let tempBefore = new Set<string>();
let lastPids: number[] = [];

function documentOf(run: ScriptRun): Document {
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) throw new Error(`no JSON document (exit ${run.code}); stderr:\n${run.stderr}`);
  const doc = JSON.parse(line) as Document;
  lastPids = doc.pids;
  expect(doc.pids.length).toBeGreaterThan(0);
  return doc;
}

const exact = (row: Row): [string, number, boolean | null, number | null, string | null] => [row.algorithm, row.workers, row.identical, row.boundViolations, row.failure];
const h = (...n: number[]): string[] => n.map((i) => `${PREFIX}h${i}`);

describe.runIf(!why)('Mininet testbeds through p4ina switches (root)', () => {
  beforeEach(() => {
    namespacesBefore = namespaces();
    tempBefore = new Set(testbedTempDirs());
    lastPids = [];
  });

  afterEach(async () => {
    // The clean-up check of every scenario, failed or not.
    expect(await waitAllGone(lastPids)).toEqual([]);
    expect(ourProcesses()).toEqual([]);
    expect(ourInterfaces()).toEqual([]);
    expect(namespaces()).toEqual(namespacesBefore);
    expect(testbedTempDirs().filter((d) => !tempBefore.has(d))).toEqual([]);
  });

  test('single switch, 4 hosts: SwitchML and ring AllReduce exact over AF_PACKET, all results identical', async () => {
    const run = await runScript(['--topo', 'single,hosts=4', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([
      ['switchml', 4, true, 0, null],
      ['ring', 4, true, 0, null],
    ]);
    expect(doc.runs.every((r) => r.bytes === 256 * 1024)).toBe(true);
    expect(doc.hosts).toEqual({ switchml: h(1, 2, 3, 4), ring: h(1, 2, 3, 4) });
    expect(doc.ok).toBe(true);
    // The switch carried every packet of both runs, so it used CPU in each; SwitchML's workers report theirs, ring's do not.
    const [switchml, ring] = doc.runs.map((r) => r.cpu);
    for (const cpu of [switchml!, ring!]) {
      expect(cpu.switches.map((s) => s.switch)).toEqual([`${PREFIX}s1`]);
      expect(cpu.switches[0]!.userMs + cpu.switches[0]!.systemMs).toBeGreaterThan(0);
    }
    expect(switchml!.workersMs).toBeGreaterThan(0);
    expect(ring!.workersMs).toBeNull();
  }, 120_000);

  test('leaf-spine, INA ToR + Linux-bridge ToR: ping and TCP across racks, ring across racks and SwitchML in the INA rack exact', async () => {
    const run = await runScript(['--topo', 'leafspine,racks=2,hosts=2,spines=1', '--ina-tors', '1', '--legacy', 'bridge', '--traffic', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.traffic!.ping).toEqual({ sent: 12, received: 12, failed: [] });
    expect(doc.traffic!.tcp).toEqual([{ from: `${PREFIX}h1`, to: `${PREFIX}h4`, bytes: 2 * 1024 * 1024, ok: true }]);
    expect(doc.hosts).toEqual({ switchml: h(1, 2), ring: h(1, 2, 3, 4) });
    expect(doc.runs.map(exact)).toEqual([
      ['switchml', 2, true, 0, null],
      ['ring', 4, true, 0, null],
    ]);
    // CPU is measured for the P4 switches' processes (the INA ToR and the spine), not for the Linux bridge.
    expect(doc.runs[1]!.cpu.switches.map((s) => s.switch)).toEqual([`${PREFIX}s1`, `${PREFIX}t1`]);
  }, 120_000);

  test('leaf-spine with a legacy ToR running forward.p4 on p4ina: traffic and ring across racks exact', async () => {
    const run = await runScript(['--topo', 'leafspine,racks=2,hosts=1,spines=2', '--ina-tors', '1', '--legacy', 'p4', '--job', 'ring', '--traffic', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.traffic!.ping).toEqual({ sent: 2, received: 2, failed: [] });
    expect(doc.traffic!.tcp.map((t) => t.ok)).toEqual([true]);
    expect(doc.runs.map(exact)).toEqual([['ring', 2, true, 0, null]]);
  }, 120_000);

  test('2% loss on every host link (nftables in the hosts): SwitchML still exact, packets really dropped and resent', async () => {
    const run = await runScript(['--topo', 'single,hosts=4', '--job', 'switchml', '--loss', '0.02', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([['switchml', 4, true, 0, null]]);
    expect(doc.framesLost).toBeGreaterThan(0);
    expect(doc.runs[0]!.retransmissions).toBeGreaterThan(0);
  }, 120_000);

  test('SIGTERM in the middle of a job: exit 130 and everything torn down', async () => {
    // 64 MiB keeps SwitchML busy far longer than it takes the signal to arrive.
    const run = await runScript(['--topo', 'leafspine,racks=2,hosts=2,spines=1', '--ina-tors', '1', '--tensor', '64MiB'], RUN_TIMEOUT_MS, (line) =>
      line.includes('SwitchML:') ? 'SIGTERM' : undefined,
    );
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('interrupted; tearing down');
    expect(run.stdout).toBe('');
  }, 120_000);

  // The orphans scenario of issue #11 for the testbed (here, not in test/robustness: Mininet runs must not overlap).
  test('kill -9 of `p4ina testbed` (Node) mid-job: the runner sees its lifeline break and tears everything down', async () => {
    const node = spawn(process.execPath, [CLI, 'testbed', '--prefix', PREFIX, '--topo', 'single,hosts=2', '--job', 'switchml', '--tensor', '64MiB'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => node.once('exit', (code, signal) => resolve({ code, signal })));
    let stderr = '';
    node.stdout.resume();
    node.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const agents = (pids: number[]): number[] => pids.filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('\0agent\0switchml\0');
      } catch {
        return false;
      }
    });
    // Up: the SwitchML step has begun and both agents run under the runner (bounded; polled).
    let started: number[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && node.exitCode === null) {
      started = descendants(node.pid!);
      if (stderr.includes('SwitchML:') && agents(started).length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(agents(started), stderr).toHaveLength(2);
    node.kill('SIGKILL');
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    lastPids = started;
    // The runner (Python) tears down and exits by itself; afterEach checks interfaces, namespaces and temp dirs.
    expect(await waitAllGone(started, 60_000)).toEqual([]);
  }, 150_000);

  // ATP (issue #12): INA switches run p4/atp.p4, each job's parameter server has a host of its own.
  // 256 KiB of float32 in 64-value packets: 1024 sequences per job, each completed once by its PS.
  const ATP_SEQUENCES = (256 * 1024) / 4 / 64;
  const atpOf = (doc: Document): AtpDetails[] => doc.runs.map((r) => r.atp!);

  test('ATP on a single switch, 4 workers and a PS host: exact and identical, the switch aggregates at level 0', async () => {
    const run = await runScript(['--topo', 'single,hosts=4', '--job', 'atp', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([['atp', 4, true, 0, null]]);
    expect(doc.hosts).toEqual({ atp: h(1, 2, 3, 4) });
    const [atp] = atpOf(doc);
    expect(atp).toMatchObject({ job: 1, psHost: `${PREFIX}ps1`, level0: [`${PREFIX}s1`], level1: null });
    expect(atp!.ps!.completed).toBe(ATP_SEQUENCES);
    // Aggregates the switch completed reach the PS as one piece; what collided or was resent the PS summed itself.
    expect(atp!.ps!.completedByOnePiece).toBeGreaterThan(0);
    expect(atp!.ps!.completedByOnePiece + atp!.ps!.completedInSoftware).toBe(ATP_SEQUENCES);
  }, 120_000);

  test('ATP across an INA ToR and a legacy (Linux-bridge) ToR: exact; the legacy rack\'s share reaches the PS through plain forwarding', async () => {
    const run = await runScript(['--topo', 'leafspine,racks=2,hosts=2,spines=1', '--ina-tors', '1', '--job', 'atp', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([['atp', 4, true, 0, null]]);
    const [atp] = atpOf(doc);
    // The PS has a rack of its own (t3), so that t1 is not between it and rack 2's workers.
    expect(atp).toMatchObject({ psHost: `${PREFIX}ps1`, level0: [`${PREFIX}t1`], level1: null });
    // Every sequence has rack 1's aggregate and rack 2's two workers' own pieces: the PS sums each one.
    expect(atp!.ps).toMatchObject({ completed: ATP_SEQUENCES, completedInSoftware: ATP_SEQUENCES, completedByOnePiece: 0 });
  }, 120_000);

  test('Rina across an INA ToR and a legacy (Linux-bridge) ToR, racks of 2, and hierarchical AllReduce: both exact, the INA rack one ring member', async () => {
    const run = await runScript(['--topo', 'leafspine,racks=2,hosts=2,spines=1', '--ina-tors', '1', '--job', 'rina,hierarchical', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([
      ['rina', 4, true, 0, null],
      ['hierarchical', 4, true, 0, null],
    ]);
    // rina_tor.p4 on t1 aggregates rack 1 (its agent h1 sends its own pieces to t1's address); rack 2's workers are members of their own.
    expect(doc.runs.map((r) => r.inaRacks)).toEqual([[`${PREFIX}t1`], null]);
    expect(doc.hosts).toEqual({ rina: h(1, 2, 3, 4), hierarchical: h(1, 2, 3, 4) });
  }, 120_000);

  test('ATP on two levels: both ToRs at level 0, an INA spine at level 1 sums the racks on the way to the PS, exact', async () => {
    const run = await runScript(['--topo', 'leafspine,racks=2,hosts=1,spines=1', '--ina-tors', 'all', '--spine', 'ina', '--job', 'atp', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([['atp', 2, true, 0, null]]);
    const [atp] = atpOf(doc);
    expect(atp).toMatchObject({ level0: [`${PREFIX}t1`, `${PREFIX}t2`], level1: `${PREFIX}s1` });
    expect(atp!.ps!.completed).toBe(ATP_SEQUENCES);
    expect(atp!.ps!.level1Aggregates).toBeGreaterThan(0);
  }, 120_000);

  test('--jobs 3: three ATP jobs at once on one switch and its shared pool, one row per job, every one exact', async () => {
    const run = await runScript(['--topo', 'single,hosts=2', '--job', 'atp', '--jobs', '3', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([
      ['atp', 2, true, 0, null],
      ['atp', 2, true, 0, null],
      ['atp', 2, true, 0, null],
    ]);
    expect(atpOf(doc).map((a) => [a.job, a.psHost, a.level0, a.ps!.completed])).toEqual([1, 2, 3].map((j) => [j, `${PREFIX}ps${j}`, [`${PREFIX}s1`], ATP_SEQUENCES]));
  }, 150_000);

  test('SIGTERM while two ATP jobs run: exit 130, and every PS and worker it started is gone with the network', async () => {
    const child = spawn(PYTHON, [SCRIPT, '--prefix', PREFIX, '--topo', 'single,hosts=2', '--job', 'atp', '--jobs', '2', '--tensor', '64MiB'], {
      cwd: ROOT,
      env: { ...process.env, P4INA_NODE: process.execPath, P4INA_CLI: CLI },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const agents = (pids: number[]): number[] => pids.filter((pid) => {
      try {
        return /\0agent\0atp-(worker|ps)\0/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
    // Up: both PSes and all four workers run under the runner (bounded; polled).
    let started: number[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && child.exitCode === null) {
      started = descendants(child.pid!);
      if (agents(started).length === 6) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(agents(started), stderr).toHaveLength(6);
    child.kill('SIGTERM');
    expect(await exited).toBe(130);
    expect(stderr).toContain('interrupted; tearing down');
    lastPids = started;
  }, 150_000);

  // The parameter-server baseline's server shares ATP's PS host (runs go one at a time); shaped links, as in
  // bench/mininet-four-algorithms.ts, make the server's link the bottleneck that carries 3 tensors each way.
  test('ATP, the PS baseline and ring on one switch with shaped links: the PS server on the PS host, every row exact', async () => {
    const run = await runScript(['--topo', 'single,hosts=3', '--job', 'atp,ps,ring', '--bw', '5', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([
      ['atp', 3, true, 0, null],
      ['ps', 3, true, 0, null],
      ['ring', 3, true, 0, null],
    ]);
    expect(doc.hosts).toEqual({ atp: h(1, 2, 3), ps: h(1, 2, 3), ring: h(1, 2, 3) });
    expect(run.stderr).toContain(`its server on ${PREFIX}ps1`);
    expect(doc.runs[0]!.atp!.psHost).toBe(`${PREFIX}ps1`);
  }, 120_000);

  // OmniReduce (issue #14): its host aggregator on the PS host, then the switch reprogrammed to omnireduce.p4 (blocks of
  // 128, the largest it takes that divides the pattern's 256); every algorithm's workers reduce the same 90%-zero tensors.
  test('OmniReduce on a host aggregator and in the switch beside dense SwitchML and ring, 90% zero blocks: every row exact', async () => {
    const run = await runScript(['--topo', 'single,hosts=3', '--job', 'omnireduce,omnireduce-switch,switchml,ring', '--sparsity', '0.9', ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([
      ['switchml', 3, true, 0, null],
      ['omnireduce', 3, true, 0, null],
      ['omnireduce-switch', 3, true, 0, null],
      ['ring', 3, true, 0, null],
    ]);
    expect(doc.runs.map((r) => r.omnireduce)).toEqual([null, { aggregator: `${PREFIX}ps1`, blockSize: 256, slots: 32 }, { aggregator: `${PREFIX}s1`, blockSize: 128, slots: 32 }, null]);
    expect(run.stderr).toContain('the INA switches: p4/omnireduce.p4 instead of p4/switchml.p4');
    // Of 256 blocks an OmniReduce worker sends its ~26 non-zero ones and the first of each of the 32 slots, about a fifth
    // of the dense bytes every SwitchML worker sends (dense it would be about as much); half leaves room for any resends.
    const sent = doc.runs.map((r) => r.sentPerWorker!);
    expect(sent[1]! / sent[0]!).toBeLessThan(0.5);
    expect(sent[2]! / sent[0]!).toBeLessThan(0.5);
  }, 150_000);

  test('a bad --topo is refused with a message and nothing is built', async () => {
    const run = await runScript(['--topo', 'ring,hosts=3'], RUN_TIMEOUT_MS);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--topo: start with "single" or "leafspine"');
  }, 60_000);

  test.runIf(bmv2 && bmv2Files)('BMv2 instead of p4ina: single switch, SwitchML and ring exact', async () => {
    const run = await runScript(['--topo', 'single,hosts=3', '--target', 'bmv2', '--bmv2-switchml', bmv2Files!, ...SMALL], RUN_TIMEOUT_MS);
    const doc = documentOf(run);
    expect(run.code, run.stderr).toBe(0);
    expect(doc.runs.map(exact)).toEqual([
      ['switchml', 3, true, 0, null],
      ['ring', 3, true, 0, null],
    ]);
  }, 120_000);
});

test('isAlive tells a live process from a gone one', () => {
  expect(isAlive(process.pid)).toBe(true);
});
