/**
 * OmniReduce's block-density sweep on loopback (issue #14, "Speed"): for
 * block densities 100, 50, 10 and 1% (sparsity 0, 0.5, 0.9, 0.99, random
 * pattern, blocks of 256 values; the switch variant's blocks are 128), one
 * `runDemo` per density runs OmniReduce with its host aggregator, OmniReduce
 * in the switch, dense SwitchML and ring AllReduce side by side on the same
 * block-sparse tensors. Per row: the time, goodput, bytes each worker put on
 * its link per call, the time against dense SwitchML's and ring's in the same
 * run, retransmissions, and exactness.
 *
 * On loopback nothing is a link: the emulated switch and the processes share
 * two cores, so this shows what skipping zero blocks saves in work (frames
 * through the switch and the agents); the Mininet sweep
 * (omnireduce-density-mininet) shows it where shaped links are the limit.
 */
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../src/demo/demo-options.js';
import { runDemo } from '../src/demo/run-demo.js';
import { rowIsExact, type DemoAlgorithm } from '../src/report/demo-results.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';

const KIB = 1024;
const ALGORITHMS: readonly DemoAlgorithm[] = ['omnireduce', 'omnireduce-switch', 'switchml', 'ring'];
const SPARSITIES = [0, 0.5, 0.9, 0.99] as const;
const BLOCK = 256;
const WORKERS = 4;

async function measure(sparsity: number, tensorBytes: number): Promise<{ rows: Cell[][]; failures: string[] }> {
  const options: DemoOptions = {
    ...DEFAULT_DEMO_OPTIONS,
    algorithms: ALGORITHMS,
    workers: WORKERS,
    tensorBytes,
    sparsity: { sparsity, pattern: 'random', blockElements: BLOCK },
    keepGoing: true,
    runTimeoutMs: 900_000,
  };
  const outcome = await runDemo(options);
  const timeOf = (algorithm: DemoAlgorithm): number | undefined => outcome.rows.find((r) => r.algorithm === algorithm && r.failure === undefined)?.timeMs;
  const switchml = timeOf('switchml');
  const ring = timeOf('ring');
  const failures: string[] = [];
  const rows = outcome.rows.map((row): Cell[] => {
    if (!rowIsExact(row)) failures.push(`${Math.round((1 - sparsity) * 100)}% ${row.algorithm}: ${row.failure ?? 'not exact'}`);
    const t = row.failure === undefined ? row.timeMs : undefined;
    return [
      `${Math.round((1 - sparsity) * 1000) / 10}%`,
      row.algorithm,
      t === undefined ? undefined : t / 1000,
      row.goodputGbps === undefined ? undefined : row.goodputGbps * 1000,
      row.sentPerWorker === undefined ? undefined : row.sentPerWorker / KIB,
      t === undefined || switchml === undefined ? undefined : switchml / t,
      t === undefined || ring === undefined ? undefined : t / ring,
      row.retransmissions,
      rowIsExact(row) ? 'yes' : row.failure !== undefined ? 'failed' : 'no',
    ];
  });
  return { rows, failures };
}

export const omniReduceDensity: Benchmark = {
  name: 'omnireduce-density',
  summary: 'OmniReduce (host and switch) against dense SwitchML and ring at 100/50/10/1% block density, loopback demo, 4 workers',
  async run({ quick, progress }): Promise<BenchResult> {
    const tensorBytes = (quick ? 256 : 2048) * KIB;
    const rows: Cell[][] = [];
    const failures: string[] = [];
    for (const sparsity of quick ? [0, 0.9] : SPARSITIES) {
      progress(`density ${Math.round((1 - sparsity) * 100)}%: ${ALGORITHMS.join(', ')} × ${WORKERS} workers, ${tensorBytes / KIB} KiB`);
      const measured = await measure(sparsity, tensorBytes);
      rows.push(...measured.rows);
      failures.push(...measured.failures);
    }
    return {
      title: `OmniReduce block-density sweep (loopback demo, ${WORKERS} worker processes, ${tensorBytes / KIB} KiB of float32 each)`,
      columns: ['density', 'algorithm', 's', 'Mbit/s/worker', 'KiB sent/worker', '× faster than SwitchML', '× ring time', 'retransmissions', 'exact'],
      rows,
      notes: [
        `One \`runDemo\` per density with --algorithm ${ALGORITHMS.join(',')} --sparsity S --pattern random --sparse-block ${BLOCK}: every algorithm reduces the same block-sparse seeded tensors. omnireduce: workers → p4/omnireduce.p4 (forwarding only) → one host aggregator on a fifth port; omnireduce-switch: the switch aggregates (blocks of 128, the largest omnireduce.p4 takes that divides 256); switchml: p4/switchml.p4, 64 values per packet, dense; ring: TCP. Slots / pool: ${DEFAULT_DEMO_OPTIONS.poolSize}.`,
        "s: the slowest worker's AllReduce call. KiB sent/worker: what each worker's transport sent in the call (UDP wire: whole Ethernet frames; ring: TCP stream bytes). × faster than SwitchML: dense SwitchML's time over the row's, same run. × ring time: the row's time over ring's.",
        'Loopback has no links: every frame costs CPU in the emulated switch and the agents, on two cores shared by all processes, so this shows the work saved by skipping zero blocks, not a link-limited speed-up (see omnireduce-density-mininet).',
        ...failures.map((f) => `FAILED ${f}`),
      ],
    };
  },
};
