/**
 * SwitchML, ATP, the parameter server and ring AllReduce side by side on a
 * Mininet testbed (issue #12, "Speed"): for 2, 4 and 8 workers, one p4ina
 * switch with the workers' hosts and one more host for the parameter
 * servers (`single,hosts=K`), every link shaped by TCLink (htb) to the same
 * bandwidth B. Two testbed runs per worker count, because an INA switch runs
 * one program: `--job switchml,ps,ring` (switchml.p4), then `--job atp`
 * (atp.p4, its PS on the extra host). Root only: without root (or without
 * Mininet) it reports why and measures nothing.
 *
 * Link bounds for a tensor of S bytes per worker: SwitchML and ATP send S up
 * and receive S down on each worker's link, so S/B; ring AllReduce moves
 * 2(n−1)/n·S each way on every link; the parameter server's own link carries
 * n·S each way, so n·S/B. "× bound" is time / bound: 1 means the link is the
 * only limit. "switch frames/s" (INA rows) is the nominal frames through the
 * switch per second, in and out, without resends: SwitchML 2·n per packet of
 * 64 values; ATP 2·(n + 1), the aggregate to the PS and its ACK back.
 */
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { rowIsExact, runTestbed, sweepWithLoad, whyTestbedCannotRun, type TestbedRow } from './mininet-testbed.js';

const ALGORITHMS = ['switchml', 'atp', 'ps', 'ring'] as const;
type Algorithm = (typeof ALGORITHMS)[number];
const LINK_MBPS = 10;
const SWITCHML_POOL = 64;
const PACKET_BYTES = 64 * 4;
const KIB = 1024;

/** The link's lower bound on the algorithm's time, ms. */
function linkBoundMs(algorithm: Algorithm, workers: number, bytes: number): number {
  const perWorker = (bytes * 8) / (LINK_MBPS * 1e3);
  if (algorithm === 'ring') return ((2 * (workers - 1)) / workers) * perWorker;
  if (algorithm === 'ps') return workers * perWorker;
  return perWorker;
}

/** Frames through the switch per packet of one worker's tensor (in and out), for the INA algorithms. */
function switchFramesPerPacket(algorithm: Algorithm, workers: number): number | undefined {
  if (algorithm === 'switchml') return 2 * workers;
  if (algorithm === 'atp') return 2 * (workers + 1);
  return undefined;
}

function cells(algorithm: Algorithm, workers: number, bytes: number, row: TestbedRow | undefined): Cell[] {
  const exact = row === undefined ? 'missing' : row.failure !== null ? 'failed' : rowIsExact(row) ? 'yes' : 'no';
  const timeMs = row?.failure === null ? row.timeMs : null;
  const bound = linkBoundMs(algorithm, workers, bytes);
  const frames = switchFramesPerPacket(algorithm, workers);
  const ps = row?.atp?.ps;
  return [
    workers,
    algorithm,
    timeMs === null || timeMs === undefined ? undefined : timeMs / 1000,
    timeMs ? (bytes * 8) / (timeMs * 1e3) : undefined,
    bound / 1000,
    timeMs ? timeMs / bound : undefined,
    // TCP's own retransmissions are the kernel's; the agents count none.
    algorithm === 'ps' || algorithm === 'ring' ? undefined : row?.retransmissions,
    exact,
    frames !== undefined && timeMs ? Math.round(((bytes / PACKET_BYTES) * frames) / (timeMs / 1000)) : undefined,
    ps ? `${ps.completedInSoftware}/${ps.completed}` : undefined,
  ];
}

async function measure(workers: number, bytes: number, progress: (line: string) => void): Promise<{ rows: Cell[][]; failures: string[] }> {
  const common = ['--prefix', 'p4m', '--topo', `single,hosts=${workers}`, '--bw', String(LINK_MBPS), '--tensor', String(bytes), '--timeout', '600'];
  progress(`${workers} workers: switchml, ps, ring`);
  const runs = await runTestbed([...common, '--job', 'switchml,ps,ring', '--pool', String(SWITCHML_POOL)]);
  progress(`${workers} workers: atp`);
  runs.push(...(await runTestbed([...common, '--job', 'atp'])));
  const rows = ALGORITHMS.map((algorithm) => cells(algorithm, workers, bytes, runs.find((r) => r.algorithm === algorithm)));
  const failures = runs.filter((r) => !rowIsExact(r)).map((r) => `${workers} workers, ${r.algorithm}: ${r.failure ?? 'not exact'}`);
  return { rows, failures };
}

export const mininetFourAlgorithms: Benchmark = {
  name: 'mininet-four-algorithms',
  summary: 'Mininet (root): SwitchML, ATP, PS and ring on 2/4/8 hosts with 10 Mbit/s links, each against its link bound',
  async run({ quick, progress }): Promise<BenchResult> {
    const title = `SwitchML, ATP, parameter server and ring AllReduce on a Mininet testbed, every link ${LINK_MBPS} Mbit/s`;
    const columns = ['workers', 'algorithm', 'time (s)', 'Mbit/s/worker', 'link bound (s)', '× bound', 'retransmissions', 'exact', 'switch frames/s', 'PS summed'];
    const why = whyTestbedCannotRun('mininet-four-algorithms');
    if (why) return { title, columns, rows: [], notes: [`skipped: ${why}`] };
    const bytes = (quick ? 256 : 1024) * KIB;
    const { rows, failures, loads } = await sweepWithLoad(quick ? [2] : [2, 4, 8], (workers) => `${workers} workers`, (workers) => measure(workers, bytes, progress));
    return {
      title,
      columns,
      rows,
      notes: [
        `Per worker count two runs of \`mininet/testbed.py --topo single,hosts=K --bw ${LINK_MBPS} --tensor ${bytes / KIB}KiB\`: \`--job switchml,ps,ring --pool ${SWITCHML_POOL}\` (p4/switchml.p4), then \`--job atp\` (p4/atp.p4, 256 aggregators); one p4ina switch (AF_PACKET, its ports' egress at ${LINK_MBPS} Mbit/s), K worker hosts and one host for the parameter servers (ATP's, and the PS baseline's over TCP). One run per row.`,
        "time: the slowest worker's AllReduce call; Mbit/s/worker: tensor bits over that time. link bound: S/B for SwitchML and ATP, 2(n−1)/n·S/B for ring, n·S/B for the PS (its own link carries n·S each way); × bound = time / bound. Wire overhead (headers: about 20% of a 64-value INA frame) is inside the ratio.",
        'retransmissions: resends the INA workers counted (- for PS and ring: TCP\'s own are not counted). exact: every worker\'s result identical and within the float64 check\'s bound. switch frames/s: nominal frames through the switch (SwitchML 2n, ATP 2(n+1) per 64-value packet of one worker) over the time, resends not included. PS summed: ATP sequences its PS summed itself of those it completed (collisions, resends).',
        `1-minute load average before → after (a 2-core machine shared with other work): ${loads.join('; ')}.`,
        ...failures.map((f) => `FAILED ${f}`),
      ],
    };
  },
};
