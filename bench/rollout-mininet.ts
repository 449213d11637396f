/**
 * Issue #13's benchmark: `p4ina rollout --net mininet` on
 * leafspine,racks=4,hosts=2,spines=1 with every link shaped, every stage
 * (0..4 INA ToRs), Rina, ATP, hierarchical and ring, three repeats; each
 * cell beside its busiest link's bound (rollout-link-bounds.ts), and Rina
 * against ATP at the same stage (Rina's paper: more than 1.5× ATP's
 * throughput at partial deployment, about the best INA at full, ring flat).
 * Two link rates: 10 Mbit/s (the issue's) and 1 Mbit/s, where the emulated
 * switches' CPU weighs less against the links. The sweep's SVG plots go to
 * bench/rollout-mininet-<rate>.svg. Root only: without it, it says why.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cell } from '../src/report/table.js';
import type { RolloutCell } from '../src/rollout/rollout-cells.js';
import type { RolloutReport } from '../src/rollout/rollout-report.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { whyTestbedCannotRun } from './mininet-testbed.js';
import { linkBoundMs, type BoundAlgorithm, type LeafSpine } from './rollout-link-bounds.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = process.env.P4INA_CLI ?? path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const ALGORITHMS: readonly BoundAlgorithm[] = ['rina', 'atp', 'hierarchical', 'ring'];
const KIB = 1024;

interface Sweep {
  readonly topo: LeafSpine;
  readonly mbps: number;
  readonly bytes: number;
  readonly repeats: number;
}

/** One `p4ina rollout --net mininet … --json`; its progress lines go to `progress`. */
function runSweep(sweep: Sweep, progress: (line: string) => void): Promise<RolloutReport> {
  const { topo, mbps, bytes, repeats } = sweep;
  const args = [
    CLI, 'rollout', '--net', 'mininet',
    '--topo', `leafspine,racks=${topo.racks},hosts=${topo.hostsPerRack},spines=1`,
    '--algorithms', ALGORITHMS.join(','),
    '--tensor', String(bytes), '--bw', String(mbps), '--repeat', String(repeats),
    '--plot', path.join(ROOT, 'bench', `rollout-mininet-${mbps}mbps.svg`), '--json',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const last = d.toString().split(/[\r\n]/).filter((l) => l.startsWith('rollout:')).at(-1);
      if (last) progress(last);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (!line.startsWith('{')) return reject(new Error(`p4ina rollout printed no report (exit ${code}):\n${err.trim().split('\n').slice(-10).join('\n')}`));
      resolve(JSON.parse(line) as RolloutReport);
    });
  });
}

function rows(sweep: Sweep, report: RolloutReport): Cell[][] {
  const at = (stage: number, algorithm: string): RolloutCell | undefined => report.cells.find((c) => c.stage === stage && c.algorithm === algorithm);
  return report.cells.map((cell) => {
    const bound = linkBoundMs(cell.algorithm as BoundAlgorithm, sweep.topo, cell.stage, sweep.bytes, sweep.mbps);
    const ring = at(cell.stage, 'ring')?.timeMs;
    const atp = at(cell.stage, 'atp')?.timeMs;
    const t = cell.timeMs;
    return [
      sweep.mbps,
      `${cell.stage}/${sweep.topo.racks}`,
      cell.algorithm,
      cell.runs,
      t === undefined ? undefined : t / 1000,
      bound / 1000,
      t === undefined ? undefined : t / bound,
      t !== undefined && ring !== undefined ? ring / t : undefined,
      cell.algorithm === 'rina' && t !== undefined && atp !== undefined ? atp / t : undefined,
      cell.retransmissions === undefined ? undefined : Math.round(cell.retransmissions),
      `${cell.exactRuns}/${cell.repeats}`,
    ];
  });
}

export const rolloutMininet: Benchmark = {
  name: 'rollout-mininet',
  summary: 'Mininet (root): the rollout sweep, 4 racks × 2 hosts, every stage, Rina/ATP/hierarchical/ring, 3 repeats, each against its link bound',
  async run({ quick, progress }): Promise<BenchResult> {
    const title = 'p4ina rollout --net mininet: every stage of an INA rollout, each algorithm against its busiest link\'s bound';
    const columns = ['Mbit/s', 'stage', 'algorithm', 'runs', 'median time (s)', 'link bound (s)', '× bound', 'speed vs ring', 'Rina vs ATP', 'retransmissions', 'exact'];
    const why = whyTestbedCannotRun('rollout-mininet');
    if (why) return { title, columns, rows: [], notes: [`skipped: ${why}`] };
    const topo: LeafSpine = quick ? { racks: 2, hostsPerRack: 1 } : { racks: 4, hostsPerRack: 2 };
    const sweeps: Sweep[] = quick ? [{ topo, mbps: 10, bytes: 64 * KIB, repeats: 1 }] : [10, 1].map((mbps) => ({ topo, mbps, bytes: 256 * KIB, repeats: 3 }));
    const table: Cell[][] = [];
    const notes: string[] = [];
    for (const sweep of sweeps) {
      const before = loadavg()[0]!;
      const started = Date.now();
      const report = await runSweep(sweep, progress);
      table.push(...rows(sweep, report));
      const failed = report.cells.filter((c) => c.failures.length > 0 || c.exactRuns < c.repeats);
      notes.push(`${sweep.mbps} Mbit/s: ${report.cells.length} cells × ${sweep.repeats} repeat(s) in ${((Date.now() - started) / 60000).toFixed(1)} min; 1-minute load ${before.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}; ${failed.length ? `NOT EXACT OR FAILED: ${failed.map((c) => `stage ${c.stage} ${c.algorithm}: ${c.failures[0] ?? `${c.exactRuns}/${c.repeats} exact`}`).join('; ')}` : 'every cell exact in every repeat'}.`);
    }
    return {
      title,
      columns,
      rows: table,
      notes: [
        `\`p4ina rollout --net mininet --topo leafspine,racks=${topo.racks},hosts=${topo.hostsPerRack},spines=1 --algorithms ${ALGORITHMS.join(',')} --tensor ${sweeps[0]!.bytes / KIB}KiB --bw B --repeat ${sweeps[0]!.repeats}\`: each stage × algorithm × repeat is one Mininet testbed (the stage's ToRs run the algorithm's INA program, the other switches forward.p4, p4ina switch processes on AF_PACKET, every link TCLink-shaped to B and the switches' egress queues at B). Stages nested and seeded.`,
        'median time: the slowest worker\'s AllReduce, median of the repeats. link bound: the busiest link\'s payload at B (bench/rollout-link-bounds.ts: ring 2(n−1)/n·S, hierarchical (H−1 + 2(R−1)/R)·S at a rack leader, ATP one S per contributor on the PS\'s link, Rina max(2(M−1)/M, (2M−1)/M)·S for a ring of M members); × bound = time / bound (headers, about 20% of a 64-value frame, are inside it). speed vs ring: ring\'s time / this time at the same stage; Rina vs ATP: ATP\'s time / Rina\'s.',
        'retransmissions: the UDP agents\' resends per repeat (TCP\'s own are not counted: hierarchical and ring show 0). exact: repeats whose every worker matched the float64 reference within its bound, bit-identical on all workers.',
        ...notes,
      ],
    };
  },
};
