/**
 * SwitchML against its lower bound and against ring AllReduce on a Mininet
 * testbed (issue #6, "Speed"; issue #15, bigger packets): one switch, 4
 * hosts, every host link shaped to the same bandwidth B by Mininet's TCLink
 * (htb). At each link speed SwitchML runs at 64 values per packet (its own
 * size) and at 256, one testbed run each, and ring once. Root only: without
 * root (or without Mininet) it reports why and measures nothing.
 *
 * Bounds, per worker with a tensor of S bytes: in-network aggregation sends S
 * up and receives S down on its own link, so S/B; ring AllReduce moves
 * 2(n−1)/n·S each way, so 2(n−1)/n·S/B. Ratios are time / bound (1 = the
 * link is the only limit). Frames through the switch per second during a
 * SwitchML run (2·n·S/(4E) frames, in and out, for E values per packet, over its time)
 * show when the switch, not the link, is the limit.
 */
import type { Cell } from '../src/report/table.js';
import { SWITCHML_HEADER_LENGTH } from '../src/wire/index.js';
import type { Benchmark, BenchResult } from './benchmark.js';
import { rowIsExact, runTestbed, switchCpuSeconds, whyTestbedCannotRun, type TestbedRow } from './mininet-testbed.js';

const WORKERS = 4;
/** SwitchML's own packet size first: its run also runs ring, so ring's figures sit on that row. */
const VALUES_PER_PACKET = [64, 256] as const;
const MIB = 1024 * 1024;
/** Ethernet, IPv4 and UDP headers: with SwitchML's, what each packet carries besides its values. */
const FRAME_HEADERS = 14 + 20 + 8;

function exactOrThrow(runs: readonly TestbedRow[], what: string): void {
  for (const r of runs) if (!rowIsExact(r)) throw new Error(`${r.algorithm} ${what} did not finish exact: ${r.failure ?? 'results differ'}`);
}

const overhead = (elements: number): string => `${Math.round((100 * (FRAME_HEADERS + SWITCHML_HEADER_LENGTH)) / (4 * elements))}% at ${elements}`;

export const testbedBench: Benchmark = {
  name: 'testbed',
  summary: 'Mininet (root): SwitchML at 64 and 256 values per packet vs its bound S/B and vs ring on 4 hosts with shaped links',
  async run({ quick, progress }): Promise<BenchResult> {
    const title = `Mininet testbed: SwitchML vs bound and ring, ${WORKERS} hosts on one p4ina switch`;
    const columns = ['link (Mbit/s)', 'tensor', 'values/pkt', 'SwitchML (ms)', 'S/B (ms)', 'SwitchML / (S/B)', 'ring (ms)', 'ring bound (ms)', 'ring / bound', 'ring / SwitchML', 'switch frames/s', 'SwitchML resends', 'switch CPU (s)', 'workers CPU (s)'];
    const why = whyTestbedCannotRun('testbed');
    if (why) return { title, columns, rows: [], notes: [`skipped: ${why}`] };
    const cases: [number, number][] = quick ? [[10, MIB / 4]] : [[100, 4 * MIB], [10, 2 * MIB], [2, MIB]];
    const rows: Cell[][] = [];
    for (const [mbps, bytes] of cases) {
      const bound = (bytes * 8) / (mbps * 1e3);
      const ringBound = ((2 * (WORKERS - 1)) / WORKERS) * bound;
      let ring: TestbedRow | undefined;
      for (const elements of VALUES_PER_PACKET) {
        progress(`${mbps} Mbit/s links, ${bytes / MIB} MiB per worker, ${elements} values per packet`);
        const jobs = ring === undefined ? 'switchml,ring' : 'switchml';
        const args = ['--prefix', 'p4b', '--topo', `single,hosts=${WORKERS}`, '--job', jobs, '--elements', String(elements), '--bw', String(mbps), '--tensor', String(bytes), '--pool', '64', '--timeout', '600'];
        const runs = await runTestbed(args);
        exactOrThrow(runs, `at ${mbps} Mbit/s and ${elements} values per packet`);
        const ina = runs.find((r) => r.algorithm === 'switchml');
        const ringHere = runs.find((r) => r.algorithm === 'ring');
        ring ??= ringHere;
        const packets = (bytes / 4 / elements) * WORKERS * 2;
        rows.push([
          mbps,
          `${bytes / MIB} MiB`,
          elements,
          ina?.timeMs,
          bound,
          ina?.timeMs ? ina.timeMs / bound : null,
          // Ring ran once per link speed: its own figures on the row of the run it was in, its ratio to SwitchML on every row.
          ringHere?.timeMs,
          ringHere ? ringBound : null,
          ringHere?.timeMs ? ringHere.timeMs / ringBound : null,
          ina?.timeMs && ring?.timeMs ? ring.timeMs / ina.timeMs : null,
          ina?.timeMs ? Math.round(packets / (ina.timeMs / 1000)) : null,
          ina?.retransmissions,
          switchCpuSeconds(ina),
          ina?.cpu?.workersMs == null ? null : ina.cpu.workersMs / 1000,
        ]);
      }
    }
    return {
      title,
      columns,
      rows,
      notes: [
        `Times are the slowest worker's AllReduce call (its JSON report). Per link speed: one run of \`mininet/testbed.py --topo single,hosts=4 --bw B --job switchml,ring --elements ${VALUES_PER_PACKET[0]}\` (SwitchML pool 64, then ring over TCP on the same links), then one with --job switchml --elements ${VALUES_PER_PACKET[1]}; ring's columns are on the first row, "ring / SwitchML" uses that ring time on both.`,
        `values/pkt: int32 values per SwitchML packet (switchml.p4 compiled with -DSWITCHML_ELEMENTS, the job's and the workers'). S/B: in-network aggregation's bound per worker; ring bound: 2(n−1)/n·S/B. Ratios are time / bound. Wire overhead (Ethernet, IPv4, UDP and the SwitchML header on the values: about ${VALUES_PER_PACKET.map(overhead).join(', ')} values per packet) is inside the ratio.`,
        '"switch frames/s": frames through p4ina\'s switch per second during the row\'s SwitchML run: 2·n·S/(4E) frames in and out for E values per packet, over its time; when it is flat across link speeds, the switch\'s packet rate, not the link, sets the time.',
        '"switch CPU": user + system CPU of the switch process from its first worker\'s start to its last worker\'s exit (/proc/PID/stat); "workers CPU": the 4 workers\' own CPU during their calls, summed. Both share the machine\'s cores with Mininet; kernel work done in softirq for a process (veth, qdiscs) may not be counted in either.',
      ],
    };
  },
};
