// `p4ina rollout` on the loopback fabric as a user runs it (the built CLI, real switch and agent
// processes, UDP wires): every stage of a 2-rack leaf-spine, every cell exact against the float64
// reference (the workers' --check) and bit-identical on all workers, the stages nested as the
// seed orders the ToRs, an SVG written, and nothing left running.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { descendants } from '../demo/helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(root, 'dist/src/cli/main.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'p4ina-rollout-'));

/** `p4ina rollout ARGS` to its end: exit code, stdout, stderr. */
async function rollout(args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [cli, 'rollout', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, err };
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Cell {
  stage: number;
  inaTors: string[];
  algorithm: string;
  runs: string;
  repeats: number;
  exactRuns: number;
  failures: string[];
  timeMs: number;
}

describe.runIf(existsSync(cli))('p4ina rollout on loopback', () => {
  test('Rina, ATP, hierarchical and ring at every stage of leafspine,racks=2,hosts=2: exact everywhere, the ring shrinking with each INA rack', async () => {
    const plot = path.join(dir, 'rollout.svg');
    const child = spawn(process.execPath, [cli, 'rollout', '--topo', 'leafspine,racks=2,hosts=2,spines=1', '--algorithms', 'rina,atp,hierarchical,ring', '--tensor', '16KiB', '--seed', '5', '--json', '--plot', plot], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const children = new Set<number>();
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      // At each progress line: the fabric's switches and the agents are its descendants.
      for (const pid of descendants(child.pid!)) children.add(pid);
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, err).toBe(0);
    const report = JSON.parse(out) as { tors: number; workers: number; cells: Cell[] };
    expect(report).toMatchObject({ tors: 2, workers: 4 });
    const algorithms = ['rina', 'atp', 'hierarchical', 'ring'];
    expect(report.cells.map((c) => [c.stage, c.inaTors.length, c.algorithm, c.exactRuns, c.failures])).toEqual(
      [0, 1, 2].flatMap((stage) => algorithms.map((algorithm) => [stage, stage, algorithm, 1, []])),
    );
    const atp = report.cells.filter((c) => c.algorithm === 'atp');
    // Nested stages: the ToR upgraded first stays upgraded.
    expect(atp[2]!.inaTors.slice(0, 1)).toEqual(atp[1]!.inaTors);
    expect(atp.map((c) => c.runs)).toEqual(['atp (PS only)', 'atp (partial INA)', 'atp (partial INA)']);
    // Two racks of two: the planner's racks, the same at every stage.
    for (const c of report.cells.filter((c) => c.algorithm === 'hierarchical')) expect(c.runs).toMatch(/^hierarchical, 2 racks/);
    // Rina's rule (docs/wire.md §7): an INA rack of 2 is one member, so the ring has 4, 3, then 2 members.
    expect(report.cells.filter((c) => c.algorithm === 'rina').map((c) => c.runs)).toEqual(['rina = ring of 4 (UDP, through the switches)', 'rina, ring of 3 (1 INA rack)', 'rina, ring of 2 (2 INA racks)']);
    const svg = readFileSync(plot, 'utf8');
    expect(svg.match(/class="point"/g)).toHaveLength(12);
    expect(err).toContain('rollout: run 12/12');
    // The 4 switches (3 ToRs and the spine) at least, plus the agents seen at progress lines.
    expect(children.size).toBeGreaterThanOrEqual(4);
    for (const pid of children) expect(() => process.kill(pid, 0), `pid ${pid} still running`).toThrow();
  }, 240_000);

  test('with --loss the ATP run loses frames on the host links and is still exact', async () => {
    const { code, out, err } = await rollout(['--topo', 'leafspine,racks=2,hosts=1,spines=1', '--algorithms', 'atp', '--stages', '1', '--tensor', '16KiB', '--loss', '0.05', '--json', '--no-plot']);
    expect(code, err).toBe(0);
    const [cell] = (JSON.parse(out) as { cells: (Cell & { framesLost: number; retransmissions: number })[] }).cells;
    expect(cell).toMatchObject({ stage: 1, algorithm: 'atp', exactRuns: 1, failures: [] });
    // Two workers of 64 packets each, their ACKs and the PS's traffic: 5% of several hundred frames.
    expect(cell!.framesLost).toBeGreaterThan(0);
    expect(cell!.retransmissions).toBeGreaterThan(0);
  }, 240_000);

  test('SwitchML on a single switch: the ring fallback at stage 0, the switch aggregating at stage 1, both exact', async () => {
    const { code, out, err } = await rollout(['--topo', 'single,hosts=2', '--algorithms', 'switchml', '--tensor', '16KiB', '--json', '--no-plot']);
    expect(code, err).toBe(0);
    const cells = (JSON.parse(out) as { cells: Cell[] }).cells;
    expect(cells.map((c) => [c.stage, c.exactRuns, c.failures])).toEqual([
      [0, 1, []],
      [1, 1, []],
    ]);
    expect(cells[0]!.runs).toMatch(/^ring as fallback, no INA switch on every path/);
    expect(cells[1]!.runs).toBe('switchml at p4is1');
  }, 240_000);
});
