/**
 * ATP, SwitchML, the parameter server and ring AllReduce side by side in one
 * run (issue #12, "Speed"): the loopback demo (src/demo, `p4ina demo
 * --algorithm switchml,atp,ps,ring`) for 2, 4 and 8 worker processes on
 * 4 MiB of float32 each (`--quick`: 2 and 4 workers, 512 KiB). Small
 * tensors keep the whole benchmark to a couple of minutes: the INA runs go
 * through the emulated switch at a few Mbit/s.
 *
 * Per row: the algorithm's time (the slowest worker's allreduce call), its
 * goodput per worker, its time over ring's in the same demo run, the
 * retransmissions its workers counted, and for ATP the share of result
 * packets the switch aggregated whole (the rest the PS summed from pieces).
 */
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../src/demo/demo-options.js';
import { switchShare } from '../src/demo/atp-server-report.js';
import { runDemo } from '../src/demo/run-demo.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';

const KIB = 1024;
const ALGORITHMS = ['switchml', 'atp', 'ps', 'ring'] as const;

async function measure(workers: number, tensorBytes: number): Promise<Cell[][]> {
  const options: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, algorithms: ALGORITHMS, workers, tensorBytes, runTimeoutMs: 600_000 };
  const outcome = await runDemo(options);
  const ring = outcome.rows.find((r) => r.algorithm === 'ring');
  return ALGORITHMS.map((algorithm) => {
    const row = outcome.rows.find((r) => r.algorithm === algorithm);
    if (!row || row.failure !== undefined || !row.identical || row.boundViolations !== 0) {
      throw new Error(`${algorithm} with ${workers} workers was not exact: ${row?.failure ?? 'results differ or break the bound'}`);
    }
    const share = algorithm === 'atp' && outcome.atp ? switchShare(outcome.atp) : undefined;
    return [
      workers,
      algorithm,
      (row.timeMs ?? NaN) / 1000,
      (row.goodputGbps ?? NaN) * 1000,
      (row.timeMs ?? NaN) / (ring?.timeMs ?? NaN),
      row.retransmissions,
      share === undefined ? '-' : `${(Math.floor(share * 1000) / 10).toFixed(1)}%`,
    ];
  });
}

export const fourAlgorithms: Benchmark = {
  name: 'four-algorithms',
  summary: 'ATP, SwitchML, PS and ring AllReduce in one demo run each, 2/4/8 workers, 4 MiB',
  async run({ quick, progress }): Promise<BenchResult> {
    const bytes = (quick ? 512 : 4096) * KIB;
    const rows: Cell[][] = [];
    for (const workers of quick ? [2, 4] : [2, 4, 8]) {
      progress(`${workers} workers × ${bytes / KIB} KiB`);
      rows.push(...(await measure(workers, bytes)));
    }
    return {
      title: 'ATP, SwitchML, parameter server and ring AllReduce (loopback demo, worker processes)',
      columns: ['workers', 'algorithm', 's', 'Mbit/s/worker', '× ring', 'retransmissions', 'by switch'],
      rows,
      notes: [
        `One \`runDemo\` per worker count with --algorithm switchml,atp,ps,ring on the same seeded tensors (${bytes / KIB} KiB of float32 per worker): SwitchML through p4/switchml.p4 and ATP through p4/atp.p4, each in its own \`p4ina switch\` child with one UDP wire per worker (ATP's PS on one more), programmed by the controller over P4Runtime; PS and ring over TCP. Every row exact and identical on all workers.`,
        `SwitchML's pool and ATP's window: ${DEFAULT_DEMO_OPTIONS.poolSize} (each worker's packets in flight); 64 values per packet; ATP hashes over atp.p4's 4096 aggregators.`,
        "s: the slowest worker's allreduce call; Mbit/s/worker: tensor bits per worker over that time; × ring: the time over ring's in the same run.",
        'retransmissions: resends all workers counted (0 over TCP). by switch: the share of ATP result packets that reached its PS as one whole aggregate from the switch (the rest the PS summed from pieces).',
      ],
    };
  },
};
